"""The domain-correlation heatmap's numbers match its caption: r over the distinct points
the caption names (not every run with twins counted again), the threshold for that n, and
each pair computed once so a cell and its mirror read the same."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from scoring.heatmaps import correlation, correlation_heatmap


def summary(**accuracies) -> dict:
    return {"by_domain": {name: SimpleNamespace(accuracy=value)
                          for name, value in accuracies.items()}}


POINTS = [(10.0, 80.0, 30.0), (20.0, 20.0, 60.0), (40.0, 70.0, 20.0), (70.0, 30.0, 90.0),
          (90.0, 60.0, 50.0)]
COPIES = [4, 1, 3, 1, 1]        # 10 runs, 5 distinct points


def ten_runs() -> dict:
    runs, k = {}, 0
    for point, copies in zip(POINTS, COPIES):
        for _ in range(copies):
            daily, scientific, spatial = point
            runs[f"run{k}"] = summary(Daily=daily, Scientific=scientific, Spatial=spatial)
            k += 1
    return runs


def test_r_is_over_the_distinct_points_the_caption_names():
    """10 runs, 5 distinct: the caption said each r rests on 5, the cells were r over all
    10 (twins counted again) with the 5-point threshold applied to them."""
    found = correlation(ten_runs())
    assert found["points"] == 5
    assert "over 10 runs (5 distinct points" in found["note"]
    assert "each r rests on 5, not 10" in found["note"] and "|r| ≥ 0.878" in found["note"]
    names, matrix = found["names"], found["matrix"]
    distinct = np.array(POINTS)
    expected = np.corrcoef(distinct.T)
    weighted = np.corrcoef(np.repeat(distinct, COPIES, axis=0).T)
    d, s = names.index("Daily"), names.index("Scientific")
    assert abs(expected[d, s] - weighted[d, s]) > 0.05            # the case tells them apart
    assert np.allclose(matrix, expected)
    html = correlation_heatmap(ten_runs())
    shown = lambda r: f"{r:.2f}".replace("-", "\u2212")         # as the table prints it
    assert shown(expected[d, s]) in html and shown(weighted[d, s]) not in html


def test_each_pair_is_computed_once_and_mirrored():
    """With 9 runs one cell read -0.87 and its mirror -0.88: np.corrcoef divides the two
    halves in a different order, so r and its mirror could differ in the last bit."""
    rows = [[63.7, 26.98, 4.1, 1.65], [81.33, 91.28, 60.66, 72.95], [54.36, 93.51, 81.59, 0.27],
            [85.74, 3.36, 72.97, 17.57], [86.32, 54.15, 29.97, 42.27],
            [2.83, 12.43, 67.06, 64.72], [61.54, 38.37, 99.72, 98.08],
            [68.55, 65.05, 68.84, 38.89], [13.51, 72.15, 52.54, 31.02]]
    assert not (np.corrcoef(np.array(rows).T) == np.corrcoef(np.array(rows).T).T).all()
    runs = {f"r{i}": summary(a=w, b=x, c=y, d=z) for i, (w, x, y, z) in enumerate(rows)}
    matrix = correlation(runs)["matrix"]
    assert (matrix == matrix.T).all()
    assert (np.diag(matrix) == 1.0).all()
