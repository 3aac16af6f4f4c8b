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
(ui/conflict_options.py): each is a part, as a clue is. A clue both changed is merged by its
fields (`clue_merge`: text, reasoning, each from the side that changed it; boxes as a set):
only a field both changed differently is a choice. Plain data in and out; the conflict panel shows `rows`
(ui/conflict_rows.py)
with the words that differ between the two versions marked (ui/conflict_marks.py).
"""
from __future__ import annotations

import copy

from ui import conflict_clues, conflict_options
from ui import editor_model as em
from ui.conflict_clues import ADDED, MINE, ORDER, REMOVED, THEIRS
from ui.conflict_show import label, merged_said

BOTH = "both"
MERGED = "both, kept"
"""A clue both changed in ways that fit together (boxes added or removed on either side,
one its text and the other its reasoning): both kept, nothing to choose (`clue_union`)."""


def take_saved_label(version: str) -> str:
    """The question over the parts both changed (the panel's checkboxes), in plain words;
    `version` as the saved column names it ("version 3 (carol's save, after bob's)":
    conflict_authors.take_from)."""
    return (f"Both of you changed these. Tick the ones to take from {version}; "
            "the others keep yours.")


def parts(base: dict, saved: dict, mine: dict) -> dict[str, tuple]:
    """{part key: (base value, their value, my value)}; a key is a field ("question"), a
    clue ("clues.0", by its place in the base), an option ("options.B", by its label), the
    clues a side added (ADDED) or the clues' order (ORDER; ui/conflict_clues.py)."""
    copies = contents(base, saved, mine)
    out = {}
    for field in dict.fromkeys(k for c in copies for k in c):
        if field == "clues":
            out.update(conflict_clues.parts(*((c.get("clues") or []) for c in copies)))
        elif field == "options":
            out.update(conflict_options.parts(*((c.get("options") or []) for c in copies)))
        else:
            out[field] = tuple(c.get(field) for c in copies)
    return out


def contents(base: dict, saved: dict, mine: dict) -> list[dict]:
    """The three copies as compared: their content, my options added under a letter they
    added too moved to the next free one (conflict_options.apart: theirs is saved)."""
    copies = [em.content_only(c) for c in (base, saved, mine)]
    copies[2] = conflict_options.apart(*copies)[0]
    return copies


def alias_union(was: list, theirs: list, ours: list) -> list:
    """The aliases both changed, merged as sets: the base's that neither removed, and what
    either added; in their saved order, then my additions. Both adding an alias was one part
    "aliases" (you choose), and one alias was always lost (a review)."""
    was, theirs, ours = (list(x or []) for x in (was, theirs, ours))
    kept = [a for a in theirs if a in ours or a not in was]
    return list(dict.fromkeys(kept + [a for a in ours if a not in was and a not in theirs]))


def clue_clashes(was: dict, theirs: dict, ours: dict) -> list[str]:
    """The fields of one clue (text, reasoning, …) both sides changed to different values:
    the only parts of a clue that are a choice. Boxes are never one (`clue_merge`)."""
    keys = dict.fromkeys([*was, *theirs, *ours])
    return [key for key in keys if key != "boxes" and
            len({repr(x.get(key)) for x in (was, theirs, ours)}) == 3]


def clue_merge(was: dict, theirs: dict, ours: dict, take_theirs: bool = False) -> dict:
    """One clue both changed, merged by its parts: each field from the side that changed it
    (a field both changed differently: theirs when `take_theirs`, else mine), the boxes as
    a set three-way (the base's that neither removed, then those I added, then theirs).
    The clue was one choice: my new text kept with all its boxes undid their box removed,
    with no word (a review)."""
    merged = {}
    for key in dict.fromkeys([*was, *theirs, *ours]):
        if key == "boxes":
            continue
        a, b, c = was.get(key), theirs.get(key), ours.get(key)
        merged[key] = copy.deepcopy(b if b != a and (c == a or take_theirs) else c)
    base, their_boxes, my_boxes = (x.get("boxes") or [] for x in (was, theirs, ours))
    kept = [box for box in my_boxes if box not in base or box in their_boxes]
    added = [box for box in their_boxes if box not in base and box not in my_boxes]
    if "boxes" in was or "boxes" in theirs or "boxes" in ours:
        merged["boxes"] = copy.deepcopy(kept + added)
    return merged


def clue_union(was: dict, theirs: dict, ours: dict) -> dict | None:
    """One clue both changed, with both changes when they fit together: no field both
    changed differently (`clue_clashes`); None when one is a choice."""
    return None if clue_clashes(was, theirs, ours) else clue_merge(was, theirs, ours)


def changes(base: dict, saved: dict, mine: dict) -> list[tuple[str, str, object, object]]:
    """(part key, who changed it: them / you / both / both, kept, their value, my value)
    for every part someone changed, in the item's field order. Who changed a linked part
    (`linked`: one choice with others) is said as it is; every such part was said "both"
    though only one side had changed it (a review)."""
    tied = linked(base, saved, mine)
    out = []
    for key, (was, theirs, ours) in parts(base, saved, mine).items():
        if theirs == ours:
            continue            # unchanged, or both made the same change
        who = BOTH if theirs != was and ours != was else THEIRS if theirs != was else MINE
        if who == BOTH and by_fields(key, (was, theirs, ours), tied) and \
                clue_union(was, theirs, ours) is not None:
            who = MERGED
        if who == BOTH and key == "aliases" and key not in tied and \
                all(isinstance(v, list) or v is None for v in (was, theirs, ours)):
            who = MERGED                    # aliases merge as sets (`alias_union`)
        out.append((key, who, theirs, ours))
    return out


def by_fields(key: str, values: tuple, tied: set[str]) -> bool:
    """Is this part merged field by field when both changed it: a clue (text, reasoning,
    boxes) or an option (text, image) all three copies have, not one choice with others
    (`linked`)? One changing option B's text and the other its image kept only one of the
    two (a review)."""
    return key.startswith(("clues.", conflict_options.PREFIX)) and key not in tied and \
        all(isinstance(v, dict) for v in values)


def linked(base: dict, saved: dict, mine: dict) -> set[str]:
    """The parts that are one choice, taken from theirs together or not at all: an option
    removed and the answer naming it, or the answer type with what depends on it
    (conflict_options)."""
    copies = contents(base, saved, mine)
    return conflict_options.gold_conflicts(copies) | conflict_options.type_conflicts(
        copies, parts(base, saved, mine))


TOGETHER = " — taken together"


def together(base: dict, saved: dict, mine: dict, theirs_only: bool = False) -> str:
    """The one choice of the linked parts someone changed, naming all it covers ("answer
    type, options A–E, answer — taken together"); "" when none. They were a checkbox each,
    and ticking one took them all: what was ticked was not what was done (a review).
    `theirs_only`: naming only those they changed (a comment on what was kept over theirs)."""
    tied = linked(base, saved, mine)
    keys = [key for key, who, _, _ in changes(base, saved, mine)
            if key in tied and not (theirs_only and who == MINE)]
    letters = [key[len(conflict_options.PREFIX):] for key in keys
               if key.startswith(conflict_options.PREFIX)]
    names, said = [], False
    for key in keys:
        if not key.startswith(conflict_options.PREFIX):
            names.append(label(key))
        elif not said:
            said = True
            names.append(f"option {letters[0]}" if len(letters) == 1 else
                          f"options {_runs(letters)}")
    return ", ".join(names) + TOGETHER if names else ""


def _runs(letters: list[str]) -> str:
    """"A–E, G" for the letters A, B, C, D, E, G (each label as it is when not one letter)."""
    out: list[list[str]] = []
    for x in letters:
        if out and len(x) == 1 and len(out[-1][-1]) == 1 and ord(x) == ord(out[-1][-1]) + 1:
            out[-1].append(x)
        else:
            out.append([x])
    return ", ".join(r[0] if len(r) == 1 else f"{r[0]}–{r[-1]}" if len(r) > 2 else
                     f"{r[0]}, {r[1]}" for r in out)


def choice_keys(base: dict, saved: dict, mine: dict) -> dict[str, list[str]]:
    """{each of the panel's choices (`both_changed`): the part keys it covers}."""
    named, tied = part_names(base, saved, mine), linked(base, saved, mine)
    group, out = together(base, saved, mine), {}
    for key, who, _, _ in changes(base, saved, mine):
        if key in tied:
            out.setdefault(group, []).append(key)
        elif who == BOTH:
            out[named.get(key) or label(key)] = [key]
    return out


def both_changed(base: dict, saved: dict, mine: dict) -> list[str]:
    """The panel's choices: the labels (as `label` writes them) of the parts both changed,
    the linked parts as one choice (`together`) where the first of them is."""
    return list(choice_keys(base, saved, mine))


def choices_made(base: dict, saved: dict, mine: dict, take_saved
                 ) -> tuple[list, list, dict[str, list[str]]]:
    """(the parts both changed that `take_saved` takes from theirs, those it leaves mine over
    a change of theirs, {each as named: its part keys}), as the revision's comment names them
    (the linked parts by those of them they changed): a merge that kept my answer over
    theirs said only "merged with version 10 by ann1", and their answer was gone without a
    trace; "yours kept over theirs: option D, answer" named an answer they never touched
    (reviews)."""
    chosen, taken, kept, keys = set(take_saved or ()), [], [], {}
    theirs = together(base, saved, mine, theirs_only=True).removesuffix(TOGETHER)
    split, tied = parts(base, saved, mine), linked(base, saved, mine)
    for name, covered in choice_keys(base, saved, mine).items():
        said = theirs if name.endswith(TOGETHER) else name + fields_chosen(covered, split, tied)
        (taken if name in chosen else kept).append(said)
        keys[said] = covered
    return taken, kept, keys


def fields_chosen(covered: list[str], split: dict, tied: set[str]) -> str:
    """" text, reasoning": the fields of a clue (or option) merged by its parts that the
    choice decided, the only ones it took from theirs or kept of mine (`clue_merge`); ""
    for any other part. "theirs taken: clue 1" was said of their text taken with my
    reasoning kept (round-20 annotator)."""
    if len(covered) != 1 or not by_fields(covered[0], split[covered[0]], tied):
        return ""
    fields = clue_clashes(*split[covered[0]])
    return " " + ", ".join(f.replace("_", " ") for f in fields) if fields else ""


def refused_choice(base: dict, saved: dict, mine: dict, take_saved) -> str:
    """Why `take_saved` cannot be done ("" when it can): it names a linked part alone (a
    script; the panel offers only the whole choice), which cannot be taken without the rest."""
    group = together(base, saved, mine)
    if not group or group in take_saved:
        return ""
    tied = linked(base, saved, mine)
    named = part_names(base, saved, mine)
    alone = [n for n in take_saved if n in {named.get(k) or label(k) for k in tied}]
    return (f"{alone[0]} is taken from their version only with the rest of "
            f"'{group}': choose that") if alone else ""


def replaced(base: dict, saved: dict, mine: dict) -> dict[str, list[str]]:
    """{the label of each part I changed to something other than theirs: its part keys}:
    what a merge that kept their version replaced of mine (ui/editor_handlers says which,
    and ui/conflict_authors.replaced_by whose)."""
    named, out = part_names(base, saved, mine), {}
    for key, (was, theirs, ours) in parts(base, saved, mine).items():
        if ours != was and ours != theirs:
            out.setdefault(named.get(key) or label(key), []).append(key)
    return out


def merge(base: dict, saved: dict, mine: dict, take_saved: list[str] | tuple = ()) -> dict:
    """My copy with every part only they changed taken from theirs, and the parts both
    changed taken from theirs when their label is in `take_saved`."""
    chosen = set(take_saved)
    copies = contents(base, saved, mine)
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
    tied_taken = together(base, saved, mine) in chosen
    for key, who, theirs, _ in changes(base, saved, mine):
        field, _, index = key.partition(".")
        take = tied_taken if key in tied else \
            who == THEIRS or (who == BOTH and (named.get(key) or label(key)) in chosen)
        if key == ORDER:
            order_from = THEIRS if take else MINE
        elif key in ADDED.values():
            continue                  # both sides' new clues are kept (`assemble`)
        elif who == MERGED and key == "aliases":
            merged[key] = alias_union(*split[key])
        elif who == MERGED and field == "options":
            options[key] = clue_union(*split[key])
        elif who == MERGED:
            was, _, ours = split[key]
            clues[int(index)] = clue_union(was, theirs, ours)
        elif who == BOTH and field == "options" and by_fields(key, split[key], tied):
            options[key] = clue_merge(*split[key], take)
        elif field == "clues" and who == BOTH and REMOVED not in split[key][1:]:
            clues[int(index)] = clue_merge(split[key][0], theirs, split[key][2], take)
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
    table (ui/conflict_clues.names), an option of mine moved to a free letter by the letter
    I gave it too ("option H (your G)": conflict_options.apart)."""
    copies = [em.content_only(c) for c in (base, saved, mine)]
    out = conflict_clues.names(*((c.get("clues") or []) for c in copies))
    for was, now in relabelled(base, saved, mine).items():
        out[conflict_options.PREFIX + now] = f"option {now} (your {was})"
    return out


def combined(base: dict, saved: dict, mine: dict, other_tab: bool | str = False,
             take_saved: list[str] | tuple = ()) -> list[str]:
    """What Save merged combined of the parts both changed, one short line a part ("clue 3:
    your new box added, the box they removed stays removed"): the message said only
    "Merged with version 4 by ann2" (a review)."""
    named, split = part_names(base, saved, mine), parts(base, saved, mine)
    images = set(merge(base, saved, mine, take_saved).get("images") or [])
    said = [(key, merged_said(*split[key], other_tab, images))
            for key, who, _, _ in changes(base, saved, mine) if who == MERGED]
    return [f"{named.get(key) or label(key)}: {words}" for key, words in said if words]


def relabelled(base: dict, saved: dict, mine: dict) -> dict[str, str]:
    """{my option's letter: the letter the merge gives it}: my new option under a letter
    they added too moves to the next free one (conflict_options.apart)."""
    return conflict_options.apart(*(em.content_only(c) for c in (base, saved, mine)))[1]
