"""The conflict panel's rows: each part someone changed, who changed it and what a save
keeps of it, their value and mine, in words.

Why apart from ui/conflict_merge.py: that module decides the merge; this one says it to the
person choosing (who changed a part when several saved since my base, a box of mine the save
drops, clues brought back rather than added). Plain data in and out.
"""
from __future__ import annotations

import hashlib
import json

from ui import conflict_clues
from ui import editor_model as em
from ui.conflict_clues import ADDED, MINE, ORDER, REMOVED, THEIRS
from ui.conflict_merge import (BOTH, MERGED, both_changed, by_fields, changes, clue_clashes,
                               linked, merge, part_names, parts)
from ui.conflict_show import OWN_TAB, label, merged_said, option_image, show


RESTORED = "clues brought back (removed before your version)"
"""The name of the clues they added when each was in an earlier version (a removal undone):
"clues they added" said otherwise (a review)."""


def brought_back(base: dict, saved: dict, mine: dict, earlier: list[dict]) -> dict[str, str]:
    """{ADDED[THEIRS]: RESTORED} when every clue they added is one of `earlier`'s (the
    versions before my base) as it was; else {}."""
    added = parts(base, saved, mine)[ADDED[THEIRS]][1]
    before = [c for item in earlier for c in em.content_only(item).get("clues") or []]
    return {ADDED[THEIRS]: RESTORED} if added and all(c in before for c in added) else {}


def lost_boxes(base: dict, saved: dict, mine: dict, remover: str) -> dict[str, str]:
    """{part key: what the save drops of it}: my clues' new boxes on an image the merge (as the
    panel's default leaves it) no longer has, "its box on image 2 goes: alice removed image
    2", numbered as my copy numbers images. `remover`: who removed it. The panel said
    "you (yours kept)" and only the message after Save merged told the box was gone (a
    review)."""
    images = set(merge(base, saved, mine).get("images") or [])
    mine_images = list(mine.get("images") or [])
    out = {}
    split = parts(base, saved, mine)
    for key, who, _, ours in changes(base, saved, mine):
        clues = ours if key == ADDED[MINE] else [ours] if key.startswith("clues.") else []
        was = split[key][0].get("boxes") or [] if isinstance(split[key][0], dict) else []
        gone = [b.get("image") for c in clues if isinstance(c, dict)
                for b in c.get("boxes") or [] if b.get("image") not in images and b not in was]
        if who == THEIRS or not gone:
            continue
        where = [f"image {mine_images.index(i) + 1}" if i in mine_images else "an image"
                 for i in dict.fromkeys(gone)]
        boxes = f"{len(gone)} box{'es' * (len(gone) != 1)}" if key == ADDED[MINE] else \
            "its box" if len(gone) == 1 else f"its {len(gone)} boxes"
        out[key] = (f"{boxes} on {' and '.join(where)} go{'es' * (len(gone) == 1)}: "
                    f"{remover} removed {' and '.join(where)}")
    return out


def only_lost_boxes(base: dict, saved: dict, mine: dict, remover: str) -> str:
    """"Your box on image 2 was dropped: alice removed image 2. Nothing else changed." when
    my only edits were new boxes on images the saved version no longer has (numbered as my
    copy numbers them); "" otherwise. A Save merged of such edits said "Nothing to save …
    Your edits of clue 1 were replaced", which read as if a colleague's clue had won."""
    images = set(saved.get("images") or [])

    def kept(item: dict) -> dict:
        item = em.content_only(item)
        return {**item, "images": base.get("images") or [], "clues": [
            {**c, "boxes": [b for b in c.get("boxes") or [] if b.get("image") in images]}
            for c in item.get("clues") or []]}

    old = [b for c in base.get("clues") or [] for b in c.get("boxes") or []]
    gone = [b.get("image") for c in mine.get("clues") or [] for b in c.get("boxes") or []
            if b.get("image") not in images and b not in old]
    if not gone or (mine.get("images") or []) != (base.get("images") or []) or \
            kept(mine) != kept(base):
        return ""
    numbers = list(mine.get("images") or [])
    where = " and ".join(f"image {numbers.index(i) + 1}" for i in dict.fromkeys(gone))
    boxes = "Your box" if len(gone) == 1 else f"Your {len(gone)} boxes"
    return (f"{boxes} on {where} {'was' if len(gone) == 1 else 'were'} dropped: {remover} "
            f"removed {where}. Nothing else changed.")


