"""Field-by-field differences between two item dicts, and which of one person's changes a
later version still holds.

Why apart from store/revisions.py: History's diff, the save rules, the draft notice and the
review rule (store/revisions.unreviewed_writer) all compare items by the same fields and
parts; the review rule asks it whether a person's change survived later saves, not only
whether the content differs (a merge that kept another's question over bob's held none
of bob's changes, yet bob was refused the review "for the changes of version 2").
"""
from __future__ import annotations

import re
from typing import Any

from domain import alignment

from .validation import READ_ONLY_FIELDS


def _change(field: str, before: Any, after: Any) -> list[dict]:
    return [] if before == after else [{"field": field, "before": before, "after": after}]


def _diff_list(name: str, before: list, after: list, parts: tuple[str, ...],
               key: str) -> list[dict]:
    """The elements aligned by `key` (domain/alignment.py: a clue by its text, an option by
    its label), not by place: removing clue 1 of 3 read as clue 1 and clue 2 rewritten and
    clue 3 removed. `name[i].part` for a changed part, `name[i]` for an added or removed
    element; an element now at another place is `name[i>j]` (before i, after j), the whole
element when it moved unchanged (Up / Down)."""
    changes = []
    pairs = alignment.pairs(before, after, key)
    moved = alignment.moved(pairs)
    for i, j in pairs:
        if i is None or j is None:
            index = i if j is None else j
            changes += _change(f"{name}[{index}]", None if i is None else before[i],
                               None if j is None else after[j])
            continue
        where = f"{i}" if i == j else f"{i}>{j}"
        edits = [c for part in parts for c in _change(f"{name}[{where}].{part}",
                                                      before[i].get(part), after[j].get(part))]
        if i in moved and not edits:      # moved as it was (Up / Down): the move is the change
            edits = [{"field": f"{name}[{where}]", "before": before[i], "after": after[j]}]
        changes += edits
    return changes


def diff_items(a: dict, b: dict, ignore: tuple[str, ...] = READ_ONLY_FIELDS) -> list[dict]:
    """[{field, before, after}] for every difference between two item dicts.

    Scalar fields by name (`question`); clues and options per index and part
    (`clues[2].text`, `clues[1].boxes`, `options[0].image`; a whole added/removed clue is
    `clues[3]` with None on the missing side; `clues[2>1].text`: the clue 2 was, now 1),
    aligned by their text (options by label), not by place (`_diff_list`); `images`, `aliases` and `problems` as whole
    lists (a reorder is one change); metadata per key (`metadata.source`). Indexes are
    0-based. Read-only fields (version, updated_at, updated_by, flagged) are ignored by
    default, since they differ between any two versions.
    """
    changes: list[dict] = []
    fields = list(a) + [k for k in b if k not in a]
    for field in fields:
        if field in ignore:
            continue
        before, after = a.get(field), b.get(field)
        if field == "clues":
            changes += _diff_list("clues", before or [], after or [],
                                  ("text", "reasoning", "boxes"), "text")
        elif field == "options":
            changes += _diff_list("options", before or [], after or [],
                                  ("label", "text", "image"), "label")
        elif field == "metadata" and isinstance(before, dict) and isinstance(after, dict):
            for key in list(before) + [k for k in after if k not in before]:
                changes += _change(f"metadata.{key}", before.get(key), after.get(key))
        else:
            changes += _change(field, before, after)
    return changes


MOVED_WHOLE = re.compile(r"\w+\[\d+>\d+\]")
"""An element moved as it was (Up / Down): its new place is the change it made."""
ELEMENT = re.compile(r"(\w+)\[\d+\]")
"""A whole element: added (nothing before) or removed (nothing after)."""


def held_changes(before: dict, mine: dict, later: dict,
                 ignore: tuple[str, ...] = READ_ONLY_FIELDS) -> list[str]:
    """The fields (as `diff_items` names them) that `mine` changed from `before` and `later`
    still holds with the value `mine` gave them, compared field by field and part by part:
    both diffs are from `before`, so a part is the same part when its place in `before` is
    (`clues[2>1].text` is `clues[2].text`). A change another person replaced, or undid, is
    not held; an added element is held while `later` has one like it (the same, or of the
    same text / label), a move while the element stands at the same new place."""
    now = diff_items(before, later, ignore)
    return [c["field"] for c in diff_items(before, mine, ignore)
            if any(_same_change(c, d) for d in now)]


def _same_change(c: dict, d: dict) -> bool:
    added = ELEMENT.fullmatch(c["field"]) and c["before"] is None
    if added:
        name = ELEMENT.fullmatch(c["field"]).group(1)
        key = "text" if name == "clues" else "label"
        return bool(ELEMENT.fullmatch(d["field"])) and d["before"] is None and \
            d["field"].startswith(f"{name}[") and isinstance(d["after"], dict) and (
                d["after"] == c["after"] or alignment.words(d["after"].get(key)) ==
                alignment.words(c["after"].get(key)))
    if MOVED_WHOLE.fullmatch(c["field"]):
        return d["field"] == c["field"] or d["field"].startswith(c["field"] + ".")
    return _place(c["field"]) == _place(d["field"]) and d["after"] == c["after"] and \
        not (ELEMENT.fullmatch(d["field"]) and d["before"] is None)


def _place(field: str) -> str:
    """A diff field by its place in the version both diffs start from."""
    return re.sub(r">\d+\]", "]", field)


def named(fields: list[str]) -> str:
    """Diff fields in plain words, by the field they are of: "question, GT reasoning and
    clues"."""
    names = list(dict.fromkeys(re.split(r"[\[.]", f)[0].replace("gt_", "GT ").replace("_", " ")
                               for f in fields))
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
