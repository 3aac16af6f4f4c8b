"""A run keeps one colour on every chart of the Results page (scoring.figures.run_colours):
assigned once from the sorted run ids, whatever order the runs were chosen in and whichever
runs a chart leaves out. Read from the figures' data (each bar's and legend entry's fill) of
real runs scored in a real SQLite file."""
import re

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