def rows(base: dict, saved: dict, mine: dict, other_tab: bool = False,
         reloaded: bool = False, authors: dict[str, list[str]] | None = None,
         everyone: list[str] | None = None, lost: dict[str, str] | None = None,
         renamed: dict[str, str] | None = None) -> list[list[str]]:
    """The conflict table: part, who changed it (and what a save keeps), saved, yours.
    `other_tab`: the saved version is the user's own, from another tab or window: "them
    (theirs kept)" then named a colleague the heading said was not there (a review).
    `reloaded`: the saved version was loaded, my edits gone: "(yours kept)" said otherwise
    (a review). `authors`, `everyone`: when several people saved since my base, who changed
    each part and all of them (ui/conflict_authors): a colleague's change read "your other
    tab (its edit kept)" (a review). `lost`: {part key: what of mine the save drops with it}
    (`lost_boxes`). `renamed`: {part key: its name} where the versions tell more than
    `label` ("clues brought back": `RESTORED`)."""
    # each side's images numbered as that side has them: the saved version's read "image
    # 2, image 3, image 4" after its image 1 was removed (a review)
    images = [list(x.get("images") or []) for x in (saved, mine)]
    named, tied = part_names(base, saved, mine) | (renamed or {}), linked(base, saved, mine)
    split = parts(base, saved, mine)
    kept = set(merge(base, saved, mine).get("images") or [])
    several = everyone if everyone and len(everyone) > 1 else None
    out = []
    for key, who, theirs, ours in changes(base, saved, mine):
        them = ((authors or {}).get(key) or several) if several else None
        if key == ORDER:
            theirs, ours = conflict_clues.shown_order(
                *((em.content_only(c).get("clues") or []) for c in (base, saved, mine)))
        out.append([named.get(key) or label(key),
                    _who_kept(key, who, split[key], key in tied, reloaded, other_tab, them,
                              kept)
                    + (f", but {lost[key]}" if lost and key in lost and not reloaded else ""),
                    show(theirs, images[0]), show(ours, images[1])])
    return out


def row_sides(base: dict, saved: dict, mine: dict) -> list[tuple[bool, bool]]:
    """(they changed it, I changed it) per row of `rows`: the panel marks the words of a side
    only where that side changed them; in "yours" the text of the base (mine unchanged) was
    marked as if I had edited it (a review)."""
    return [(who != MINE, who != THEIRS) for _, who, _, _ in changes(base, saved, mine)]


def _who_kept(key: str, who: str, values: tuple, tied: bool, reloaded: bool,
              other_tab: bool, them: list[str] | None, images: set) -> str:
    """A row's "who changed it (and what a save keeps)". `them`: who changed the part when
    several people saved since my base (else None: "them", or "your other tab"). `images`:
    those the merge keeps (a box of mine on another is dropped: `lost_boxes` says it)."""
    if reloaded:
        return {THEIRS: "them (loaded)", MINE: "you (not kept)"}.get(who, "both (theirs loaded)")
    one = them[0] if them and len(them) == 1 else None
    name = one or (f"them ({', '.join(them)})" if them else
                   "your other tab" if other_tab else "them")
    me = "this tab" if other_tab or them else "you"
    # when several saved since my base, "both" named no one: who it is, said as the
    # two-person row says it ("both (bob and this tab; you choose)"; it read "bob and this
    # tab (you choose)" beside "both (you choose)")
    both = f"both ({' and '.join(them)} and {me}; " if them else "both ("
    if tied:
        if who in (THEIRS, MINE):
            return f"{ {THEIRS: name, MINE: me}[who]} (you choose, taken together)"
        return f"{both}you choose, taken together)"
    if who == BOTH and (key.startswith("clues.") or by_fields(key, values, set())):
        return _clue_choice(values).replace("both (", both, 1)
    if who == MERGED:
        said = merged_said(*values, one or ("them" if them else other_tab), images)
        return f"both, merged{': ' + said if said else ''}"
    if who == THEIRS:
        if name == OWN_TAB:
            return "your other tab (its edit kept)"
        return f"{name} (theirs kept)" if one or not them else \
            f"them ({', '.join(them)}; theirs kept)"
    if who == MINE:
        return f"{me} (yours kept)"
    return f"{both}you choose)"


def row_images(base: dict, saved: dict, mine: dict) -> list[tuple[str | None, str | None]]:
    """(their image, my image) per row of `rows`: an option's two images where they differ
    (the panel shows them small: "B: Pasta (image)" on both sides was a blind choice),
    (None, None) for any other row."""
    out = []
    for _, _, theirs, ours in changes(base, saved, mine):
        pair = option_image(theirs), option_image(ours)
        out.append(pair if pair[0] != pair[1] else (None, None))
    return out


def _clue_choice(values: tuple) -> str:
    """What a clue or an option both changed leaves to choose: its fields both changed
    differently (the rest is merged: `clue_merge`), or the whole clue when one side removed
    it; an option whose only changes are the ones both made: "both (you choose)"."""
    if REMOVED in values[1:] or not all(isinstance(v, dict) for v in values):
        return "both (you choose)"
    clashes = clue_clashes(*values)
    changed = {k for v in values for k in v if len({repr(x.get(k)) for x in values}) > 1}
    if "boxes" not in values[0] and changed <= set(clashes):
        return "both (you choose)"
    return f"both (you choose: {', '.join(clashes)}; the rest merged)"


def panel_seen(base: dict, saved: dict, mine: dict) -> str:
    """What the conflict panel shows of these three copies, as one short string: each part
    changed, who changed it, both values, and the choices offered. A Save merged whose edits
    give another one is not saved (ui/editor_handlers._panel_changed): the merge would not
    be the one the user saw and chose."""
    shown = [changes(base, saved, mine), both_changed(base, saved, mine)]
    said = json.dumps(shown, sort_keys=True, default=repr, ensure_ascii=False)
    return hashlib.sha256(said.encode()).hexdigest()
