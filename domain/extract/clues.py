"""Clues written as text, and the boxes in them.

A clue is {"text", "reasoning", "box"} (box [x0, y0, x1, y1] or None), plus "boxes" when it
has several. In free text, clues are "Clue 1: ..." lines (a "Clue 2: ..." that starts a
sentence inside a line starts a line of its own), or list items ("- ...", "1. ...")
under a "Visual clues:" / "Evidence:" heading; a "Reasoning: ..." part (in the item or on the
next line) is the clue's reasoning and a [x0, y0, x1, y1] in it is its box. Clues of JSON
output are read in structured.py.

Which convention the boxes use, and where they fall on the original image: domain.geometry.
"""
from __future__ import annotations

import re

from domain.extract.statements import CLUE_HEADING, CLUE_LINE, DECORATION

BOX_IN_TEXT = re.compile(r"[\[(]\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*,\s*"
                         r"(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*[\])]")
_CORNER_KEYS = (("x0", "y0", "x1", "y1"), ("xmin", "ymin", "xmax", "ymax"),
                ("left", "top", "right", "bottom"))


def boxes(value) -> list[list[float]]:
    """Boxes from [x0,y0,x1,y1], a list of those, {"x0".."y1"} / {"xmin".."ymax"}, or text."""
    if isinstance(value, str):
        return [[float(v) for v in m] for m in BOX_IN_TEXT.findall(value)]
    if isinstance(value, dict):
        for keys in _CORNER_KEYS:
            if all(isinstance(value.get(k), (int, float)) for k in keys):
                return [[float(value[k]) for k in keys]]
        return []
    if isinstance(value, (list, tuple)):
        if len(value) == 4 and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                   for v in value):
            return [[float(v) for v in value]]
        return [box for item in value for box in boxes(item)]
    return []


def clue(text, reasoning=None, found=()) -> dict:
    """A clue dict from its text, reasoning and boxes (the first is "box")."""
    found = list(found)
    made = {"text": str(text).strip(), "reasoning": str(reasoning).strip() if reasoning else None,
            "box": found[0] if found else None}
    if len(found) > 1:
        made["boxes"] = found
    return made


_ITEM = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+(.+)$")
_CLUE_INSIDE = re.compile(r"(?i)(?<=[.!?;])[ \t]+(?=[*_]*clue\s*\d+[\s*_]*[:：])")
"""Where a "Clue N:" starts a sentence inside a line ("Let me look. Clue 1: the sign ..."):
a sentence's end, then "Clue", a number and a colon. Prose naming a clue ("as clue 2 shows",
"this clue: ...", "clue 2. The bus") is not cut."""


def _lines(text: str) -> list[str]:
    """The text's lines, each cut where a "Clue N:" starts a sentence inside it: a clue the
    model wrote after other text on its line is read, as one at the line's start is."""
    return [part for line in text.splitlines() for part in _CLUE_INSIDE.split(line)]
_REASONING = re.compile(r"(?i)[\s*_(]*reasoning[\s*_]*:[\s*_]*")


def _clue_entries(lines: list[str]) -> list[list[int]]:
    """Per clue, the indices of its lines: "Clue 1: ..." lines, else the list items under a
    "Visual clues:" heading (the list ends at the first other non-empty line), each followed
    by its "Reasoning: ..." lines."""
    entries: list[list[int]] = []
    for i, line in enumerate(lines):
        if CLUE_LINE.match(line):
            entries.append([i])
        elif entries and _REASONING.match(line):
            entries[-1].append(i)
    if entries:
        return entries
    heading = next((i for i, line in enumerate(lines) if CLUE_HEADING.match(line)), None)
    for i in range(heading + 1, len(lines)) if heading is not None else ():
        line = lines[i]
        if _ITEM.match(line):
            entries.append([i])
        elif entries and _REASONING.match(line):
            entries[-1].append(i)
        elif line.strip() and entries:
            break
    return entries


def clues_from_text(text: str) -> list[dict]:
    """Clues written as "Clue 1: ..." lines, or as list items under a "Visual clues:" heading.
    A following "Reasoning: ..." line, or one inside the item, is the clue's reasoning; a
    [x0, y0, x1, y1] in the item is its box."""
    lines = _lines(text)
    clues = []
    for indices in _clue_entries(lines):
        first = lines[indices[0]]
        m = CLUE_LINE.match(first) or _ITEM.match(first)
        whole = " ".join([m.group(1)] + [lines[i] for i in indices[1:]])
        found = boxes(whole)
        whole = BOX_IN_TEXT.sub("", whole)
        split = _REASONING.split(whole, maxsplit=1)
        text_part = tidy_clue_text(split[0])
        reasoning = _closed(split[1]) if len(split) > 1 else None
        if text_part:
            clues.append(clue(text_part, reasoning, found))
    return clues


_QUOTE_PAIRS = {'"': '"', "'": "'", "`": "`", "“": "”", "‘": "’", "«": "»"}
_EDGES = "".join(ch for ch in DECORATION
                 if ch not in {*_QUOTE_PAIRS, *_QUOTE_PAIRS.values()}) + " .;,"


def tidy_clue_text(text: str) -> str:
    """A clue's text without the list's decoration around it (emphasis, a colon, a final
    full stop). Quotes are the clue's own unless they wrap all of it: "shows 'TUE 14:37'"
    keeps its closing quote (stripped as decoration, it read "shows 'TUE 14:37"), and
    "\"EXIT 12\" is on the sign" its opening one."""
    text = text.strip(_EDGES)
    while len(text) > 1 and _QUOTE_PAIRS.get(text[0]) == text[-1] and \
            text[0] not in text[1:-1] and text[-1] not in text[1:-1]:
        text = text[1:-1].strip(_EDGES)
    return text


def _closed(reasoning: str) -> str:
    """The reasoning after "(reasoning: ...": without the parenthesis that closes the one
    opened before "reasoning" ("signs name exits (usually))" -> "... (usually)")."""
    reasoning = reasoning.strip()
    if reasoning.endswith(")") and reasoning.count(")") > reasoning.count("("):
        reasoning = reasoning[:-1].rstrip()
    return reasoning


def prose(text: str) -> str:
    """The text without its clues: the lines `clues_from_text` reads as clues (with their
    reasoning lines) and "Clues:" headings. Where a rule without an answer marker may look
    for the answer: a clue is evidence, never the answer, and a number inside one ("1. The
    alcove is 110 cm wide") is no answer either."""
    lines = _lines(text)
    clue_lines = {i for entry in _clue_entries(lines) for i in entry}
    return "\n".join(line for i, line in enumerate(lines)
                     if i not in clue_lines and not CLUE_HEADING.match(line))


LIST_NUMBERING = re.compile(r"^\(?\d+[.)]\s+(?=\S)")
"""A list entry's numbering ("2. ", "2) "): never part of an answer."""
