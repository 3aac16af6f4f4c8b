"""Clues written as text, and boxes: parsing them, telling their convention, converting them.

A clue is {"text", "reasoning", "box"} (box [x0, y0, x1, y1] or None), plus "boxes" when it
has several. In free text, clues are "Clue 1: ..." lines, or list items ("- ...", "1. ...")
under a "Visual clues:" / "Evidence:" heading; a "Reasoning: ..." part (in the item or on the
next line) is the clue's reasoning and a [x0, y0, x1, y1] in it is its box. Clues of JSON
output are read in structured.py.

Box conventions (pixels, 0-1 or 0-1000 normalised): see detect_box_convention().
"""
from __future__ import annotations

import re

from runner.extract.statements import DECORATION

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


_CLUE_LINE = re.compile(r"(?i)^[\s*_#>-]*clue\s*\d+[\s*_]*[:.)\-–][\s*_]*(.+)$")
_HEADING = re.compile(r"(?i)^[\s*_#]*(?:key\s+|visual\s+)?(?:clues|evidence)[\s*_]*:?[\s*_]*$")
_ITEM = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+(.+)$")
_REASONING = re.compile(r"(?i)[\s*_(]*reasoning[\s*_]*:[\s*_]*")


def clues_from_text(text: str) -> list[dict]:
    """Clues written as "Clue 1: ..." lines, or as list items under a "Visual clues:" heading.
    A following "Reasoning: ..." line, or one inside the item, is the clue's reasoning; a
    [x0, y0, x1, y1] in the item is its box."""
    items: list[list[str]] = []
    lines = text.splitlines()
    for line in lines:
        m = _CLUE_LINE.match(line)
        if m:
            items.append([m.group(1)])
        elif items and _REASONING.match(line):
            items[-1].append(line)
    if not items:
        heading = next((i for i, line in enumerate(lines) if _HEADING.match(line)), None)
        for line in lines[heading + 1:] if heading is not None else []:
            m = _ITEM.match(line)
            if m:
                items.append([m.group(1)])
            elif items and _REASONING.match(line):
                items[-1].append(line)
            elif line.strip() and items:
                break
    clues = []
    for parts in items:
        whole = " ".join(parts)
        found = boxes(whole)
        whole = BOX_IN_TEXT.sub("", whole)
        split = _REASONING.split(whole, maxsplit=1)
        text_part = split[0].strip(DECORATION + " .;,")
        if text_part:
            clues.append(clue(text_part, split[1].strip() if len(split) > 1 else None, found))
    return clues


def detect_box_convention(clues: list[dict], image_size: tuple[int, int] | None = None
                          ) -> tuple[str | None, str]:
    """Which coordinate system the model's boxes use, and the rule that decided it.

    1. every coordinate within 0..1                      -> normalized_1
    2. some coordinate above 1000                        -> pixels
    3. all within 0..1000 and the image size unknown     -> normalized_1000 (Qwen-VL style)
    4. known size, a box reaching beyond the image       -> normalized_1000
    5. known size, the image over 1000 px on some side   -> normalized_1000 (a model that gives
       pixels of a large image rarely keeps every box in its top-left 1000 px)
    6. otherwise (boxes fit an image of at most 1000 px) -> pixels
    """
    found = [box for c in clues for box in c.get("boxes") or ([c["box"]] if c.get("box") else [])]
    if not found:
        return None, ""
    coords = [v for box in found for v in box]
    if all(0 <= v <= 1 for v in coords):
        return "normalized_1", "all coordinates within 0-1"
    if max(coords) > 1000:
        return "pixels", "a coordinate above 1000"
    if image_size is None:
        return "normalized_1000", "coordinates within 0-1000, image size unknown"
    width, height = image_size
    if any(max(b[0], b[2]) > width or max(b[1], b[3]) > height for b in found):
        return "normalized_1000", f"within 0-1000 but outside the {width}x{height} image"
    if max(width, height) > 1000:
        return "normalized_1000", f"coordinates within 0-1000 on a {width}x{height} image"
    return "pixels", f"coordinates fit the {width}x{height} image"


def box_to_pixels(box: list[float], convention: str, image_size: tuple[int, int]) -> list[float]:
    """A model box in original-image pixels, given its convention and the image's size."""
    if convention == "pixels":
        return list(box)
    unit = 1.0 if convention == "normalized_1" else 1000.0
    width, height = image_size
    return [box[0] / unit * width, box[1] / unit * height, box[2] / unit * width,
            box[3] / unit * height]
