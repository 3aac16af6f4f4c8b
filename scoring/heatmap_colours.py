"""How a heatmap's values become colours (`scoring.heatmaps`): Pearson's r on a fixed red,
white, blue scale; accuracy (%) on a yellow-green-blue scale over the map's own range, rounded
out to tens and at least ACCURACY_SPAN points wide (`accuracy_scale`); the text colour each
cell needs; the legend that says the scale. A fixed 0-100 white-to-blue scale made 35.71,
42.86 and 50.00 one pale blue at 1400x900; a scale of a map's exact lowest to highest value
made equal cells white on white with a blank legend.
"""
from __future__ import annotations

import html

ACCURACY_SCALE = (0.0, 100.0)    # accuracy (%): the widest scale
ACCURACY_SPAN = 20.0             # points: the narrowest, so that a small change looks small
CORRELATION_SCALE = (-1.0, 1.0)
# ColorBrewer YlGnBu: lightness and hue both change along it (white to blue changed little)
SEQUENTIAL = ((255, 255, 217), (237, 248, 177), (199, 233, 180), (127, 205, 187),
              (65, 182, 196), (29, 145, 192), (34, 94, 168), (37, 52, 148), (8, 29, 88))


def _colour(value: float, low: float, high: float, diverging: bool) -> str:
    return "rgb({},{},{})".format(*_rgb(value, low, high, diverging))


def text_colour(background: tuple[int, int, int]) -> str:
    """The text colour readable on `background` (r, g, b): near-black on a light cell,
    white on a dark or saturated one, chosen by the background's relative luminance (WCAG).
    White below LIGHT_CELL: the higher contrast ratio alone (crossing at 0.18) put black
    "0.94" on the correlation heatmap's saturated blue (15, 111, 255), which reads poorly."""
    def linear(c: int) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    lum = 0.2126 * linear(background[0]) + 0.7152 * linear(background[1]) \
        + 0.0722 * linear(background[2])
    return "#111" if lum >= LIGHT_CELL else "#fff"


LIGHT_CELL = 0.3
"""The relative luminance from which a cell takes dark text (a mid blue (76, 147, 255), 0.28,
white; a light one (127, 178, 255), 0.42, and the red-white-blue scale's pale cells black)."""


def _rgb(value: float, low: float, high: float, diverging: bool) -> tuple[int, int, int]:
    if diverging:  # -1 red .. 0 white .. 1 blue
        t = max(-1.0, min(1.0, value))
        r, g, b = (255, int(255 * (1 + t)), int(255 * (1 + t))) if t < 0 else \
            (int(255 * (1 - t)), int(255 * (1 - 0.6 * t)), 255)
    else:
        t = 0.0 if high <= low else max(0.0, min(1.0, (value - low) / (high - low)))
        at = t * (len(SEQUENTIAL) - 1)
        k = min(int(at), len(SEQUENTIAL) - 2)
        r, g, b = (round(a + (b - a) * (at - k)) for a, b in zip(SEQUENTIAL[k], SEQUENTIAL[k + 1]))
    return r, g, b


def accuracy_scale(values) -> tuple[float, float]:
    """(low, high) of an accuracy map: its values' range rounded out to tens, widened to
    ACCURACY_SPAN points about its middle and kept within 0-100 (equal cells stay coloured,
    a change of a few points is not painted as the whole scale)."""
    found = [v for row in values for v in row if isinstance(v, (int, float)) and v == v]
    if not found:
        return ACCURACY_SCALE
    low, high = 10 * (min(found) // 10), 10 * -(-max(found) // 10)
    if high - low < ACCURACY_SPAN:
        low = max(0.0, min((low + high - ACCURACY_SPAN) / 2, 100 - ACCURACY_SPAN))
        high = low + ACCURACY_SPAN
    return float(low), float(high)


def colour_legend(low: float, high: float, diverging: bool, digits: int) -> str:
    """The scale a heatmap's colours are read on: a gradient over its fixed scale (0, 50, 100
    for accuracy; -1, 0, +1 for Pearson's r), the values at its ends and middle written."""
    if diverging:
        stops, marks = (-1.0, 0.0, 1.0), ("-1", "0", "+1")
    else:
        stops = tuple(low + (high - low) * k / 8 for k in range(9))
        marks = tuple(f"{v:g}" for v in (low, (low + high) / 2, high))
    gradient = ", ".join(_colour(v, low, high, diverging) for v in stops)
    labels = "".join(f"<span>{html.escape(m)}</span>" for m in marks)
    what = "Pearson's r" if diverging else "accuracy (%)"
    return (f'<div class="cluelab-heatmap-legend" aria-label="colour scale">'
            f'<span class="cluelab-heatmap-legend-title">{what}</span>'
            f'<span class="cluelab-heatmap-legend-bar" '
            f'style="background:linear-gradient(to right, {gradient})"></span>'
            f'<span class="cluelab-heatmap-legend-marks">{labels}</span></div>')
