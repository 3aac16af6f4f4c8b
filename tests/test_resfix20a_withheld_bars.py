"""The General-vs-rigorous chart says "withheld" for a rigorous score that exists but the
table withholds ("–": right answers without a clue verdict), and "not scored" only for a
run with no rigorous scoring. Real SQLite, real HTTP to the fake judge server."""
from scoring.figures import drop_chart
from scoring.score_run import score_run
from scoring.tables import drop_table
from tests.test_biased_rigorous import server, unread  # noqa: F401 (fixtures)
from tests.test_scoring import REPLIES, make_run


def test_a_withheld_rigorous_bar_reads_withheld_and_an_unscored_one_not_scored(unread):
    store = unread
    chart = drop_chart(drop_table(store, ["r1"], judge="llm:clue-bad"))
    assert "rigorous: withheld" in chart, chart
    assert "rigorous: not scored" not in chart
    make_run(store, "r2", REPLIES, model="other")
    score_run(store, "r2")                                  # general only
    chart = drop_chart(drop_table(store, ["r2"]))
    assert "rigorous: not scored" in chart and "withheld" not in chart
