"""Import problems about parts the file lost, which the editor tells how to fix: an image not
imported ("Add image adds one") and a clue's invalid box (draw it again). Each holds until
that is done; judges/gold_check.still_holds asks here for the kinds it has no rule of."""
from __future__ import annotations

import re

IMAGE_KINDS = ("image file not found", "unsafe image path", "unreadable image",
               "ambiguous image name", "malformed image", "malformed image path")
"""An image of the file not imported: `kind: image N (...)` (formats/importer.py)."""
_IMAGE_N = re.compile(r"^[^:]+: image (\d+)\b")
_CLUE_N = re.compile(r"^invalid box: clue (\d+)\b")


def lost_part_holds(kind: str, problem: str, item: dict) -> bool | None:
    """The problems the editor tells how to fix (Add image; draw the clue's box again) hold
    until that is done: image N lost at import holds while the item has fewer than N
    images; clue N's invalid box while clue N has no box (the store checks every box
    drawn). They stayed flagged after exactly the fix the editor suggested."""
    image = _IMAGE_N.match(problem) if kind in IMAGE_KINDS else None
    if image:
        return len(item.get("images") or []) < int(image.group(1))
    clue = _CLUE_N.match(problem) if kind == "invalid box" else None
    if clue:
        clues = item.get("clues") or []
        index = int(clue.group(1)) - 1
        return index < len(clues) and not (clues[index].get("boxes") or [])
    return None


NO_IMAGE_OF_THE_ITEM = "so it is on no image of the item"
"""An invalid box on an image its line does not have (formats/jsonl._box_fault): no image of
the item is the one it was drawn on, so no edit puts it back."""


def edit_can_fix(problem: str) -> bool:
    """Can an edit fix a problem that still holds? Not a box on an image the line does not
    have: the save's "fix what it says" sent the annotator to the editor for it, where only
    "Mark import problems resolved" can settle it."""
    return NO_IMAGE_OF_THE_ITEM not in problem
