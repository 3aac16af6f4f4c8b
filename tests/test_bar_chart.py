"""Grouped bar charts (SVG): bars of one group side by side on one baseline, never stacked;
labels from data escaped; long labels turned and kept inside the chart."""
import html
import re

from scoring import figures
from scoring.bar_chart import grouped_bars_svg


def shown_labels(svg: str) -> dict[str, tuple[float, list[str]]]:
    """{tooltip: (x, the lines shown)} of a chart's row labels, in order (a line's leading
    space, the one its label broke at, is not seen: left out)."""
    found = re.findall(r'<text class="label" x="([\d.]+)"[^>]*><title>([^<]*)</title>'
                       r'((?:<tspan[^>]*>[^<]*</tspan>)+|[^<]*)</text>', svg)
    return {t: (float(x), [line.lstrip(" ") for line in re.findall(r'>([^<]*)</tspan>', shown)]
                or [shown])
            for x, t, shown in found}


def bars(svg: str) -> list[dict]:
    found = re.findall(r'<rect class="bar" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" '
                       r'height="([\d.]+)" fill="[^"]+" data-series="([^"]*)" '
                       r'data-group="([^"]*)"', svg)
    return [{"x": float(x), "top": float(y), "bottom": float(y) + float(h), "series": s,
             "group": g} for x, y, _, h, s, g in found]


def test_two_runs_in_one_group_are_side_by_side_not_stacked():
    svg = grouped_bars_svg(["Street"], ["a", "b"], {("Street", "a"): (66.7, "a"),
                                                      ("Street", "b"): (33.3, "b")},
                           caption="per domain")
    a, b = bars(svg)
    assert a["bottom"] == b["bottom"] and b["x"] > a["x"]       # one baseline, next to it
    # heights in proportion to the values on a 0-100 axis of 220 px (not summed to 100)
    assert round(a["bottom"] - a["top"]) == round(2.2 * 66.7)
    assert round(b["bottom"] - b["top"]) == round(2.2 * 33.3)
    assert ">67<" in svg and ">33<" in svg                      # values on the bars


def test_labels_are_escaped_and_long_ones_turned_or_wrapped_inside_the_chart():
    middle = "A subtask name of 30 characters"[:30]
    svg = grouped_bars_svg([middle, "x"], ["<i>run</i>"], {(middle, "<i>run</i>"): (50, "t")},
                           caption="c")
    assert "<i>" not in svg and "&lt;i&gt;run&lt;/i&gt;" in svg
    assert "rotate(-35" in svg and "…" not in svg
    label_x = [float(x) for x in re.findall(r'<text class="label" x="([\d.]+)"', svg)]
    # the first turned label hangs left of its cluster by its chars * 6.6 px * cos 35
    assert label_x[0] - len(middle) * 6.6 * 0.8192 >= 0
    long = "<b>A very long subtask name that would overlap its neighbours</b>"
    svg = grouped_bars_svg([long, "x"], ["r"], {(long, "r"): (50, "t")}, caption="c")
    assert "<b>" not in svg and "…" not in svg and "cluelab-chart-horizontal" in svg
    assert " ".join(shown_labels(svg)[html.escape(long, quote=False)][1]) == \
        html.escape(long, quote=False)
    assert grouped_bars_svg([], [], {}, caption="c", empty="nothing").count("nothing") == 1


def test_length_chart_has_one_bar_per_run_and_quartile():
    records = [{"item_id": f"i{t}", "tokens": t, "value": "correct" if t % 20 else "wrong"}
               for t in range(10, 90, 10)]
    frame = figures.length_bins({"r": {"records": records}, "s": {"records": records[:4]}})
    svg = figures.length_chart(frame)
    assert sorted((b["group"], b["series"]) for b in bars(svg)) == sorted(
        [(f"Q{k}", "r") for k in range(1, 5)] + [(f"Q{k}", "s") for k in range(1, 5)])


