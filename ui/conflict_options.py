"""The options of three copies of an item (the base I started from, theirs, mine) matched by
their labels, and the merged list built from them.

Why: the options were merged one by one only while the three copies had the same labels in
the same places; one person removing option A while the other edited option C and added E
made the whole list one part, and keeping mine lost their edit and their new option (a
review). An option's label stays with it (the editor never relabels: a new option takes the
letter after the last), so each label is a part: "(removed)" on a side that removed it,
absent (None) on a side that never had it. A part keyed "options.B" reads "option B", as
History names options.

And the gold: a multiple-choice answer names an option, so a merge that keeps my answer "D"
while taking their removal of D built an item the store refused ("gold answer has no option:
'D'"), and the panel had offered no choice. Such an option's part is one both changed
(`gold_conflicts`): the user chooses, and by default it is kept.

Pure: ui/conflict_merge.py decides each part and calls `assemble`.
"""
from __future__ import annotations

import copy

from ui.conflict_clues import REMOVED

PREFIX = "options."


def _by_label(options: list) -> dict[str, dict]:
    return {str(o.get("label")): o for o in options or []}


def _letter(label: str) -> bool:
    return len(label) == 1 and label.isalpha() and label.upper() == label


def apart(base: dict, theirs: dict, mine: dict) -> tuple[dict, dict[str, str]]:
    """(`mine` with each option I added under a letter they added too (another option: both
    pressed Add option, both got G) moved to the next free letter, {my old letter: new}).
    Theirs keeps its letter: it is saved, and their gold and History name it by it (their
    option moved to H while their gold stayed G, so the saved gold named my option: a
    review). My multiple-choice answer naming my moved option moves with it. Whole items
    (options and answer) in and out; the rest of `mine` as it was."""
    was, saved = _by_label(base.get("options")), _by_label(theirs.get("options"))
    letters = {str(o.get("label")) for c in (base, theirs, mine) for o in c.get("options") or []}
    moved, options = {}, []
    for option in mine.get("options") or []:
        label = str(option.get("label"))
        if label not in was and label in saved and saved[label] != option and _letter(label):
            free = next((chr(c) for c in range(ord(max(letters)) + 1, ord("Z") + 1)), None)
            if free:
                letters.add(free)
                moved[label] = free
                option = {**option, "label": free}
        options.append(option)
    if not moved:
        return mine, {}
    out = {**mine, "options": options}
    if mine.get("answer_type") == "multiple_choice" and str(mine.get("answer") or "") in moved:
        out["answer"] = moved[str(mine.get("answer"))]
    return out, moved


def parts(base: list, theirs: list, mine: list) -> dict[str, tuple]:
    """{"options.<label>": (base value, their value, my value)} for every label any copy
    has: the option, REMOVED where a side removed the base's option, None where a copy never
    had it. My new options are `apart` from theirs first (ui/conflict_merge)."""
    copies = [_by_label(c) for c in (base, theirs, mine)]
    labels = dict.fromkeys(label for c in copies for label in c)
    out = {}
    for label in labels:
        was = copies[0].get(label)
        out[PREFIX + label] = (was, *(side.get(label, REMOVED if was is not None else None)
                                      for side in copies[1:]))
    return out


def gold_conflicts(copies: list[dict]) -> set[str]:
    """The parts whose merge could leave a multiple-choice answer naming no option: an
    option one side removed that the other side's answer names, with the answer. Both are
    one choice (`ui.conflict_merge.merge` takes them together): kept as mine, or both
    theirs (my answer with their removal of its option, or their answer without its option,
    was an item the store refused)."""
    out = set()
    for side, other in ((copies[1], copies[2]), (copies[2], copies[1])):
        gold = str(other.get("answer") or "")
        if other.get("answer_type") != "multiple_choice" or not gold:
            continue
        if gold in _by_label(copies[0].get("options")) and \
                gold not in _by_label(side.get("options")) and \
                gold in _by_label(other.get("options")):
            out |= {PREFIX + gold, "answer"}
    return out


TYPE_PARTS = ("answer_type", "answer", "aliases")
"""The fields whose meaning is the answer type's (with every option): a numeric gold, a
multiple-choice gold naming an option, aliases read as numbers or texts."""


def type_conflicts(copies: list[dict], split: dict[str, tuple]) -> set[str]:
    """The parts that are one choice because the two sides' answer types differ and both
    changed something that depends on it: they switched multiple choice to open while I
    edited an option, and the merge kept their type with my gold "A" (an open item whose
    gold was an option's letter); I switched open to numeric while they edited the gold,
    and every Save merged was refused ("12a" no number). Taken together (all theirs or all
    mine), as `ui.conflict_merge.merge` takes `gold_conflicts`. `split`: the parts."""
    if copies[1].get("answer_type") == copies[2].get("answer_type"):
        return set()
    group = {k: v for k, v in split.items() if k in TYPE_PARTS or k.startswith(PREFIX)}
    touched = [any(v[side] != v[0] for v in group.values()) for side in (1, 2)]
    if not all(touched):
        return set()
    return {k for k, v in group.items() if v[1] != v[2]}


def assemble(base: list, theirs: list, mine: list, resolved: dict[str, object]) -> list:
    """The merged options: each label's value as `resolved` decided (REMOVED and None left
    out), in letter order; labels other than single letters in my order, an option only
    they have after the one before it in theirs (one only the base has after the one before
    it there)."""
    order = [str(o.get("label")) for o in mine or []]
    for other in (theirs, base):
        previous = None
        for option in other or []:
            label = str(option.get("label"))
            if label not in order:
                order.insert(order.index(previous) + 1 if previous in order else 0, label)
            previous = label
    if all(_letter(label) for label in order):
        order.sort()                      # letters in order, as the editor lists them
    out = [resolved.get(PREFIX + label) for label in order]
    return [copy.deepcopy(o) for o in out if o is not None and o != REMOVED]
