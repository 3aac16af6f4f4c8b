"""scoring/heatmaps.type_correlation: Pearson's r between groups over runs."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from scoring.heatmaps import type_correlation


def summary(**accuracies) -> dict:
    return {"by_domain": {name: SimpleNamespace(accuracy=value)
                          for name, value in accuracies.items()}}


def test_a_group_with_one_accuracy_in_every_run_has_no_r():
    """2/3 right in every run varied by rounding alone: r read 1.00 with itself and 0.00
    with every other group, where it has none ("–", as for a constant 100)."""
    thirds = (66.66666666666667, 66.66666666666666)      # 2 of 3, summed two ways
    runs = {f"r{i}": summary(spatial=thirds[i % 2], time=t, text=x)
            for i, (t, x) in enumerate([(10.0, 20.0), (30.0, 50.0), (60.0, 55.0),
                                        (90.0, 95.0)])}
    names, matrix, _ = type_correlation(runs)
    spatial = names.index("spatial")
    assert np.isnan(matrix[spatial]).all() and np.isnan(matrix[:, spatial]).all()
    time, text = names.index("time"), names.index("text")
    assert matrix[time, time] == 1.0 and 0.9 < matrix[time, text] <= 1.0


def test_each_cell_says_its_n_under_its_value():
    from scoring.heatmaps import heatmap_html

    html = heatmap_html(["solver"], ["GT", "No Clue", "Self"], [[50.0, None, 100.0]],
                        deltas=[["+10.00", None, None]], ns=[[14, 0, None]])
    assert '50.00 (+10.00)<br><span class="cell-n">n 14</span></td>' in html
    assert '<td>–<br><span class="cell-n">n 0</span></td>' in html        # n 0 said too
    assert ">100.00</td>" in html                                          # no n given
    assert "cell-n" not in heatmap_html(["r"], ["c"], [[1.0]])             # none asked


def test_a_map_over_few_runs_says_how_rough_its_r_is():
    """Over 3 runs r 1.00 and -0.50 were shown in strong colours with no caution: 3 points
    give such values by chance. The note says which |r| would differ from none."""
    runs = {f"r{i}": summary(time=t, text=x)
            for i, (t, x) in enumerate([(10.0, 20.0), (30.0, 50.0), (60.0, 55.0)])}
    note = type_correlation(runs)[2]
    assert note.startswith("Pearson's r between domains over 3 runs (few runs")
    assert "only |r| ≥ 0.997 differs from no correlation at p < 0.05" in note
    many = {f"r{i}": summary(time=float(i), text=float(i * i)) for i in range(10)}
    assert type_correlation(many)[2] == "Pearson's r between domains over 10 runs"


def test_no_map_when_fewer_than_two_groups_vary():
    """One group varying, the others the same in every run: the map was "–" everywhere but
    one 1.00 (the group with itself). It says why there is no map instead."""
    runs = {f"r{i}": summary(time=t, text=50.0, space=100.0)
            for i, t in enumerate([10.0, 30.0, 60.0])}
    names, matrix, note = type_correlation(runs)
    assert matrix is None
    assert note == ("needs 2 or more domains whose accuracy differs between the runs "
                    "(1 of 3 does over these 3 runs)")


def test_over_few_runs_an_r_below_the_critical_value_is_pale():
    """A review: over 4 runs every cell a saturated colour, read as strong correlations; a
    cell whose |r| does not differ from none is now drawn pale (the note says so)."""
    from scoring.heatmaps import correlation_heatmap
    import re
    runs = {f"r{i}": summary(time=t, text=x)
            for i, (t, x) in enumerate([(10.0, 20.0), (30.0, 50.0), (60.0, 55.0)])}
    html_map = correlation_heatmap(runs)
    assert "the cells below it are pale" in html_map
    colours = re.findall(r'background:rgb\((\d+),(\d+),(\d+)\)', html_map)
    # time-text r is about 0.90 < 0.997: pale (every channel near white); the diagonal not
    _, off, _, diagonal = [tuple(map(int, c)) for c in colours]
    assert min(off) > 180 and min(diagonal) < 120


def test_the_caption_names_the_runs_left_out_the_flat_groups_and_identical_runs():
    """A review: "Pearson's r between domains over 3 runs" with 4 runs chosen, a row and
    column all "–" with no word, and two runs with the same accuracies everywhere (one
    point) drawn as if 3 points gave a significant ±1.00."""
    from scoring.heatmaps import correlation_heatmap

    runs = {"a · CoT": summary(time=10.0, text=20.0, space=50.0),
            "b · CoT": summary(time=30.0, text=50.0, space=50.0),
            "c · CoT": summary(time=60.0, text=55.0, space=50.0),
            "d · CoT": summary(time=60.0, text=None, space=50.0)}
    note = type_correlation(runs)[2]
    assert note.startswith("Pearson's r between domains over 3 runs")
    assert ("left out: d · CoT (no accuracy for text: no scored item there), each run needs "
            "an accuracy in every one of the domains") in note
    assert "– for space: the same accuracy in every run (no variance), so no r" in note
    runs["d · CoT"] = summary(time=60.0, text=55.0, space=50.0)       # c's twin
    note = type_correlation(runs)[2]
    assert note.startswith("Pearson's r between domains over 4 runs (3 distinct points: "
                           "runs with the same accuracies count once), so each r rests on 3, "
                           "not 4: c · CoT and d · CoT have the same accuracy in every one")
    assert "|r| ≥ 0.997" in note and "|r| ≥ 0.950" not in note       # 3 points' threshold
    assert "left out" not in note
    twins = {"a": summary(time=10.0, text=20.0), "b": summary(time=30.0, text=50.0),
             "c": summary(time=30.0, text=50.0)}
    names, matrix, note = type_correlation(twins)
    assert matrix is None and "only 2 distinct points (b and c have the same accuracy in " \
        "every one), and r over 2 points is always ±1" in note
    assert "always ±1" in correlation_heatmap(twins)
