"""The conflict panel's table as HTML: in each part's saved and yours, the words that
differ marked, so that a one-word change in a long reasoning is seen without reading both
whole (ui/conflict_rows.rows gives the plain table)."""
from __future__ import annotations

import difflib
import html
import re

from ui.conflict_clues import REMOVED

_TOKENS = re.compile(r"\s+|\w+|[^\w\s]")
NONE_CELL = '<i class="cl-none">(none)</i>'
REMOVED_CELL = f'<i class="cl-none">{REMOVED}</i>'
HEADERS = ["part", "changed by", "saved", "yours"]


def table_value(rows: list[list[str]], saved: str | None = None) -> dict:
    """The conflict table's value with its headings, the saved column named by whose save
    and which version it shows (`saved`, ui/conflict_authors.saved_heading: "carol's save
    (version 3)"): the column was headed "saved" only, then "saved (bob and carol)"."""
    return {"headers": [*HEADERS[:2], saved or HEADERS[2], HEADERS[3]], "data": rows}


def marked_rows(rows: list[list[str]], images: list[tuple] | None = None,
                sides: list[tuple[bool, bool]] | None = None) -> list[list[str]]:
    """The conflict table as the panel shows it (its two version columns are HTML): in each
    part's saved and yours, the words that differ marked, so that a one-word change in a
    long reasoning is seen without reading both whole; every text escaped. `images`: per
    row, the URLs of (their image, my image) shown small under each side's text (None for
    none): an option's two images (ui/conflict_merge.row_images). `sides`: per row, whether
    (they, I) changed it: a side that did not is shown unmarked (ui/conflict_rows.row_sides)."""
    images = images or [(None, None)] * len(rows)
    sides = sides or [(True, True)] * len(rows)
    return [[part, who, *(cell + _thumb(url, side) for cell, url, side in
                          zip(marked(theirs, mine, changed), pair, ("saved", "your")))]
            for (part, who, theirs, mine), pair, changed in zip(rows, images, sides)]


def _thumb(url: str | None, side: str) -> str:
    return f'<br><img class="cl-conflict-thumb" src="{html.escape(url)}" alt="{side} image">' \
        if url else ""


def marked(theirs: str, mine: str, sides: tuple[bool, bool] = (True, True)
           ) -> tuple[str, str]:
    """(their text, my text) as HTML, each run of words the other lacks in a <mark>: class
    cl-saved on their side, cl-yours on mine, on a side `sides` says changed the part only;
    an empty side reads "(none)"; a side that removed the part reads "(removed)", not marked
    as text, and the other side's text is shown unmarked (every word of it differs from
    none: it was all marked as if changed)."""
    if REMOVED in (theirs, mine):
        return tuple(REMOVED_CELL if side == REMOVED else html.escape(side or "") or NONE_CELL
                     for side in (theirs, mine))
    a, b = _TOKENS.findall(theirs or ""), _TOKENS.findall(mine or "")
    ours_a, ours_b = [], []
    for changed, x, y in _runs(a, b):
        for out, text, kind, did in ((ours_a, x, "cl-saved", sides[0]),
                                     (ours_b, y, "cl-yours", sides[1])):
            if text:
                out.append(f'<mark class="{kind}">{html.escape(text)}</mark>'
                           if changed and did else html.escape(text))
    return "".join(ours_a) or NONE_CELL, "".join(ours_b) or NONE_CELL


def _runs(a: list[str], b: list[str]) -> list[tuple[bool, str, str]]:
    """(changed, their text, my text) runs in order; the blanks between two changed runs
    join them (one mark for "a child skates" against "children skate", not three)."""
    codes = difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    runs: list[tuple[bool, str, str]] = []
    for k, (op, i1, i2, j1, j2) in enumerate(codes):
        x, y = "".join(a[i1:i2]), "".join(b[j1:j2])
        between = 0 < k < len(codes) - 1 and not x.strip() and not y.strip()
        changed = op != "equal" or between
        if runs and changed and runs[-1][0]:
            runs[-1] = (True, runs[-1][1] + x, runs[-1][2] + y)
        else:
            runs.append((changed, x, y))
    return runs
