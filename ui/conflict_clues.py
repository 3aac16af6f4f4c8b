"""The clues of three copies of an item (the base I started from, theirs, mine) matched by
identity, and the merged list built from them.

Why: clues have no stable id, and merging them by place put one person's edit over another
clue. Matching them by place only while nobody moved one made every reordering one
whole-list part "clues": keeping mine brought back a clue the colleague had removed, taking
theirs lost my edits (a review). Each side's clues are now matched to the base's by their
text (domain/alignment.py, the History diff's matching, which also pairs a moved clue), so:

- every clue of the base is a part of its own, REMOVED on a side that removed it;
- the clues each side added are a part each (theirs and mine, both kept);
- the order is a part of its own ("clue order") when a side moved a clue: the list follows
  the order of the side that moved them (mine when both did, unless the user takes theirs).

Pure: ui/conflict_merge.py decides each part and calls `assemble`.
"""
from __future__ import annotations

import copy

from domain import alignment

REMOVED = "(removed)"
"""A clue's part value on the side that removed it."""
THEIRS, MINE = "them", "you"
ADDED = {THEIRS: "clues+them", MINE: "clues+you"}
"""The parts of the clues each side added."""
ORDER = "clue order"
"""The part of the clues' order, there when a side moved a clue."""


def _matched(base: list, side: list) -> dict[int, int]:
    """{index in base: index in side} of the base's clues the side still has."""
    return {i: j for i, j in alignment.pairs(base, side) if i is not None and j is not None}


def _untouched_removed(base: list, sides: tuple, maps: list[dict[int, int]]) -> None:
    """Of identical clues (all they hold the same), which one a side removed cannot be
    told; the matching took the last. When the other side edited that one and left an
    identical one as it was, the removal is that other's: a colleague's reasoning on clue 5
    was lost to a removal of clue 4, its twin (a review). `maps` is changed in place."""
    for me, other in ((0, 1), (1, 0)):
        mine, theirs = maps[me], maps[other]
        for i in [i for i in range(len(base)) if i not in mine and i in theirs]:
            if sides[other][theirs[i]] == base[i]:
                continue                       # the other side did not touch it either
            twin = next((k for k in mine if k != i and base[k] == base[i] and
                         sides[me][mine[k]] == base[k] and
                         (k not in theirs or sides[other][theirs[k]] == base[k])), None)
            if twin is not None:
                mine[i] = mine.pop(twin)


def _order(base: list, matched: dict[int, int], common: set[int]) -> list[str]:
    """The side's order as its part value: the texts of the base's clues both sides kept,
    in the side's order (a clue one side removed is that clue's part, not a new order)."""
    return [base[i].get("text") or "" for i in sorted(common, key=matched.get)]


def parts(base: list, theirs: list, mine: list) -> dict[str, tuple]:
    """{part key: (base value, their value, my value)} for the clues: "clues.i" per base
    clue, the clues each side added (ADDED) and, when a side moved one, ORDER."""
    maps = [_matched(base, side) for side in (theirs, mine)]
    _untouched_removed(base, (theirs, mine), maps)
    out = {}
    for i, clue in enumerate(base):
        out[f"clues.{i}"] = (clue, *(side[m[i]] if i in m else REMOVED
                                     for side, m in zip((theirs, mine), maps)))
    for who, side, m in ((THEIRS, theirs, maps[0]), (MINE, mine, maps[1])):
        added = [c for j, c in enumerate(side) if j not in m.values()]
        out[ADDED[who]] = ([], added, []) if who == THEIRS else ([], [], added)
    common = set(maps[0]) & set(maps[1])
    orders = [_order(base, m, common) for m in maps]
    was = _order(base, {i: i for i in common}, common)
    if any(order != was for order in orders):
        out[ORDER] = (was, *orders)
    return out


def shown_order(base: list, theirs: list, mine: list) -> tuple[list[str], list[str]]:
    """(their order, my order) as the panel shows the ORDER part: each clue by the text it
    has on that side. The part's value names them by the base's text (what is compared),
    and a clue both moved and rewritten read by its old text (a review)."""
    maps = [_matched(base, side) for side in (theirs, mine)]
    _untouched_removed(base, (theirs, mine), maps)
    common = set(maps[0]) & set(maps[1])
    return tuple([side[m[i]].get("text") or "" for i in sorted(common, key=m.get)]
                 for side, m in zip((theirs, mine), maps))


def _sequence(base: list, side: list) -> list[tuple[str, int]]:
    """The side's clues in its order: ("base", i) for the base's clue i, ("new", j) for the
    side's own clue j."""
    back = {j: i for i, j in _matched(base, side).items()}
    return [("base", back[j]) if j in back else ("new", j) for j in range(len(side))]


def _anchored(order: list, index: int) -> int:
    """Where the base clue before `index` (the nearest of those in `order`) is, plus one:
    the place after which a clue that followed it goes; 0 when none."""
    places = {i: k for k, (kind, i) in enumerate(order) if kind == "base"}
    before = [i for i in places if i < index]
    return places[max(before)] + 1 if before else 0


def assemble(base: list, theirs: list, mine: list, resolved: list,
             order_from: str = MINE) -> list:
    """The merged clues: each base clue as `resolved` decided (REMOVED ones left out), every
    clue either side added, in the order of `order_from`'s list. A base clue that side
    removed but the merge keeps goes after the base clue before it; the other side's new
    clues go after the clue they followed, theirs before mine."""
    lead, other = (theirs, mine) if order_from == THEIRS else (mine, theirs)
    order = [(kind, i, order_from) for kind, i in _sequence(base, lead)]
    present = {i for kind, i, _ in order if kind == "base"}
    for i in range(len(base)):
        if i not in present:
            order.insert(_anchored([o[:2] for o in order], i), ("base", i, order_from))
    other_side = MINE if order_from == THEIRS else THEIRS
    anchor, place = None, None
    for kind, j in _sequence(base, other):
        if kind == "base":
            anchor, place = j, None
            continue
        if place is None:                       # the first new clue after `anchor`
            place = _anchored([o[:2] for o in order], anchor + 1) if anchor is not None else 0
            while other_side == MINE and place < len(order) and order[place][0] == "new":
                place += 1                      # theirs first
        else:
            place += 1                          # after the one before it
        order.insert(place, ("new", j, other_side))
    sides = {THEIRS: theirs, MINE: mine}
    out = [resolved[i] if kind == "base" else sides[who][i] for kind, i, who in order]
    return [copy.deepcopy(c) for c in out if c is not REMOVED and c != REMOVED]


def names(base: list, theirs: list, mine: list) -> dict[str, str]:
    """What the panel calls each clue part: its number in my table ("clue 2"), or, for one
    I removed, its number in theirs with "(you removed it)". Numbered by the base, a clue
    both saw as clue 2 read "clue 3" (a review)."""
    maps = [_matched(base, side) for side in (theirs, mine)]
    _untouched_removed(base, (theirs, mine), maps)
    out = {}
    for i in range(len(base)):
        if i in maps[1]:
            out[f"clues.{i}"] = f"clue {maps[1][i] + 1}"
        else:
            number = maps[0][i] + 1 if i in maps[0] else i + 1
            out[f"clues.{i}"] = f"clue {number} (you removed it)"
    return out

