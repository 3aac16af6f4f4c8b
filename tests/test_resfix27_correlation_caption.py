"""Researcher review (resfix27): the correlation heatmap's caption opened "over 8 runs" while
r rested on 4 distinct points, the count said only after a long list of the runs alike. The
first words now say both plainly; the twins are named after. Real scoring summaries' shape,
the page's heatmap HTML."""
from __future__ import annotations

import html

from scoring.heatmaps import correlation_heatmap
from tests.test_resfix26b_correlation import summary

POINTS = [(10.0, 80.0, 30.0), (20.0, 20.0, 60.0), (40.0, 70.0, 20.0), (70.0, 30.0, 90.0)]


def test_the_caption_opens_with_the_runs_and_the_distinct_points():
    runs = {}
    for k, (daily, scientific, spatial) in enumerate(POINTS * 2):     # 8 runs, 4 points
        runs[f"run{k}"] = summary(Daily=daily, Scientific=scientific, Spatial=spatial)
    shown = html.unescape(correlation_heatmap(runs))
    caption = shown.split('<div class="cluelab-heatmap-title">')[1].split("</div>")[0]
    assert caption.startswith(
        "Pearson's r between domains over 8 runs (4 distinct points: runs with the same "
        "accuracies count once), so each r rests on 4, not 8: run0 and run4 have the same "
        "accuracy in every one"), caption
