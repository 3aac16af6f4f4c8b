"""A run keeps one colour on every chart of the Results page (scoring.figures.run_colours):
assigned once from the sorted run ids, whatever order the runs were chosen in and whichever
runs a chart leaves out. Read from the figures' data (each bar's and legend entry's fill) of
real runs scored in a real SQLite file."""
import re

from judges.stats import Accuracy
from scoring import figures
from scoring.bar_chart import PALETTE
from scoring.score_run import score_run
from tests.scoring_helpers import add_items, make_run
from ui import results_handlers as h

ITEMS = [{"id": f"c/{i}", "answer_type": "multiple_choice", "answer": "A",
          "domain": ["Street", "Shop"][i % 2], "subtask": f"s{i % 2}"} for i in range(4)]
CHARTS = ("group_chart", "second_chart", "length_chart")


def fills(markup: str) -> dict[str, set]:
    """{series: the colours its bars and legend swatch are drawn in}."""
    found: dict[str, set] = {}
    for colour, name in re.findall(r'fill="([^"]+)" data-series="([^"]*)"', markup):
        found.setdefault(name, set()).add(colour)
    for name, colour in re.findall(r'<li data-series="([^"]*)"><span class="swatch" '
                                   r'style="background:([^"]+)"', markup):
        found.setdefault(name, set()).add(colour)
    return found


def test_each_run_has_one_colour_on_every_chart_from_its_sorted_id(store):
    add_items(store, ITEMS)
    # labels sort zeta-model last, but its run id r1 sorts first; r0 failed every request,
    # so it has no output token count and the length chart leaves it out
    make_run(store, "r0", {i["id"]: None for i in ITEMS}, model="broken")
    make_run(store, "r1", {i["id"]: "Answer: A" for i in ITEMS}, model="zeta-model")
    make_run(store, "r2", {i["id"]: "Answer: B" if n % 2 else "Answer: A"
                           for n, i in enumerate(ITEMS)}, model="alpha-model")
    for run in ("r0", "r1", "r2"):
        score_run(store, run)
    expected = {"broken · CoT": PALETTE[0], "zeta-model · CoT": PALETTE[1],
                "alpha-model · CoT": PALETTE[2]}
    for order in (["r0", "r1", "r2"], ["r2", "r0", "r1"]):
        shown = h.show_results(store, order)
        for chart in CHARTS:
            for name, colours in fills(shown[chart]).items():
                assert colours == {expected[name]}, (chart, name, colours)
        assert set(fills(shown["group_chart"])) == set(expected)
        assert "broken · CoT" not in fills(shown["length_chart"])      # left out there
        assert set(fills(shown["length_chart"])) == {"zeta-model · CoT", "alpha-model · CoT"}


def looks(markup: str) -> dict[str, set]:
    """{series: (colour, hatch) of its bars}: a bar's hatch is the rect drawn over it."""
    found: dict[str, set] = {}
    for colour, name, over in re.findall(
            r'<rect class="bar"[^>]* fill="([^"]+)" data-series="([^"]*)"[^>]*>.*?</rect>'
            r'(<rect class="hatch"[^>]*data-hatch="\d+"/>)?', markup):
        hatch = re.search(r'data-hatch="(\d+)"', over)
        found.setdefault(name, set()).add((colour, hatch.group(1) if hatch else "0"))
    return found


def test_runs_past_the_palette_are_hatched_each_run_one_look_on_every_chart():
    """Twelve runs: the 11th and 12th reused the 1st and 2nd runs' colours, nothing else,
    so their bars and legend entries could not be told apart. Past the palette a run is
    hatched, in its bars and its legend swatch; every run's look differs from the others'
    and stays the same on each chart, whichever runs a chart leaves out."""
    labels = {f"r{k:02d}": f"run {k}" for k in range(12)}
    looks_of = figures.run_colours(labels)
    assert len(set(looks_of.values())) == 12
    group = {f"run {k}": {"by_domain": {"Street": _acc(50 + k)}} for k in range(12)}
    some = {name: group[name] for name in ("run 11", "run 0", "run 10")}
    charts = [figures.group_chart(group, colours=looks_of),
              figures.group_chart(some, colours=looks_of)]
    seen = [looks(chart) for chart in charts]
    assert len({next(iter(v)) for v in seen[0].values()}) == 12      # twelve looks
    for name, found in seen[1].items():
        assert found == seen[0][name]                              # the same on each chart
    assert seen[0]["run 10"] == {(PALETTE[0], "1")} and seen[0]["run 0"] == {(PALETTE[0], "0")}
    for chart in charts:                      # the pattern a hatch names is in its chart
        for pattern in set(re.findall(r'fill="url\(#([^)]+)\)"', chart)):
            assert f'<pattern id="{pattern}"' in chart
    assert '<span class="swatch" style="background:#4e79a7"><i class="cl-hatch-1"></i>' \
        in charts[0]


def _acc(percent: float) -> Accuracy:
    return Accuracy(n=10, correct=round(percent / 10), unparsed=0, error=0, unscored=0,
                    accuracy=percent / 100)


def test_a_runs_colour_does_not_change_with_the_selection(store):
    """A review: a run's chart colour changed with the selection (assigned from the chosen
    runs alone: choosing r0 as well turned r1 and r2 other colours). It is now its place
    among the store's runs, another colour taken only when two chosen runs would share one."""
    add_items(store, ITEMS)
    for n, model in enumerate(("broken", "zeta-model", "alpha-model")):
        make_run(store, f"r{n}", {i["id"]: "Answer: A" for i in ITEMS}, model=model)
        score_run(store, f"r{n}")
    seen = {}
    for chosen in (["r0", "r1", "r2"], ["r1", "r2"], ["r2"]):
        for name, colours in fills(h.show_results(store, chosen)["group_chart"]).items():
            seen.setdefault(name, set()).update(colours)
    assert seen == {"broken · CoT": {PALETTE[0]}, "zeta-model · CoT": {PALETTE[1]},
                    "alpha-model · CoT": {PALETTE[2]}}
    twelve = {f"x{k:02d}": f"run {k}" for k in range(12)}
    looks = figures.run_colours({"x00": "a", "x10": "b"}, list(twelve))
    assert looks["a"].colour == PALETTE[0]              # the 11th run's place is the 1st's:
    assert looks["b"].colour == PALETTE[1]              # the later takes the next free one
