"""A run is named one way everywhere: an injection run read "b · CoT · clues
run:20261207-…" in every picker (Results, Inspect, Experiments) but "b · CoT · clues
run:(a · Clue-guided CoT)" in the tables; the Experiments runs list said "a · direct / a ·
cot / b · clue_guided" where the tables say "No-CoT / CoT / Clue-guided CoT"; Inspect's list
named a run by its bare id. Every place now takes the tables' label (`scoring.compared`),
the pickers adding the id after it."""
from __future__ import annotations

from tests.scoring_helpers import add_items, make_run

ITEMS = [{"id": "q/1", "answer_type": "multiple_choice", "answer": "A", "domain": "d",
          "subtask": "s"}]


def test_an_injection_run_reads_as_in_the_tables_in_every_picker(store):
    from scoring.compared import labels
    from scoring.score_run import score_run
    from ui import experiments_runs as xr
    from ui import inspect_browser as ib
    from ui.run_choices import run_choices

    add_items(store, ITEMS)
    source = make_run(store, "20261207-000001-aaaa", {"q/1": "Answer: A"}, model="a",
                      setting="clue_guided")
    make_run(store, "20261207-000002-bbbb", {"q/1": "Answer: A"}, model="a", setting="direct")
    injected = make_run(store, "20261207-000003-cccc", {"q/1": "Answer: B"}, model="b",
                        clues=f"run:{source}")
    for run in (source, injected):
        score_run(store, run)
    table = labels(store, [injected])[injected]
    assert table == "b · CoT · clues of (a · Clue-guided CoT)"
    pickers = dict((v, k) for k, v in run_choices(store))
    # pickers: one form for every run, the source of its clues as the tables name it
    assert pickers[injected] == "e (b) · CoT · clues of (a · Clue-guided CoT) · images full · " \
        "created · id cccc"
    assert pickers[source].startswith("e (a) · Clue-guided CoT · clues none · ")
    setups = {row[1]: row[0] for row in xr.runs_table(store)}     # (table label, id, ...)
    assert setups[source] == "a · Clue-guided CoT"
    assert setups["20261207-000002-bbbb"] == "a · No-CoT"
    assert setups[injected] == table
    listed = ib.browse(store, ib.run_filters(injected, "offline"), "run order")["rows"]
    assert {row[1] for row in listed} == {table}
