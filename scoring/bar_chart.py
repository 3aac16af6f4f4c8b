"""Grouped bar charts as SVG: one cluster of bars per group, one bar (and colour) per series.

Gradio's native bar plot stacks the bars of one x value when they have a colour, so two
runs' accuracies of 66.7 and 33.3 in a domain read as one bar of "100". This draws them
side by side instead, each with its value on top and a tooltip (its n), on a 0-100 axis.
Group labels that would not fit are turned; one longer than LONGEST_LABEL draws the bars
horizontally with each label wrapped on as many lines as it needs (never cut: two runs'
labels that differ only at their end stay different), its full text in the tooltip too;
the legend is HTML above the chart, so it wraps instead of being cut.
Every chart fits its box: the SVG has a viewBox and width 100%, and is drawn at most
MIN_WIDTH wide. When the clusters would not fit that width side by side (16 subtasks x 3
runs), the bars are drawn horizontally instead, a row per group with its label beside it, so
the chart grows downwards, never wider than its column, and its text keeps its size.

A bar may carry a note drawn above its value (a bin's n: "n 1", so that a 0 of one item does
not read as a 0 of many), and a slot may be marked "no items" (value None), or with its own
words when it has a note ("n=0": a group whose items none was scored): an empty slot is then
told apart from a bar of 0%, which a missing bar is not.

Pure: plain values in, markup out; every label that comes from data is escaped. The look
(fonts, colours of the axes) is in assets/cluelab.css under `.cluelab-chart`.
"""
from __future__ import annotations

import html
import math

from scoring.chart_looks import (PALETTE, Look, as_look, hatch_over, look, pattern_defs,
                                 pattern_ids, swatch)
BAR, GAP, LEFT, TOP, PLOT_HEIGHT, CHAR = 18, 22, 44, 16, 220, 6.6
MIN_WIDTH, LONGEST_LABEL = 560, 32


__all__ = ["PALETTE", "Look", "look", "grouped_bars_svg", "horizontal_bars_svg"]


def wrapped(text: str, width: int) -> list[str]:
    """`text` on lines of at most `width` characters, broken at spaces (a word longer than a
    line is split); nothing is left out: the lines joined by spaces give the text back
    (but for the spaces a split word loses none)."""
    lines: list[str] = []
    for word in text.split():
        while len(word) > width:
            lines.append(word[:width])
            word = word[width:]
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        elif word:
            lines.append(word)
    return lines or [""]


def spaced(text: str, lines: list[str]) -> list[str]:
    """`lines` (`wrapped(text, …)`) each but the first led by the space the text broke at (a
    word split for its length gets none): a label's lines are one text, and without the
    space its text read "Functional SpatialRelations" (copied, or read out). Leading, so a
    right-aligned line keeps its edge: the space sits left of it, unseen."""
    text = " ".join(text.split())
    out, at = [], 0
    for line in lines:
        found = text.find(line, at)
        out.append((" " if found > at else "") + line)
        at = found + len(line)
    return out


def series_colours(series: list[str], colours: dict | None = None) -> dict[str, Look]:
    """{series: look (colour and hatch)}: from `colours` when given (a run keeps its look on
    every chart of a page, `scoring.figures.run_colours`), else the looks in the series'
    order (past the palette's ten colours, hatched: `scoring.chart_looks`)."""
    return {name: as_look((colours or {}).get(name) or look(s))
            for s, name in enumerate(series)}


NO_ITEMS = "no items"


def _slot(found: tuple) -> tuple:
    """(value or None, tooltip, note) of a values entry: (value, tooltip[, note])."""
    return (*found, "")[:3]


def _no_items(x: float, y: float, tooltip: str, series: str, group: str,
              turn: bool, words: str = "") -> str:
    """The mark of a slot with no value: its words (`words`, else "no items"), not a bar (a
    bar of 0% is a value; this is the absence of one)."""
    esc = html.escape
    rotate = f' transform="rotate(-90 {x:.1f} {y:.1f})"' if turn else ""
    return (f'<text class="no-items" x="{x:.1f}" y="{y:.1f}"{rotate} '
            f'data-series="{esc(series)}" data-group="{esc(group)}">'
            f'<title>{esc(tooltip)}</title>{esc(words or NO_ITEMS)}</text>')


