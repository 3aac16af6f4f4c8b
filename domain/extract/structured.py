"""Structured output: the JSON object of the `structured` setting (VER-Bench's format).

    {"answer": "C", "clues": [{"clue": "...", "reasoning": "...", "box": [x0, y0, x1, y1]}]}

The object may be fenced (```json ... ```) or inline among other text, with trailing commas.
Key variants are accepted: "final_answer" for "answer"; "visual_clues", "evidence", ... for
"clues"; "text" / "description" for "clue"; "bbox" / "bbox_2d" / "bounding_box" for "box".
Clue entries may also be [clue, reasoning(, box)] lists, plain strings, or VER-Bench's
annotation style {"clue3": "...", "reasoning": "..."}. The answer field, when present, is read
by the answer type's reader as a statement of its own (a list of answers is ambiguous).
"""
from __future__ import annotations

import json
import re

from domain.extract.clues import boxes, clue

_FENCE = re.compile(r"```[A-Za-z]*[ \t]*\n?(.*?)```", re.S)
_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_NUMBERED_CLUE_KEY = re.compile(r"(?i)clue\s*\d+")
_ANSWER_KEYS = ("answer", "final_answer", "final answer", "finalanswer")
_CLUE_LIST_KEYS = ("clues", "visual_clues", "visual clues", "evidence", "visual_evidence",
                   "clue_list")
_TEXT_KEYS = ("clue", "text", "description", "content", "visual_clue", "evidence")
_REASON_KEYS = ("reasoning", "reason", "rationale", "explanation")
_BOX_KEYS = ("box", "bbox", "bbox_2d", "boxes", "bboxes", "bounding_box", "box_2d")
_DECODER = json.JSONDecoder()


def _keyed(data: dict, keys: tuple[str, ...]):
    lowered = {str(k).lower(): v for k, v in data.items()}
    return next((lowered[k] for k in keys if k in lowered), None)


def _structured(data) -> bool:
    return isinstance(data, dict) and (_keyed(data, _ANSWER_KEYS) is not None
                                       or _keyed(data, _CLUE_LIST_KEYS) is not None)


def find_json(text: str) -> dict | None:
    """The structured output object: the last fenced block that holds one, else the first
    `{...}` in the text that parses (trailing text and trailing commas tolerated)."""
    for block in reversed(_FENCE.findall(text)):
        for candidate in (block.strip(), _TRAILING_COMMA.sub(r"\1", block.strip())):
            try:
                data = json.loads(candidate)
            except ValueError:
                continue
            if _structured(data):
                return data
    start, tries = text.find("{"), 0
    while start >= 0 and tries < 100:
        for candidate in (text[start:], _TRAILING_COMMA.sub(r"\1", text[start:])):
            try:
                data, _ = _DECODER.raw_decode(candidate)
            except ValueError:
                continue
            if _structured(data):
                return data
            break
        start, tries = text.find("{", start + 1), tries + 1
    return None


def json_answer(data: dict) -> str | None:
    """The answer field as text ("Yes"/"No" for booleans, "A or B" for a list), or None."""
    value = _keyed(data, _ANSWER_KEYS)
    if isinstance(value, list):
        value = " or ".join(str(v) for v in value) if value else None
    if isinstance(value, bool):
        value = "Yes" if value else "No"
    if value is None or isinstance(value, dict):
        return None
    return str(value).strip() or None


def clues_from_json(data: dict) -> list[dict]:
    """Clues of a structured output: entries as objects (key variants accepted), [clue,
    reasoning(, box)] pairs, or plain strings."""
    entries = _keyed(data, _CLUE_LIST_KEYS)
    clues = []
    for entry in entries if isinstance(entries, list) else []:
        if isinstance(entry, str):
            clues.append(clue(entry))
        elif isinstance(entry, (list, tuple)) and entry and isinstance(entry[0], str):
            clues.append(clue(entry[0], entry[1] if len(entry) > 1 else None,
                              boxes(list(entry[2:]))))
        elif isinstance(entry, dict):
            text = _keyed(entry, _TEXT_KEYS)
            if text is None:  # VER-Bench annotation style: {"clue3": ..., "reasoning": ...}
                text = next((v for k, v in entry.items() if _NUMBERED_CLUE_KEY.fullmatch(k)),
                            None)
            box_value = _keyed(entry, _BOX_KEYS)
            if text is not None:
                clues.append(clue(text, _keyed(entry, _REASON_KEYS),
                                  boxes(box_value) if box_value is not None else []))
    return clues


def states_clue_list(text: str | None) -> bool:
    """Does the reply's structured object hold a clue list, an empty one included? `"clues":
    []` is the model's answer (it found no clue), not a missing field: nothing is to be
    extracted from the rest of its text for it."""
    data = find_json(text or "") if text and "{" in text else None
    return data is not None and isinstance(_keyed(data, _CLUE_LIST_KEYS), list)
