"""Researcher review (resfix26c): the subtask chart's label read "Functional SpatialRelations":
a label wrapped onto two lines (two tspans) lost the space it broke at, so its text (copied,
read out, found) was not the subtask's name. Each line after the first now starts with that
space; a word split for its length gets none."""
from __future__ import annotations

import html
import re

from scoring.bar_chart import horizontal_bars_svg


def _label_texts(groups):
    """[(a label's text as its lines give it, its number of lines)], from the chart's SVG."""
    values = {(g, "run a"): (50.0, "tip") for g in groups}
    svg = horizontal_bars_svg(groups, ["run a"], values, caption="c")
    found = []
    for label in re.findall(r'<text class="label"[^>]*>(.*?)</text>', svg):
        spans = re.findall(r"<tspan[^>]*>(.*?)</tspan>", label)
        found.append((html.unescape("".join(spans)), len(spans)))
    return found


def test_a_wrapped_label_keeps_the_space_it_broke_at():
    long_word = "Supercalifragilisticexpialidocious"     # longer than a line: split
    found = dict(_label_texts(["Functional Spatial Relations", long_word, "Short"]))
    assert found == {"Functional Spatial Relations": 2, long_word: 2, "Short": 1}, found