def grouped_bars_svg(groups: list[str], series: list[str], values: dict, *, caption: str,
                     y_label: str = "accuracy (%)", y_max: float = 100.0,
                     empty: str = "Nothing to plot yet.",
                     colours: dict | None = None) -> str:
    """values: {(group, series): (value, tooltip text[, note])}; a missing pair leaves its
    slot empty (the other bars keep their places), a value None marks it with its note
    ("n=0"), else "no items", and a note ("n 1") is written above a bar's value. `caption` says what the chart shows;
    `colours`: {series: colour} (default: the palette in the series' order)."""
    esc = html.escape
    colours = series_colours(series, colours)
    if not values:
        return f'<div class="cluelab-chart"><p class="cluelab-chart-empty">{esc(empty)}</p></div>'
    # bars widen (up to 3 x BAR) when few clusters leave room in the chart's minimum width
    bar = max(BAR, min(3 * BAR, (MIN_WIDTH - LEFT - GAP) / max(1, len(groups))
                       / max(1, len(series)) - GAP / max(1, len(series))))
    cluster = len(series) * bar
    longest = max((len(g) for g in groups), default=1) * CHAR
    turned = longest > cluster + GAP - 4
    # a turned label hangs down to the left of its cluster: the first one must fit
    left = max(LEFT, longest * math.cos(math.radians(35)) - GAP - cluster / 2 + 8) \
        if turned else LEFT
    width_needed = left + len(groups) * (cluster + GAP) + GAP
    if width_needed > MIN_WIDTH or longest > LONGEST_LABEL * CHAR:
        return _figure(caption, series, horizontal_bars_svg(groups, series, values,
                                                             caption=caption,
                                                             x_label=y_label, x_max=y_max,
                                                             colours=colours), colours)
    bottom = (longest * math.sin(math.radians(35)) + 22) if turned else 26
    width = max(MIN_WIDTH, width_needed)
    top = TOP + (12 if any(_slot(v)[2] and _slot(v)[0] is not None
                           for v in values.values()) else 0)   # room for bars' notes
    height = top + PLOT_HEIGHT + bottom

    def y(value: float) -> float:
        return top + PLOT_HEIGHT * (1 - max(0.0, min(value, y_max)) / y_max)

    ids = pattern_ids(caption + "|" + "|".join(series))
    parts = [_svg_start(width, height, caption),
             pattern_defs(ids, {found.hatch for found in colours.values()})]
    for value in _ticks(y_max):
        parts.append(_tick((left, width_needed, y(value), y(value)),
                           (left - 6, y(value) + 4), "end", value))
    axis_x, middle = left - 32, top + PLOT_HEIGHT / 2
    parts.append(f'<text class="axis-title" x="{axis_x:.0f}" y="{middle:.0f}" '
                 f'transform="rotate(-90 {axis_x:.0f} {middle:.0f})" '
                 f'text-anchor="middle">{esc(y_label)}</text>')
    for g, group in enumerate(groups):
        x0 = left + GAP + g * (cluster + GAP)
        for s, name in enumerate(series):
            found = values.get((group, name))
            if found is None:
                continue
            value, tooltip, note = _slot(found)
            x = x0 + s * bar
            if value is None:
                parts.append(_no_items(x + bar / 2 + 4, top + PLOT_HEIGHT - 4, tooltip, name,
                                       group, turn=True, words=note))
                continue
            y_top = y(value)
            parts.append(f'<rect class="bar" x="{x + 1:.1f}" y="{y_top:.1f}" '
                         f'width="{bar - 2:.1f}" height="{top + PLOT_HEIGHT - y_top:.1f}" '
                         f'fill="{colours[name].colour}" '
                         f'data-series="{esc(name)}" data-group="{esc(group)}">'
                         f'<title>{esc(tooltip)}</title></rect>'
                         + hatch_over(ids, colours[name].hatch, x + 1, y_top, bar - 2,
                                      top + PLOT_HEIGHT - y_top) +
                         _value_text(value, x + bar / 2, y_top - 3, bar))
            if note:
                parts.append(f'<text class="value-note" x="{x + bar / 2:.1f}" '
                             f'y="{y_top - 14:.1f}" text-anchor="middle">{esc(note)}</text>')
        centre, base = x0 + cluster / 2, top + PLOT_HEIGHT + 14
        anchor = (f'text-anchor="end" transform="rotate(-35 {centre:.1f} {base:.1f})"'
                  if turned else 'text-anchor="middle"')
        parts.append(f'<text class="label" x="{centre:.1f}" y="{base:.1f}" {anchor}>'
                     f'<title>{esc(group)}</title>{esc(group)}</text>')
    parts.append("</svg>")
    return _figure(caption, series, "".join(parts), colours)


def _svg_start(width: float, height: float, caption: str, extra_class: str = "") -> str:
    """The SVG element: at most `width` wide, as wide as its box (CSS width 100%)."""
    return (f'<svg class="cluelab-chart-svg{extra_class}" style="max-width:{width:.0f}px" '
            f'viewBox="0 0 {width:.0f} {height:.0f}" role="img" '
            f'aria-label="{html.escape(caption)}">')


def _ticks(top: float) -> list[float]:
    return [top * tick / 100 for tick in range(0, 101, 25)]


def _tick(line: tuple, at: tuple, anchor: str, value: float) -> str:
    """A grid line (x1, x2, y1, y2) and its value written at (x, y)."""
    x1, x2, y1, y2 = line
    return (f'<line class="grid" x1="{x1:.1f}" x2="{x2:.1f}" y1="{y1:.1f}" y2="{y2:.1f}"/>'
            f'<text class="tick" x="{at[0]:.1f}" y="{at[1]:.1f}" text-anchor="{anchor}">'
            f'{value:g}</text>')


