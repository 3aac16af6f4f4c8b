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
    ("3 boxes: (10,20)-(40,60) on image 1, …"), an option as "A: text", with its image by
    the start of its name ("B: Pasta (image ae488bf1)": two people's different images on
    one option read the same "(image)", a blind choice), lists one per line."""
    if value is None:
        return ""
    if isinstance(value, dict) and "boxes" in value:
        return _clue(value, images)
    if isinstance(value, dict) and "x0" in value:
        return _box(value, images)
    if isinstance(value, dict) and "label" in value:
        return f"{value.get('label')}: {value.get('text') or ''}".rstrip() + (
            f" (image {str(value['image'])[:8]})" if value.get("image") else "")
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


def option_image(value) -> str | None:
    """The image of an option part's value (its content hash), None for no image or no
    option."""
    return value.get("image") or None if isinstance(value, dict) and "label" in value else None


PEOPLE = {False: (("your", "you"), ("their", "they")),
          True: (("this tab's", "this tab"), ("your other tab's", "your other tab"))}
"""(whose, who) for mine and theirs; True: the saved version is the user's own other tab."""
OWN_TAB = "your other tab"


def people(other_tab: bool | str) -> tuple[tuple[str, str], tuple[str, str]]:
    """(whose, who) for mine and theirs: `other_tab` True (or OWN_TAB) when the saved version
    is the user's own other tab, a colleague's name when several saved since my base (then
    mine is "this tab"), "them" for several of them together."""
    if isinstance(other_tab, bool) or other_tab == OWN_TAB:
        return PEOPLE[other_tab is not False]
    theirs = ("their", "they") if other_tab == "them" else (f"{other_tab}'s", other_tab)
    return PEOPLE[True][0], theirs


def merged_said(was, theirs, ours, other_tab: bool | str = False,
                images: set | None = None) -> str:
    """What a merge does with a part both changed in ways that fit together, in words:
    "your new box added; the box they removed stays removed". The row said "both (both
    kept)" and listed my copy with the box they had removed, marked as mine, while the merge
    had dropped it (a review). A clue: each field from the side that changed it, the boxes
    as a set (ui/conflict_merge.clue_merge); a list (aliases): as a set too. `images`: the
    images the merge keeps; a new box of mine on another is dropped, not "added" (the row
    said "your new box added, but its box on image 1 goes", a review)."""
    (mine, me), (their, they) = people(other_tab)
    if isinstance(was, dict) or isinstance(theirs, dict):
        was, theirs, ours = (x if isinstance(x, dict) else {} for x in (was, theirs, ours))
        said = [f"{whose} {key.replace('_', ' ')}" for key in dict.fromkeys([*was, *theirs, *ours])
                if key != "boxes" for whose, side in ((their, theirs), (mine, ours))
                if side.get(key) != was.get(key)]
        items, noun = [x.get("boxes") or [] for x in (was, theirs, ours)], "box"
    else:
        said, items, noun = [], [list(x or []) for x in (was, theirs, ours)], "alias"
    base, saved, kept = items
    if noun == "box" and images is not None:
        kept = [x for x in kept if x in base or x.get("image") in images]
    nouns = noun + ("es" if noun == "box" else "es" if noun.endswith("s") else "s")
    new = [(whose, n) for whose, n in ((mine, sum(x not in base for x in kept)),
                                       (their, sum(x not in base and x not in kept
                                                   for x in saved))) if n]
    gone = [(who, n) for who, n in ((they, sum(x not in saved for x in base)),
                                    (me, sum(x not in kept and x in saved for x in base))) if n]
    said += [f"{whose} new {noun} added" if n == 1 else f"{whose} {n} new {nouns} added"
             for whose, n in new]
    said += [f"the {noun} {who} removed stays removed" if n == 1 else
             f"the {n} {nouns} {who} removed stay removed" for who, n in gone]
    return ", ".join(said)
