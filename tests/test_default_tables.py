"""The default `leaderboard` and `table` calls (no --runs) print tables, as the README says,
instead of refusing: a dataset's runs that share too few items are split into groups, one
table per group stating its n; of several runs for one cell of the injection table one is
shown by the rule the notes state, naming the others and how to pick them. Before,
`leaderboard --dataset mmr-life` refused ("share no item": a cancelled run on 94 items, two
others on 10) and `table --kind injection` refused a 3-repeat and a 3-sample run in one cell.
The Results page's download with no run chosen follows the same rule. Real SQLite, real
scoring, the real CLI."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pandas as pd
import pytest

from scoring.score_run import score_run
from store import Store
from tests.scoring_helpers import NOT_RUN, add_items, cli, make_run
from ui import results_page as page

ITEMS = [{"id": f"mmr-life/ARI_{i}", "answer_type": "multiple_choice", "answer": "A",
          "domain": None, "subtask": "Animal Relation Inference"} for i in range(110)]
IDS = [i["id"] for i in ITEMS]


@pytest.fixture
def store(tmp_path):
    """big: cancelled after 94 of its 100 items (ARI_10..ARI_103), all right. On the 10-item
    sample ARI_0..ARI_9: rep3 (3 repeats, right in 2 of 3: 66.67), samp3 (3 samples, A B B:
    the majority wrong, 0.00), gt (GT clues, all right). rep3 and samp3 are one solver
    with No Clue: one cell of the injection table; samp3 is the newer, both finished."""
    store = Store.open(tmp_path / "d.db")
    add_items(store, ITEMS)
    make_run(store, "big", {i: "Answer: A" if k < 94 else NOT_RUN
                            for k, i in enumerate(IDS[10:])}, model="big")
    store.finish_run("big", "test", "cancelled", "cancelled by the user", {})
    make_run(store, "rep3", {i: ["Answer: A", "Answer: B", "Answer: A"] for i in IDS[:10]},
             repeats=3)
    make_run(store, "samp3", {i: ["Answer: A", "Answer: B", "Answer: B"] for i in IDS[:10]},
             samples=3)
    make_run(store, "gt", {i: "Answer: A" for i in IDS[:10]}, clues="gt")
    for run in ("big", "rep3", "samp3", "gt"):
        store.finish_run(run, "test", "cancelled" if run == "big" else "done", "", {})
        score_run(store, run)
    yield store
    store.close()


def test_leaderboard_of_a_dataset_prints_a_table_per_group_of_runs(store):
    code, out, err = cli("leaderboard", "--db", store.path, "--dataset", "mmr-life")
    assert code == 0, err
    first, second = out.split("## Dataset mmr-life, group 2 of 2 (1 run)")
    assert first.startswith("## Dataset mmr-life, group 1 of 2 (3 runs)")
    assert "share too few items for one table" in first
    assert "Leaderboard: general accuracy (%), 10 items" in first
    for label in ("m · CoT · 3 repeats", "m · CoT · 3 samples", "m · CoT · clues gt"):
        assert label in first
    assert "big" not in first
    assert "Leaderboard: general accuracy (%), 94 items" in second
    assert "big · CoT (cancelled)" in second


def test_csv_holds_the_first_group_and_names_the_others_with_their_runs(store):
    code, out, err = cli("leaderboard", "--db", store.path, "--dataset", "mmr-life",
                         "--format", "csv")
    assert code == 0, err
    frame = pd.read_csv(io.StringIO(out))
    assert sorted(frame["run_id"]) == ["gt", "rep3", "samp3"] and set(frame["n"]) == {10}
    assert "this csv holds group 1 of 2 (3 runs)" in err
    assert ("group 2: big · CoT (cancelled) [big]: print it with python app.py leaderboard "
            "--runs big --dataset mmr-life --format csv") in err
    code, out, err = cli("leaderboard", "--db", store.path, "--runs", "big", "--format",
                         "csv")
    assert code == 0 and list(pd.read_csv(io.StringIO(out))["n"]) == [94], err


def test_injection_table_without_runs_gives_samples_and_repeats_rows_of_their_own(store):
    """A 3-sample and a 3-repeat run of one model were one crowded cell (the newest shown,
    the other named): a single draw, a majority and a mean are other solvers, each a row."""
    code, out, err = cli("table", "--db", store.path, "--kind", "injection", "--format",
                         "json")
    assert code == 0, err
    table = json.loads(out)
    rows = {row["solver"]: row for row in table["rows"]}
    assert rows["m · CoT"]["GT_run_id"] == "gt"
    assert rows["m · CoT · 3 samples"]["No Clue_run_id"] == "samp3"
    assert rows["m · CoT · 3 repeats"]["No Clue_run_id"] == "rep3"
    assert {row["items"] for row in rows.values()} == {10}
    assert "not shown" not in table["notes"]


def test_results_page_download_without_runs_and_its_injection_figure(store):
    from ui import results_handlers as h

    path, line, refused = page.exported(store, [], "general", "leaderboard", "md")
    assert refused is None and line == ""
    text = Path(path).read_text()
    assert "group 1 of 2 (3 runs)" in text and "big · CoT (cancelled)" in text
    path, line, refused = page.exported(store, [], "general", "main", "csv")
    assert refused is None and sorted(pd.read_csv(path)["run_id"]) == ["gt", "rep3", "samp3"]
    assert "choose its runs under Runs" in line and "--runs" not in line
    shown = h.show_results(store, ["gt", "rep3", "samp3"])
    assert "not shown" not in shown["injection"]     # a row each: no crowded cell
    assert "<table" in shown["injection"]                       # the heatmap is drawn
