"""A part of an item as the conflict panel and History name and show it: a clue as its text,
reasoning and boxes, an option as "A: text", an image by its number.

Why apart from ui/conflict_merge.py: that module decides the merge; this one only writes
values for a person to read."""
from __future__ import annotations

import re

from ui.conflict_clues import ADDED, THEIRS


def label(key: str) -> str:
    """A part as the editor names it, numbered from 1: "clue 2", "option 1", "GT reasoning"."""
    if key in ADDED.values():
        return "clues they added" if key == ADDED[THEIRS] else "clues you added"
    field, _, index = key.partition(".")
    if index and field == "options":
        return f"option {index}"          # by its label, as History names it
    if index:
        return f"{field[:-1]} {int(index) + 1}"
    return field.replace("gt_", "GT ").replace("_", " ")


def diff_label(field: str) -> str:
    """A field of store.diff_items as the editor names it: "clues[0].text" -> "clue 1 text",
    "clues[2>1].text" -> "clue 3 (now 2) text" (clue 1 was removed: the clue moved up);
    "clues[0>1]", a clue moved and not changed, -> "clue 1 moved to 2"."""
    match = re.fullmatch(r"(clues|options)\[(\d+)(?:>(\d+))?\](?:\.(\w+))?", field)
    if not match:
        return label(field)
    name, index, now, part = match.groups()
    if now is not None and not part:           # moved as it was (Up / Down): the move only
        return f"{name[:-1]} {int(index) + 1} moved to {int(now) + 1}"
    where = f" (now {int(now) + 1})" if now is not None else ""
    return f"{name[:-1]} {int(index) + 1}{where}{' ' + part if part else ''}"


def show(value, images: list[str]) -> str:
    """A part's value as a person reads it: a clue as its text, reasoning and boxes
    ("3 boxes: (10,20)-(40,60) on image 1, …"), an option as "A: text", lists one per line."""
    if value is None:
        return ""
    if isinstance(value, dict) and "boxes" in value:
        return _clue(value, images)
    if isinstance(value, dict) and "x0" in value:
        return _box(value, images)
    if isinstance(value, dict) and "label" in value:
        return f"{value.get('label')}: {value.get('text') or ''}" + (
            " (image)" if value.get("image") else "")
    if isinstance(value, list):    # an image list by number and file: "image 1 (3f2a9c01)"
        return "\n".join(show(v, images) if isinstance(v, dict) else
                         f"{_image_name(v, images)} ({str(v)[:8]})" if v in images else str(v)
                         for v in value)
    if isinstance(value, dict):
        return "\n".join(f"{k}: {v}" for k, v in value.items())
    return str(value)


def _image_name(value, images: list[str]) -> str:
    return f"image {images.index(value) + 1}" if value in images else f"image {str(value)[:10]}…"


def _box(box: dict, images: list[str]) -> str:
    return (f"({box['x0']:.0f},{box['y0']:.0f})-({box['x1']:.0f},{box['y1']:.0f}) on "
            f"{_image_name(box.get('image'), images)}")


def _clue(clue: dict, images: list[str]) -> str:
    boxes = clue.get("boxes") or []
    where = ", ".join(_box(b, images) for b in boxes)
    lines = [clue.get("text") or "", f"reasoning: {clue.get('reasoning') or ''}",
             f"{len(boxes)} box{'es' if len(boxes) != 1 else ''}" + (f": {where}" if where else "")]
    return "\n".join(lines)
