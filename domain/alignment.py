"""Which clue (or option) of one version of an item is which of another: by their text.

Why: clues have no stable id, and comparing them by place named the wrong ones. Removing
clue 1 of 3 read, in History, as "clue 1 rewritten, clue 2 rewritten, clue 3 removed";
Save merged brought a removed clue back over another's edit. Both now align the two lists
here, by the elements' text (an option by its label, which stays with it), so that a
removal is one removal and an edit stays with its clue. Pure: store/revisions.py (the
History diff) and ui/conflict_merge.py (Save merged) use the same alignment.
"""
from __future__ import annotations

import difflib


def words(value) -> str:
    """A text as compared: its words, whitespace folded ("a  b\\n" is "a b")."""
    return " ".join(str(value or "").split())


def signature(element: dict, key: str = "text") -> tuple:
    """All a clue holds (its text, reasoning and boxes, their corners as numbers: the
    browser sends 796 back for 796.0; an option its label): of two clues of the same text,
    which one is which (`_twins`)."""
    if key != "text":
        return (words(element.get(key)),)
    corners = ("x0", "y0", "x1", "y1")
    boxes = tuple((str(b.get("image")), *(float(b.get(k) or 0) for k in corners))
                  for b in element.get("boxes") or [] if isinstance(b, dict))
    return (words(element.get("text")), words(element.get("reasoning")), boxes)


def opcodes(before: list[dict], after: list[dict], key: str = "text") -> list[tuple]:
    """difflib's opcodes (op, i1, i2, j1, j2) turning `before` into `after`, the elements
    compared by their `key` (words): "equal", "replace", "delete", "insert". By the text
    alone: compared by all a clue holds, a copy whose boxes differed in the least (as the
    browser sends them back) made every clue "rewritten", and two clues moved past each
    other were paired in place by their alike texts (a colleague's edit was lost: a
    review)."""
    return difflib.SequenceMatcher(None, [words(x.get(key)) for x in before],
                                   [words(x.get(key)) for x in after],
                                   autojunk=False).get_opcodes()


def pairs(before: list[dict], after: list[dict],
          key: str = "text") -> list[tuple[int | None, int | None]]:
    """(index in `before`, index in `after`) of each element, in order; None on the side
    that lacks it (removed: (i, None); added: (None, j)). Where texts were rewritten, the
    rewritten ones are paired with the most alike of the other side, the rest removed or
    added: clue 1 removed and clue 2 edited is a removal and an edit of clue 2."""
    out: list[tuple[int | None, int | None]] = []
    for op, i1, i2, j1, j2 in opcodes(before, after, key):
        if op == "equal":
            out += [(i1 + k, j1 + k) for k in range(i2 - i1)]
        elif op == "replace" and i2 - i1 == j2 - j1:     # in place: edited, or another one
            for i, j in zip(range(i1, i2), range(j1, j2)):
                out += [(i, j)] if alike(before[i], after[j], key) else [(i, None), (None, j)]
        elif op == "replace":
            out += _most_alike([words(x.get(key)) for x in before[i1:i2]],
                               [words(x.get(key)) for x in after[j1:j2]], i1, j1)
        elif op == "delete":
            out += [(i, None) for i in range(i1, i2)]
        else:
            out += [(None, j) for j in range(j1, j2)]
    return _twins(_moves(out, before, after, key), before, after, key)


def _twins(out: list[tuple], before: list[dict], after: list[dict], key: str) -> list[tuple]:
    """`out` with the clues of one text paired by all they hold where that tells them
    apart: by text alone, of two clues of the same text the first was kept when the second
    was removed, and a colleague's edit of the second merged into the removal (a review)."""
    if key != "text":
        return out
    groups: dict[str, list[int]] = {}
    for i, element in enumerate(before):
        groups.setdefault(words(element.get("text")), []).append(i)
    for twins in (g for g in groups.values() if len(g) > 1):
        places = [n for n, (i, _) in enumerate(out) if i in twins]
        kept = [out[n][1] for n in places if out[n][1] is not None]
        free, given = list(twins), {}
        for j in kept:                         # the same in all it holds first
            same = next((i for i in free if signature(before[i]) == signature(after[j])), None)
            if same is not None:
                given[j] = same
                free.remove(same)
        for j in kept:
            if j not in given:
                given[j] = free.pop(0)
        for n in places:
            j = out[n][1]
            out[n] = (given[j], j) if j is not None else (free.pop(0), None)
    return out


ALIKE = 0.6
"""How alike (difflib's ratio) two texts are at least to be one element edited."""


def alike(a: dict, b: dict, key: str = "text") -> bool:
    """Are these one element, edited? Their texts alike, or (a clue) the same boxes or the
    same reasoning kept: a clue removed and another written in its place read, in History,
    as clue 2's text and reasoning rewritten (a review)."""
    x, y = words(a.get(key)), words(b.get(key))
    if difflib.SequenceMatcher(None, x, y, autojunk=False).ratio() >= ALIKE:
        return True
    return key == "text" and any(a.get(k) and a.get(k) == b.get(k) for k in ("boxes", "reasoning"))


def _moves(out: list[tuple], before: list[dict], after: list[dict], key: str) -> list[tuple]:
    """`out` with a removed element and an added one paired when they are one element: a
    clue moved (Up / Down) is that clue moved, not one removed and another added; first
    those of the same text, then those `alike` (moved and edited)."""
    gone = [i for i, j in out if j is None]
    for same in (lambda k, j: signature(before[k], key) == signature(after[j], key),
                 lambda k, j: words(before[k].get(key)) == words(after[j].get(key)),
                 lambda k, j: alike(before[k], after[j], key)):
        for n, (i, j) in enumerate(out):
            if i is None and (k := next((k for k in gone if same(k, j)), None)) is not None:
                gone.remove(k)
                out[n] = (k, j)
    return [(i, j) for i, j in out if j is not None or i in gone]


def moved(pairs: list[tuple]) -> set[int]:
    """The indexes (before) of the paired elements whose order changed against another's."""
    both = [(i, j) for i, j in pairs if i is not None and j is not None]
    return {i for i, j in both if any((k - i) * (m - j) < 0 for k, m in both)}


def _most_alike(a: list[str], b: list[str], i0: int, j0: int) -> list[tuple]:
    """The elements of two blocks of rewritten texts paired in order, the pairs' summed
    likeness the highest (a small table: such a block is a few clues); the others unpaired.
    Indexes are offset by `i0` and `j0`, where the blocks start in their lists."""
    def alike(i, j):
        return difflib.SequenceMatcher(None, a[i], b[j], autojunk=False).ratio()
    n, m = len(a), len(b)
    best = [[0.0] * (m + 1) for _ in range(n + 1)]    # best[i][j]: of a[i:] and b[j:]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            best[i][j] = max(best[i + 1][j], best[i][j + 1], alike(i, j) + best[i + 1][j + 1])
    out, i, j = [], 0, 0
    while i < n and j < m:
        if best[i][j] == alike(i, j) + best[i + 1][j + 1]:
            out.append((i0 + i, j0 + j))
            i, j = i + 1, j + 1
        elif best[i][j] == best[i + 1][j]:
            out.append((i0 + i, None))
            i += 1
        else:
            out.append((None, j0 + j))
            j += 1
    out += [(i0 + k, None) for k in range(i, n)] + [(None, j0 + k) for k in range(j, m)]
    return out