def test_many_groups_are_drawn_as_rows_that_fit_the_box():
    groups = [f"Subtask number {k} with a long descriptive name" for k in range(16)]
    series = ["run a", "run b", "run c"]
    values = {(g, s): (10.0 * (k % 10), f"{g}: n 3") for k, g in enumerate(groups)
              for s in series}
    svg = grouped_bars_svg(groups, series, values, caption="per subtask")
    width, height = map(float, re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg).groups())
    assert width <= 560 and "cluelab-chart-horizontal" in svg      # before: 1,664 px wide
    assert "min-width" not in svg                                  # it shrinks with its box
    rects = re.findall(r'<rect class="bar" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)"', svg)
    assert len(rects) == 48
    for x, y, w in rects:                                          # every bar inside
        assert float(x) + float(w) <= width and float(y) < height
    labels = shown_labels(svg)
    assert list(labels) == groups                                  # full text in the tooltip
    for full, (x, lines) in labels.items():                        # wrapped, left of x
        assert " ".join(lines) == full and all(len(line) * 6.6 <= x + 1 for line in lines)


def test_heatmaps_have_a_colour_legend_on_a_fixed_scale():
    """Accuracy is coloured on 0-100: two cells of 64.3 (a GT-clue and a no-clue run alike)
    are blue, not white on white with a legend reading "64.3 64.3 64.3"."""
    html = figures.heatmap_html(["a", "b"], ["x"], [[20.0], [80.0]], caption="c")
    assert 'class="cluelab-heatmap-legend"' in html and "accuracy (%)" in html
    assert "<span>0</span><span>50</span><span>100</span>" in html
    equal = figures.heatmap_html(["m"], ["GT", "No Clue"], [[64.3, 64.3]], caption="c")
    backgrounds = re.findall(r'<td style="background:rgb\((\d+),(\d+),(\d+)\)', equal)
    assert len(backgrounds) == 2 and all(min(map(int, rgb)) < 200 for rgb in backgrounds)
    assert "<span>64.3</span>" not in equal
    corr = figures.heatmap_html(["a"], ["a"], [[1.0]], diverging=True, digits=2)
    assert "Pearson's r" in corr and "<span>-1</span><span>0</span><span>+1</span>" in corr
    near_zero = figures.heatmap_html(["a"], ["b"], [[-0.001]], diverging=True, digits=2)
    assert ">0.00</td>" in near_zero and "-0.00" not in near_zero        # it showed "-0.00"


def test_heatmap_text_is_light_on_dark_cells_and_dark_on_light_ones():
    """A Pearson map's 1.00 sits on saturated blue: its text is white there, dark on the
    pale cells near 0 (chosen by each cell's background luminance)."""
    corr = figures.heatmap_html(["a", "b"], ["a", "b"], [[1.0, 0.05], [-0.95, 1.0]],
                                diverging=True, digits=2, fit=True)
    cells = dict((text, colour) for colour, text in re.findall(
        r'<td style="background:rgb\([\d,]+\);color:(#\w+)">([^<]*)</td>', corr))
    # saturated red as saturated blue: white (black's 5.2:1 read poorly on the blue, review 15)
    assert cells == {"1.00": "#fff", "0.05": "#111", "\u22120.95": "#fff"}
    acc = figures.heatmap_html(["a", "b"], ["x"], [[20.0], [80.0]])
    # the accuracy scale runs pale yellow to navy over the table's range (resfix26c): 80 of
    # 20-80 sits on the navy end, its text white
    assert re.findall(r'color:(#\w+)">([^<]*)<', acc) == [("#111", "20.00"), ("#fff", "80.00")]
    assert figures.text_colour((0, 0, 139)) == "#fff" and figures.text_colour((255, 255, 0)) \
        == "#111"


def test_drop_chart_labels_of_runs_that_differ_at_their_end_stay_different():
    """They were cut at 32 characters: `model-a · Clue-guided CoT…` twice. Each run's label
    is now shown whole (wrapped), so the rows differ where the runs do."""
    from judges.tables import Column, Table

    names = ["model-a · Clue-guided CoT · clues gt", "model-a · Clue-guided CoT · clues self",
             "model-a · CoT · 3 samples · 2 repeats", "model-b · CoT · 3 samples · 2 repeats"]
    table = Table([Column("model", "Model", numeric=False), Column("general", "General"),
                   Column("rigorous", "Rigorous")],
                  [{"model": n, "general": 60.0, "rigorous": 40.0, "n": 10} for n in names],
                  caption="d")
    labels = shown_labels(figures.drop_chart(table))
    assert list(labels) == names
    shown = [" ".join(lines) for _, lines in labels.values()]
    assert shown == names and len(set(shown)) == 4


