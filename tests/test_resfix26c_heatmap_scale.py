"""Researcher review (resfix26c): the clue-injection map coloured 35.71, 42.86 and 50.00 one
pale blue (a fixed 0-100 white-to-blue scale). The accuracy colours now run over the map's
range rounded out to tens, at least 20 points wide, on a scale whose hue and lightness both
change; equal cells stay coloured."""
from __future__ import annotations

from scoring.heatmaps import heatmap_html
from scoring.heatmap_colours import _rgb, accuracy_scale


def _far(a, b) -> int:
    return sum(abs(x - y) for x, y in zip(a, b))


def test_a_maps_cells_differ_visibly_over_its_range():
    values = [[35.71, 42.86, 50.0]]
    low, high = accuracy_scale(values)
    assert (low, high) == (30.0, 50.0)
    shades = [_rgb(v, low, high, False) for v in values[0]]
    assert min(_far(a, b) for a in shades for b in shades if a != b) > 90, shades
    page = heatmap_html(["m · CoT"], ["No Clue", "GT", "Self"], values, scale=(low, high))
    assert "<span>30</span><span>40</span><span>50</span>" in page       # the legend says it


def test_equal_cells_stay_coloured_and_a_small_change_looks_small():
    low, high = accuracy_scale([[64.29, 64.29]])
    assert high - low == 20 and low <= 64.29 <= high
    assert min(_rgb(64.29, low, high, False)) < 200                       # not white
    low, high = accuracy_scale([[60.0, 61.0]])
    assert _far(_rgb(60.0, low, high, False), _rgb(61.0, low, high, False)) < 60
    assert accuracy_scale([[0.0, 100.0]]) == (0.0, 100.0)
    assert accuracy_scale([[99.0, 100.0]]) == (80.0, 100.0)