def _figure(caption: str, series: list[str], svg: str, colours: dict[str, Look]) -> str:
    """The chart with its caption and its legend (HTML, so it wraps)."""
    esc = html.escape
    legend = "".join(f'<li data-series="{esc(name)}">{swatch(colours[name])}{esc(name)}</li>'
                     for name in series)
    return (f'<figure class="cluelab-chart"><figcaption>{esc(caption)}</figcaption>'
            f'<ul class="cluelab-chart-legend">{legend}</ul>'
            f'<div class="cluelab-chart-scroll">{svg}</div></figure>')


H_BAR, H_GAP, H_LABEL, H_LINE = 12, 10, 26, 13   # bar height, gap between groups, label
#                                                characters a line, label line height


def horizontal_bars_svg(groups: list[str], series: list[str], values: dict, *, caption: str,
                        x_label: str = "accuracy (%)", x_max: float = 100.0,
                        colours: dict | None = None) -> str:
    """The same bars turned: a row per group (its label left of it, wrapped at H_LABEL
    characters a line, the row as high as its label or its bars; the full text in a
    tooltip too), a bar per series (its note after its value), the scale on top. MIN_WIDTH wide whatever the number of
    groups: it grows in height."""
    esc = html.escape
    colours = series_colours(series, colours)
    lines = [wrapped(g, H_LABEL) for g in groups]
    left = max(len(line) for found in lines for line in found) * CHAR + 10
    # the value and note written after the longest bar must fit inside the figure
    written = max((len(_written(*_slot(v)[::2])) for v in values.values()
                   if _slot(v)[0] is not None), default=3)
    right, top = MIN_WIDTH - written * CHAR - 8, TOP + 18
    rows = [max(len(series) * H_BAR, len(found) * H_LINE) + H_GAP for found in lines]
    height = top + sum(rows) + 8

    def x(value: float) -> float:
        return left + (right - left) * max(0.0, min(value, x_max)) / x_max

    ids = pattern_ids(caption + "|" + "|".join(series))
    parts = [_svg_start(MIN_WIDTH, height, caption, " cluelab-chart-horizontal"),
             pattern_defs(ids, {found.hatch for found in colours.values()}),
             f'<text class="axis-title" x="{(left + right) / 2:.0f}" y="{TOP - 4}" '
             f'text-anchor="middle">{esc(x_label)}</text>']
    for value in _ticks(x_max):
        parts.append(_tick((x(value), x(value), top - 2, height - 8), (x(value), top - 5),
                           "middle", value))
    for g, group in enumerate(groups):
        y0 = top + sum(rows[:g]) + H_GAP / 2
        middle = y0 + (rows[g] - H_GAP) / 2 + 4
        first = middle - (len(lines[g]) - 1) * H_LINE / 2
        spans = "".join(f'<tspan x="{left - 6:.0f}" y="{first + k * H_LINE:.1f}">'
                        f'{esc(line)}</tspan>' for k, line in enumerate(spaced(group, lines[g])))
        parts.append(f'<text class="label" x="{left - 6:.0f}" y="{first:.1f}" '
                     f'text-anchor="end"><title>{esc(group)}</title>{spans}</text>')
        for s, name in enumerate(series):
            found = values.get((group, name))
            if found is None:
                continue
            value, tooltip, note = _slot(found)
            y = y0 + (rows[g] - H_GAP - len(series) * H_BAR) / 2 + s * H_BAR
            if value is None:
                parts.append(_no_items(left + 3, y + H_BAR - 2, tooltip, name, group,
                                       turn=False, words=note))
                continue
            written = _written(value, note)
            parts.append(f'<rect class="bar" x="{left:.1f}" y="{y + 1:.1f}" '
                         f'width="{x(value) - left:.1f}" height="{H_BAR - 2}" '
                         f'fill="{colours[name].colour}" data-series="{esc(name)}" '
                         f'data-group="{esc(group)}"><title>{esc(tooltip)}</title></rect>'
                         + hatch_over(ids, colours[name].hatch, left, y + 1, x(value) - left,
                                      H_BAR - 2) +
                         f'<text class="value" x="{x(value) + 3:.1f}" y="{y + H_BAR - 2:.1f}">'
                         f'{esc(written)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def whole(value: float) -> str:
    """A bar's value as its label prints it: the nearest whole number, halves up. Python's
    format rounds halves to even, and 62.50 and 37.50 printed 62 and 38 beside a table
    saying 62.50 and 37.50 (a review)."""
    return str(math.floor(value + 0.5))


DIGIT_WIDTH = 6.4     # px of a tabular digit at the value's 10 px (assets/cluelab.css)


def _value_text(value: float, middle: float, baseline: float, bar: float) -> str:
    """A bar's value above it, squeezed to the bar's width when wider: at 18 px bars two
    neighbours' "100" ran together as "100100" (a review)."""
    label = whole(value)
    fit = f' textLength="{bar - 3:.1f}" lengthAdjust="spacingAndGlyphs"' \
        if len(label) * DIGIT_WIDTH > bar - 3 else ""
    return (f'<text class="value" x="{middle:.1f}" y="{baseline:.1f}" '
            f'text-anchor="middle"{fit}>{label}</text>')


def _written(value: float, note: str | None) -> str:
    """What a turned bar has after it: its value, then its note ("n 4")."""
    return whole(value) + (f" · {note}" if note else "")