def test_length_chart_states_each_bins_n_and_marks_an_empty_bin():
    """Bins of 4, 5, 1 and 4 items: Q3's 0 is one item, and says so ("n 1"). A run whose
    outputs all have one length fills Q1 only: its Q2..Q4 are marked "no items", which no
    bar of 0% is (both once drew nothing)."""
    tokens = [10] * 4 + [20] * 5 + [30] + [40] * 4
    values = ["correct"] * 9 + ["wrong"] + ["correct"] * 4
    first = [{"item_id": f"i{k}", "tokens": t, "value": v}
             for k, (t, v) in enumerate(zip(tokens, values))]
    flat = [{"item_id": f"i{k}", "tokens": 50, "value": "wrong"} for k in range(3)]
    frame = figures.length_bins({"spread": {"records": first}, "flat": {"records": flat}})
    spread = frame[frame.run == "spread"]
    assert spread.n.tolist() == [4, 5, 1, 4] and spread.accuracy.tolist()[2] == 0
    svg = figures.length_chart(frame)
    notes = re.findall(r'<text class="value-note"[^>]*>([^<]*)</text>', svg)
    assert sorted(notes) == sorted(["n 4", "n 5", "n 1", "n 4", "n 3"])
    q3 = [b for b in bars(svg) if (b["group"], b["series"]) == ("Q3", "spread")]
    assert len(q3) == 1 and q3[0]["top"] == q3[0]["bottom"]      # a bar of 0%, of 1 item
    empty = re.findall(r'<text class="no-items"[^>]*data-series="([^"]*)" '
                       r'data-group="([^"]*)"', svg)
    assert sorted(empty) == [("flat", "Q2"), ("flat", "Q3"), ("flat", "Q4")]
    assert "no items" in svg.split("</figcaption>")[0]


def test_a_turned_bars_value_and_n_are_written_inside_the_figure():
    """Six runs turn the length chart into rows; '100 · n 12' after a full bar was cut at the
    figure's edge, and the caption said the n stood 'above' a bar drawn sideways."""
    import pandas as pd
    runs = [f"run {k}" for k in range(6)]
    frame = pd.DataFrame([(run, f"Q{q + 1}", "0–9 tokens", 5.0, 100.0, 12) for run in runs
                          for q in range(4)], columns=figures.LENGTH_COLUMNS)
    svg = figures.length_chart(frame)
    width = float(re.search(r'viewBox="0 0 ([\d.]+)', svg).group(1))
    assert "cluelab-chart-horizontal" in svg and "above it" not in svg
    written = re.findall(r'<text class="value" x="([\d.]+)"[^>]*>([^<]*)</text>', svg)
    assert len(written) == 24 and {text for _, text in written} == {"100 · n 12"}
    assert all(float(x) + len(text) * 6.6 <= width for x, text in written)


def no_value_marks(svg: str) -> list[tuple[str, str, str]]:
    """(series, group, words) of every slot marked without a bar."""
    return re.findall(r'<text class="no-items"[^>]*data-series="([^"]*)" '
                      r'data-group="([^"]*)"><title>[^<]*</title>([^<]*)</text>', svg)


def test_a_slot_without_a_value_says_its_note_else_no_items():
    svg = grouped_bars_svg(["G"], ["a", "b"], {("G", "a"): (None, "a · G: n=0", "n=0"),
                                               ("G", "b"): (None, "b · G: empty")},
                           caption="c")
    assert no_value_marks(svg) == [("a", "G", "n=0"), ("b", "G", "no items")]
    assert bars(svg) == []
    groups = [f"Subtask number {k} with a long descriptive name" for k in range(16)]
    turned = grouped_bars_svg(groups, ["a"], {(g, "a"): (None, "t", "n=0") for g in groups},
                              caption="c")
    assert "cluelab-chart-horizontal" in turned
    assert [w for _, _, w in no_value_marks(turned)] == ["n=0"] * 16


