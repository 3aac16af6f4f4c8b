"""The size limits of an item (domain/limits.py), checked on its canonical form.

`normalize_item` (store/validation.py) calls `over_limit` on every item it is given, so the
editor's save, an import, a restore, a merge and a script are all held to the same limits.
The answer names the field as the store does (`clues[2].reasoning`) and says in words what is
too large and the limit ("Clue 3 reasoning is 60,000 characters; the limit is 20,000"); it
never quotes the value.
"""
from __future__ import annotations

import json

from domain.item_ids import direction_marks_problem
from domain import limits as L

from .errors import TooLargeError, ValidationError

_TEXTS = (("dataset", "Dataset", L.MAX_NAME), ("domain", "Domain", L.MAX_NAME),
          ("subtask", "Subtask", L.MAX_NAME), ("reasoning_type", "Reasoning type", L.MAX_NAME),
          ("question", "Question", L.MAX_QUESTION), ("answer", "Gold answer", L.MAX_ANSWER),
          ("gt_reasoning", "GT reasoning", L.MAX_GT_REASONING))


def over_limit(item: dict) -> tuple[str, str] | None:
    """(field, message) of the first part of the canonical `item` over its limit, or None."""
    for field, what, limit in _TEXTS:
        found = L.too_long(what, len(item[field] or ""), limit)
        if found:
            return field, found
    for field, what, plural, count, each in (
            ("aliases", "Alias", "aliases", L.MAX_ALIASES, L.MAX_ALIAS),
            ("problems", "Import problem", "import problems", L.MAX_PROBLEMS, L.MAX_PROBLEM)):
        texts = item[field]
        found = L.too_many("The item", plural, len(texts), count)
        if found:
            return field, found
        for i, text in enumerate(texts):
            found = L.too_long(f"{what} {i + 1}", len(text), each)
            if found:
                return f"{field}[{i}]", found
    found = L.too_many("The item", "images", len(item["images"]), L.MAX_IMAGES)
    if found:
        return "images", found
    return _options(item["options"]) or _clues(item["clues"]) or _metadata(item["metadata"])


def _listed(field: str, what: str, rows: list[dict], most: int,
            parts: tuple[tuple[str, int], ...]) -> tuple[str, str] | None:
    """How many `rows` (options, clues) and the length of each one's text `parts`."""
    found = L.too_many("The item", f"{what.lower()}s", len(rows), most)
    if found:
        return field, found
    for i, row in enumerate(rows):
        for part, limit in parts:
            found = L.too_long(f"{what} {i + 1} {part}", len(row[part] or ""), limit)
            if found:
                return f"{field}[{i}].{part}", found
    return None


def _options(options: list[dict]) -> tuple[str, str] | None:
    return _listed("options", "Option", options, L.MAX_OPTIONS,
                   (("label", L.MAX_OPTION_LABEL), ("text", L.MAX_OPTION_TEXT)))


def _clues(clues: list[dict]) -> tuple[str, str] | None:
    found = _listed("clues", "Clue", clues, L.MAX_CLUES,
                    (("text", L.MAX_CLUE_TEXT), ("reasoning", L.MAX_CLUE_REASONING)))
    if found:
        return found
    for c, clue in enumerate(clues):
        found = L.too_many(f"Clue {c + 1}", "boxes", len(clue["boxes"]), L.MAX_BOXES_PER_CLUE)
        if found:
            return f"clues[{c}].boxes", found
    found = L.too_many("The item", "boxes", sum(len(c["boxes"]) for c in clues), L.MAX_BOXES)
    return ("clues", found) if found else None


def _metadata(metadata: dict) -> tuple[str, str] | None:
    found = L.too_long("Metadata (as JSON)", len(json.dumps(metadata)), L.MAX_METADATA)
    return ("metadata", found) if found else None


def refuse_note(what: str, text: str | None, limit: int, item_id: str | None,
                field: str) -> None:
    """TooLargeError when `text` (a comment, a reason, a review's note) is over `limit`:
    "item demo/x: note: Review note is 9,000 characters; the limit is 5,000"; ValidationError
    when it holds text-direction controls (domain.item_ids.direction_marks_problem), which
    made History list "fixed typo \u202egnp.exe" as "fixed typo exe.png"."""
    where = f"item {item_id}: " if item_id else ""
    found = L.too_long(what, len(text or ""), limit)
    if found:
        raise TooLargeError(f"{where}{field}: {found}", item_id, field, found)
    if found := direction_marks_problem(what, text):
        raise ValidationError(f"{where}{field}: {found}", item_id, field)
