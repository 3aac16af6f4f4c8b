"""Merge my edits of an item with a version someone else saved meanwhile, field by field.

Why: "Save mine over it" used to write my whole copy, so every field the other person had
changed and I had not went back to what it was before them. Now the item is cut into
*parts* (each scalar field, each clue, each option, the image list, aliases, …) and the
three copies are compared: the version I started from (`base`), theirs (`saved`) and mine:

- a part only they changed keeps theirs, a part only I changed is mine;
- a part both changed (to different values) is mine unless the user chose theirs.

Clues are matched across the three copies by identity (ui/conflict_clues.py): each clue
of the base is a part, "(removed)" on a side that removed it (kept removed unless the other
side edited it), the clues each side added are a part each (both kept, theirs first), and
the order is a part when a side moved a clue. Options are matched by their labels
(ui/conflict_options.py): each is a part, as a clue is. A clue both changed in ways that fit
together is merged (`clue_union`). Plain data in and out; the conflict panel shows `rows`
with the words that differ between the two versions marked (ui/conflict_marks.py).
"""
from __future__ import annotations

import copy
import re

from ui import conflict_clues, conflict_options
from ui import editor_model as em
from ui.conflict_clues import ADDED, MINE, ORDER, REMOVED, THEIRS

BOTH = "both"
MERGED = "both, kept"
"""A clue both changed in different ways that fit together (each a box more, or one its
text and the other its reasoning): both kept, nothing to choose (`clue_union`)."""


def take_saved_label(them: str) -> str:
    """The question over the parts both changed (the panel's checkboxes), in plain words."""
    return (f"Both of you changed these. Tick the ones to take from {them}'s version; "
            "the others keep yours.")


def parts(base: dict, saved: dict, mine: dict) -> dict[str, tuple]:
    """{part key: (base value, their value, my value)}; a key is a field ("question"), a
    clue ("clues.0", by its place in the base), an option ("options.B", by its label), the
    clues a side added (ADDED) or the clues' order (ORDER; ui/conflict_clues.py)."""
    copies = [em.content_only(c) for c in (base, saved, mine)]
    out = {}
    for field in dict.fromkeys(k for c in copies for k in c):
        if field == "clues":
            out.update(conflict_clues.parts(*((c.get("clues") or []) for c in copies)))
        elif field == "options":
            out.update(conflict_options.parts(*((c.get("options") or []) for c in copies)))
        else:
            out[field] = tuple(c.get(field) for c in copies)
    return out


def clue_union(was: dict, theirs: dict, ours: dict) -> dict | None:
    """One clue both changed, with both changes when they fit together: each field changed
    by one side at most, and boxes only added (their new boxes after mine); None when they
    do not (both rewrote the text, a box removed on one side). Two annotators each boxing a
    clue had to pick one person's box and lose the other's."""
    keys = set(was) | set(theirs) | set(ours)
    merged = {}
    for key in keys - {"boxes"}:
        a, b, c = was.get(key), theirs.get(key), ours.get(key)
        if b != a and c != a and b != c:
            return None
        merged[key] = b if b != a else c
    base, their_boxes, my_boxes = (x.get("boxes") or [] for x in (was, theirs, ours))
    if not all(box in their_boxes and box in my_boxes for box in base):
        return None
    merged["boxes"] = my_boxes + [box for box in their_boxes if box not in my_boxes]
    return merged


def changes(base: dict, saved: dict, mine: dict) -> list[tuple[str, str, object, object]]:
    """(part key, who changed it: them / you / both / both, kept, their value, my value)
    for every part someone changed, in the item's field order. An option one side removed
    while the other's multiple-choice answer names it is both's (conflict_options)."""
    named = linked(base, saved, mine)
    out = []
    for key, (was, theirs, ours) in parts(base, saved, mine).items():
        if theirs == ours:
            continue            # unchanged, or both made the same change
        who = BOTH if theirs != was and ours != was else THEIRS if theirs != was else MINE
        if who == BOTH and key.startswith("clues.") and REMOVED not in (theirs, ours) and \
                clue_union(was, theirs, ours) is not None:
            who = MERGED
        if key in named:
            who = BOTH
        out.append((key, who, theirs, ours))
    return out


def linked(base: dict, saved: dict, mine: dict) -> set[str]:
    """The parts that are one choice, taken from theirs together or not at all: an option
    removed and the answer naming it, or the answer type with what depends on it
    (conflict_options)."""
    copies = [em.content_only(c) for c in (base, saved, mine)]
    return conflict_options.gold_conflicts(copies) | conflict_options.type_conflicts(
        copies, parts(base, saved, mine))


