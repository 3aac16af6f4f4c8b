"""How a chart's series look: a colour of the palette, and past the palette a hatch too.

Ten colours told twelve runs apart no more: the 11th run's bars were the 1st run's blue,
the legend two identical swatches. A series' look is its colour (PALETTE[i % 10]) and a hatch
(none for the first ten, then diagonal, the other diagonal, crossed, horizontal, vertical:
60 series before a look repeats), drawn over the bar in the SVG and over the legend's swatch
in CSS (assets/cluelab.css `.cl-hatch-N`), so a run keeps one look on every chart
(`scoring.figures.run_colours` gives each run its look once, from its sorted id).
Pure: markup out.
"""
from __future__ import annotations

import hashlib
import html
from typing import NamedTuple

PALETTE = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1",
           "#ff9da7", "#9c755f", "#bab0ac")
# hatch number -> the lines of its 8x8 pattern tile (SVG path), white over the colour
HATCHES = ("", "M-2,2 l4,-4 M0,8 l8,-8 M6,10 l4,-4", "M-2,6 l4,4 M0,0 l8,8 M6,-2 l4,4",
           "M0,0 l8,8 M0,8 l8,-8", "M0,4 h8", "M4,0 v8")


class Look(NamedTuple):
    """A series' colour and hatch (0: none, plain colour)."""
    colour: str
    hatch: int = 0


def look(index: int) -> Look:
    """The look of the index-th series: the palette's colours first, then each colour again
    with the next hatch."""
    turn = index // len(PALETTE)
    return Look(PALETTE[index % len(PALETTE)], turn % len(HATCHES))


def as_look(value) -> Look:
    """A Look from a Look or a bare colour (a caller's own colours)."""
    return value if isinstance(value, Look) else Look(value)


def pattern_ids(chart_key: str) -> str:
    """A prefix for the hatch patterns of one chart: ids unique on the page (each chart
    defines its own, a hidden chart's patterns are not used by a shown one)."""
    return "clh" + hashlib.sha1(chart_key.encode()).hexdigest()[:8] + "-"


def pattern_defs(prefix: str, hatches: set[int]) -> str:
    """The SVG <defs> of the hatches used (none: nothing)."""
    used = sorted(h for h in hatches if h)
    if not used:
        return ""
    tiles = "".join(f'<pattern id="{prefix}{h}" width="8" height="8" '
                    f'patternUnits="userSpaceOnUse"><path d="{HATCHES[h]}" '
                    f'stroke="#fff" stroke-width="2" stroke-opacity="0.85"/></pattern>'
                    for h in used)
    return f"<defs>{tiles}</defs>"


def hatch_over(prefix: str, hatch: int, x: float, y: float, width: float,
               height: float) -> str:
    """The hatch drawn over a bar (nothing for a plain one); it takes no pointer, so the
    bar's tooltip still shows."""
    if not hatch:
        return ""
    return (f'<rect class="hatch" x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" '
            f'height="{height:.1f}" fill="url(#{prefix}{hatch})" pointer-events="none" '
            f'data-hatch="{hatch}"/>')


def swatch(value) -> str:
    """A legend's swatch: the colour, with the hatch over it (CSS) past the palette."""
    found = as_look(value)
    inner = f'<i class="cl-hatch-{found.hatch}"></i>' if found.hatch else ""
    return (f'<span class="swatch" style="background:{html.escape(found.colour)}">'
            f'{inner}</span>')