def test_group_chart_marks_a_group_with_no_item_scored_as_n_0():
    """Run a's items in Shops were all unscored (n 0): it had no bar and nothing in its
    place, and Parks, which neither run scored, was not drawn at all."""
    from judges.stats import accuracy_from_counts
    from collections import Counter

    def acc(**counts):
        return accuracy_from_counts(Counter(counts))
    summaries = {"a": {"by_domain": {"Shops": acc(unscored=3), "Street": acc(correct=2),
                                     "Parks": acc(unscored=1)}},
                 "b": {"by_domain": {"Shops": acc(correct=1, wrong=2), "Street": acc(wrong=2),
                                     "Parks": acc(unscored=1)}}}
    svg = figures.group_chart(summaries)
    assert sorted((b["group"], b["series"]) for b in bars(svg)) == [
        ("Shops", "b"), ("Street", "a"), ("Street", "b")]
    assert sorted(no_value_marks(svg)) == [("a", "Parks", "n=0"), ("a", "Shops", "n=0"),
                                           ("b", "Parks", "n=0")]
    assert "a · Shops: n=0, no item scored (3 unscored)" in svg
    assert ">Parks</text>" in svg                               # the group's label is there
    # each bar says its n (the caption's shared n read as theirs): b's Shops rests on 3
    assert ">n 3</text>" in svg and ">n 2</text>" in svg


def test_drop_chart_marks_a_run_with_n_0_instead_of_leaving_it_out():
    from judges.stats import accuracy_from_counts
    from judges.paper_tables import rigorous_drop_table
    from collections import Counter

    scored = accuracy_from_counts(Counter(correct=2, wrong=1))
    none = accuracy_from_counts(Counter(unscored=3))
    table = rigorous_drop_table({"a": scored, "z": none}, {"a": scored, "z": none},
                                unscored={"a": {"general": 0, "rigorous": 0},
                                          "z": {"general": 3, "rigorous": 3}})
    svg = figures.drop_chart(table)
    assert {b["group"] for b in bars(svg)} == {"a (n 3)"}
    assert no_value_marks(svg) == [("general", "z (n 0)", "n=0"),
                                   ("rigorous", "z (n 0)", "n=0")]
    # the protocols are greys: the palette's colours are the runs' in the charts beside it
    from scoring.chart_looks import PALETTE
    assert "#cfcfcf" in svg and "#8a8a8a" in svg and not any(c in svg for c in PALETTE[:3])


def test_length_chart_says_which_items_it_leaves_out_for_want_of_a_length():
    """A run's error response (no reply, no token count) was left out of its bars while the
    table beside the chart counted it: the bars' n added up to 11 against the table's n 12,
    and nothing said why."""
    records = [{"item_id": f"i{k}", "tokens": 10 * (k + 1), "value": "correct"}
               for k in range(4)] + [{"item_id": "i9", "tokens": None, "value": "error"}]
    frame = figures.length_bins({"self": {"records": records}})
    assert frame.n.sum() == 4 and frame.attrs["left_out"] == {"self": 1}
    caption = figures.length_chart(frame).split("</figcaption>")[0]
    assert "left out for want of an output length (no reply or no token count): self 1 item" \
        in caption
    whole = figures.length_bins({"self": {"records": records[:4]}})
    assert "left out" not in figures.length_chart(whole)


def test_bar_values_round_halves_up_and_fit_their_bars():
    """62.50 and 37.50 printed 62 and 38 (halves to even) beside a table of 62.50 and 37.50;
    at 18 px bars two neighbours' 100 ran together as '100100'."""
    from scoring.bar_chart import whole

    assert [whole(v) for v in (62.5, 37.5, 0.5, 99.49)] == ["63", "38", "1", "99"]
    groups = [f"d{k}" for k in range(6)]      # bars of ~20 px: a 100 is ~19 px wide
    series = ["a", "b", "c"]
    svg = grouped_bars_svg(groups, series, {(g, s): (100.0, "t")
                                                  for g in groups for s in series},
                           caption="c")
    labels = re.findall(r'<text class="value"[^>]*>100</text>', svg)
    assert labels and all("textLength" in t for t in labels)