def taken(base: dict, saved: dict, mine: dict, take_saved) -> list[str]:
    """The labels of the parts both changed that a merge with `take_saved` takes from
    theirs: those ticked, and all of a linked choice when one of it is (the revision's
    comment named the one ticked only)."""
    chosen, named, tied = set(take_saved or ()), part_names(base, saved, mine), \
        linked(base, saved, mine)
    both = [(key, named.get(key) or label(key)) for key, who, _, _ in
            changes(base, saved, mine) if who == BOTH]
    tied_taken = any(name in chosen for key, name in both if key in tied)
    return [name for key, name in both if name in chosen or (key in tied and tied_taken)]


def both_changed(base: dict, saved: dict, mine: dict) -> list[str]:
    """The labels (as `label` writes them) of the parts both changed: the user's choice."""
    named = part_names(base, saved, mine)
    return [named.get(key) or label(key) for key, who, _, _ in changes(base, saved, mine)
            if who == BOTH]


def merge(base: dict, saved: dict, mine: dict, take_saved: list[str] | tuple = ()) -> dict:
    """My copy with every part only they changed taken from theirs, and the parts both
    changed taken from theirs when their label is in `take_saved`."""
    chosen = set(take_saved)
    copies = [em.content_only(c) for c in (base, saved, mine)]
    merged = copy.deepcopy(copies[2])
    split = parts(base, saved, mine)
    clues = [ours for key, (_, _, ours) in split.items() if key.startswith("clues.")]
    options = {key: ours for key, (_, _, ours) in split.items()
               if key.startswith(conflict_options.PREFIX)}
    order_from = MINE
    named = part_names(base, saved, mine)
    # an option removed and the answer naming it, or the answer type and what depends on
    # it, are one choice (conflict_options)
    tied = linked(base, saved, mine)
    tied_taken = any((named.get(key) or label(key)) in chosen for key in tied)
    for key, who, theirs, _ in changes(base, saved, mine):
        field, _, index = key.partition(".")
        take = who == THEIRS or (who == BOTH and (named.get(key) or label(key)) in chosen) \
            or (key in tied and tied_taken)
        if key == ORDER:
            order_from = THEIRS if take else MINE
        elif key in ADDED.values():
            continue                  # both sides' new clues are kept (`assemble`)
        elif who == MERGED:
            was, _, ours = split[key]
            clues[int(index)] = clue_union(was, theirs, ours)
        elif take and field == "clues":
            clues[int(index)] = theirs
        elif take and field == "options":
            options[key] = theirs
        elif take:
            merged[field] = copy.deepcopy(theirs)
    if any("options" in c for c in copies):
        merged["options"] = conflict_options.assemble(
            *((c.get("options") or []) for c in copies), options)
    if any("clues" in c for c in copies):
        merged["clues"] = conflict_clues.assemble(
            *((c.get("clues") or []) for c in copies), clues, order_from)
    return merged


def without_lost_boxes(item: dict) -> tuple[dict, int]:
    """(the merged `item` without the boxes on images it no longer has, how many): they
    removed an image while I boxed a clue that had a box on it, and my clue (mine, with that
    box) made every Save merged fail ("box on no image of the item")."""
    images = set(item.get("images") or [])
    kept, dropped = copy.deepcopy(item), 0
    for clue in kept.get("clues") or []:
        boxes = clue.get("boxes") or []
        clue["boxes"] = [b for b in boxes if b.get("image") in images]
        dropped += len(boxes) - len(clue["boxes"])
    return kept, dropped


def part_names(base: dict, saved: dict, mine: dict) -> dict[str, str]:
    """The panel's names of the parts `label` cannot name alone: a clue by its number in my
    table (ui/conflict_clues.names)."""
    return conflict_clues.names(*((em.content_only(c).get("clues") or [])
                                  for c in (base, saved, mine)))


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


def rows(base: dict, saved: dict, mine: dict, other_tab: bool = False,
         reloaded: bool = False) -> list[list[str]]:
    """The conflict table: part, who changed it (and what a save keeps), saved, yours.
    `other_tab`: the saved version is the user's own, from another tab or window: "them
    (theirs kept)" then named a colleague the heading said was not there (a review).
    `reloaded`: the saved version was loaded, my edits gone: "(yours kept)" said otherwise
    (a review)."""
    images = list(dict.fromkeys([*(mine.get("images") or []), *(saved.get("images") or [])]))
    kept = {THEIRS: "your other tab (its kept)" if other_tab else "them (theirs kept)",
            MINE: "this tab (yours kept)" if other_tab else "you (yours kept)",
            BOTH: "both (you choose)", MERGED: "both (both kept)"}
    if reloaded:
        kept = {THEIRS: "them (loaded)", MINE: "you (not kept)", BOTH: "both (theirs loaded)",
                MERGED: "both (theirs loaded)"}
    named = part_names(base, saved, mine)
    return [[named.get(key) or label(key), kept[who], show(theirs, images), show(ours, images)]
            for key, who, theirs, ours in changes(base, saved, mine)]
