"""Tables a researcher can trust: a table per dataset by default, runs named as the user named
them (and marked when they did not finish), counters that add up within the shared items,
notes that count what they say. Real SQLite, real scoring, the real CLI."""
from __future__ import annotations

import io
import json

import pandas as pd
import pytest

from scoring.score_run import score_run
from store import Store
from tests.scoring_helpers import add_items, cli, make_run

DEMO = [{"id": f"demo/{i}", "answer_type": "multiple_choice", "answer": "A", "domain": "d",
         "subtask": "s"} for i in range(4)]
OPEN = [{"id": "demo/open", "answer_type": "open", "answer": "a red kite", "domain": "d",
         "subtask": "s"}]
OTHER = [{"id": f"other/{i}", "answer_type": "multiple_choice", "answer": "B", "domain": "e",
          "subtask": "t"} for i in range(3)]


@pytest.fixture
def two_datasets(tmp_path):
    """demo: run a (named "Alpha baseline", 4 right + an open answer offline cannot decide)
    and run b (3 items, all wrong, the open one too); other: run c (done) and run d
    (cancelled after 2 of 3 items)."""
    store = Store.open(tmp_path / "t.db")
    add_items(store, DEMO + OPEN + OTHER)
    make_run(store, "a", {**{i["id"]: "Answer: A" for i in DEMO}, "demo/open": "Answer: kite"})
    make_run(store, "b", {**{f"demo/{i}": "Answer: B" for i in range(3)},
                          "demo/open": "Answer: kite"}, model="m2")
    make_run(store, "c", {i["id"]: "Answer: B" for i in OTHER}, model="m3")
    make_run(store, "d", {"other/0": "Answer: B", "other/1": "Answer: C"}, model="m4")
    store.finish_run("d", "test", "cancelled", "cancelled by the user", {})
    store.label_run("a", name="Alpha baseline")
    for run in "abcd":
        score_run(store, run)
    yield store
    store.close()


def test_without_runs_a_table_per_dataset_each_on_its_own_items(two_datasets):
    db = two_datasets.path
    code, out, err = cli("leaderboard", "--db", db)
    assert code == 0, err       # before: refused, the four runs share no item
    assert "## Dataset demo" in out and "## Dataset other" in out
    demo, other = out.split("## Dataset other", 1)
    assert "Alpha baseline" in demo and "m2 · CoT" in demo and "m3" not in demo
    assert "m3 · CoT" in other and "m4 · CoT (cancelled)" in other
    # other: d, cancelled after 2 of the 3 items, no longer cuts c to those 2 (nor does b,
    # on 4 of demo's 5 items, cut Alpha baseline): each is a table of its own
    c_table, d_table = other.split("## Dataset other, group 2 of 2 (1 run)")
    assert "3 items; samples rule: majority vote**" in c_table and "m4" not in c_table
    assert "2 items; samples rule: majority vote**" in d_table
    assert "Not finished: m4 · CoT (cancelled)" in d_table
    code, out, err = cli("table", "--db", db, "--kind", "main", "--format", "csv")
    assert code == 2 and out == ""
    assert "2 datasets: demo (2 runs), other (2 runs)" in err and "--dataset NAME" in err
    code, out, err = cli("table", "--db", db, "--kind", "main", "--format", "csv",
                         "--dataset", "other")
    assert code == 0, err
    frame = pd.read_csv(io.StringIO(out))
    assert sorted(frame["run_id"]) == ["c"] and set(frame["n"]) == {3}
    assert "group 2: m4 · CoT (cancelled) [d]: print it with python app.py table" in err
    # named, c and d are compared on the 2 items both have, the table saying which limits n
    code, out, err = cli("table", "--db", db, "--kind", "main", "--format", "csv",
                         "--dataset", "other", "--runs", "c,d")
    assert code == 0, err
    frame = pd.read_csv(io.StringIO(out))
    assert sorted(frame["run_id"]) == ["c", "d"] and set(frame["n"]) == {2}
    code, _, err = cli("table", "--db", db, "--dataset", "nope")
    assert code == 2 and "no scored run is on dataset 'nope'" in err and "demo (2 runs)" in err


def test_rows_name_runs_by_their_name_and_exports_have_id_name_and_model(two_datasets):
    """`model` is the model the endpoint asked (it held the run's name, so a spreadsheet
    could not group runs by model); `run_name` is the name the page shows the run by."""
    # a and b named: by default b (4 of a's 5 items) is a table of its own
    code, out, err = cli("leaderboard", "--db", two_datasets.path, "--dataset", "demo",
                         "--runs", "a,b", "--format", "json")
    assert code == 0, err
    rows = {r["run_id"]: r for r in json.loads(out)["rows"]}
    assert (rows["a"]["model"], rows["a"]["run_name"]) == ("m", "Alpha baseline")
    assert (rows["b"]["model"], rows["b"]["run_name"], rows["b"]["run_label"]) == ("m2", "", "m2 · CoT")
    assert json.loads(out)["columns"][:4] == ["run_id", "run_name", "run_label", "model"]
    code, out, err = cli("table", "--db", two_datasets.path, "--dataset", "demo",
                         "--runs", "a,b", "--kind", "drop", "--format", "csv")
    frame = pd.read_csv(io.StringIO(out)).set_index("run_id")
    assert code == 0 and (frame.loc["a", "model"], frame.loc["a", "run_name"]) == (
        "m", "Alpha baseline")


def test_counters_add_up_within_the_shared_items(two_datasets):
    from scoring.tables import main_table

    table = main_table(two_datasets, ["a", "b"])
    # shared: demo/0-2 and demo/open; the open answer is unscored (offline cannot decide)
    assert table.caption.endswith("n = 4: run m2 · CoT covers 4 of 5 items; its row's n is 3, "
                                  "the other 1 unscored")
    for row in table.rows:
        assert (row["n"], row["unscored"]) == (3, 1)
        assert row["n"] + row["unscored"] == 4
    alone = main_table(two_datasets, ["a"])   # a alone: 5 items, 4 scored + 1 unscored
    assert alone.caption.endswith("5 items") and (alone.rows[0]["n"],
                                                  alone.rows[0]["unscored"]) == (4, 1)


def test_drop_note_counts_runs_and_protocols_as_such(two_datasets):
    from scoring.tables import drop_table

    for run in "ab":
        score_run(two_datasets, run, protocol="rigorous")
    table = drop_table(two_datasets, ["a", "b"])
    # two runs, each scored under both protocols on its items: two runs, not four
    assert table.notes.startswith("Runs compared on the 4 items both share")
    # which way is best, for every column: the drop is not marked, and the notes say why
    assert "General and Rigorous: higher is better. Drop (General − Rigorous) is not marked" \
        in table.notes
    assert not [key for (_, key) in table.marks() if key == "drop"]


def test_results_download_is_named_by_its_selection_and_reads_back_in_pandas(two_datasets):
    from pathlib import Path

    from ui import results_handlers as h

    path = Path(h.export_table(two_datasets, ["c", "d"], "general", "main", "csv"))
    assert path.name.startswith("cluelab-main-general-other-2-runs-") and path.suffix == ".csv"
    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")              # a BOM, for spreadsheets
    frame = pd.read_csv(io.BytesIO(data))
    assert list(frame.columns[:9]) == ["run_id", "run_name", "run_label", "model", "run_status",
                                       "protocol", "samples_rule", "from_cache", "overall_pct"]
    # the label is the table's, "(cancelled)" and all (it said "m4 · CoT" beside the table's
    # "m4 · CoT (cancelled)"); the status has its own column too
    assert frame.set_index("run_id").loc["d", "run_label"] == "m4 · CoT (cancelled)"
    assert frame.set_index("run_id").loc["d", "run_status"] == "cancelled"
    assert frame.set_index("run_id").loc["d", "model"] == "m4"
    assert frame.set_index("run_id").loc["c", "overall_pct"] == 100.0
    one = Path(h.export_table(two_datasets, ["a"], "general", "leaderboard", "json"))
    assert one.name.startswith("cluelab-leaderboard-general-demo-Alpha_baseline-")  # its name
    board = json.loads(one.read_text())
    assert "CI" not in board["notes"]          # the leaderboard shows no interval: none named


def test_a_failed_run_is_marked_failed_and_never_best(tmp_path):
    """'old': every answer an error, recorded 'done' (as runs ended before the runner called
    that failed); 'died': its endpoint died after one item, which it got right and 'good'
    wrong. Neither is marked best; both say they failed, in the label and in the notes."""
    store = Store.open(tmp_path / "f.db")
    add_items(store, DEMO)
    make_run(store, "good", {i["id"]: "Answer: A" if i["id"] != "demo/0" else "Answer: B"
                             for i in DEMO})
    make_run(store, "old", {i["id"]: None for i in DEMO}, model="m2")
    store.finish_run("old", "test", "done", "", {"total": 4, "answer_total": 4, "error": 4})
    make_run(store, "died", {"demo/0": "Answer: A"}, model="m3")
    store.finish_run("died", "test", "failed", "endpoint down", {})
    for run in ("good", "old", "died"):
        score_run(store, run)
    code, out, err = cli("leaderboard", "--db", store.path, "--runs", "good,old")
    assert code == 0, err
    rows = [line for line in out.splitlines() if line.startswith("| m")]
    assert any(r.startswith("| m2 · CoT (failed) |") and "**" not in r for r in rows), out
    assert "Failed, never marked best: m2 · CoT (failed): its 4 errors count as wrong" in out
    assert "Not finished" not in out
    code, out, err = cli("leaderboard", "--db", store.path, "--runs", "good,died")
    assert code == 0, err
    [died] = [line for line in out.splitlines() if line.startswith("| m3")]
    assert died.startswith("| m3 · CoT (failed) | 100.00 |") and "**" not in died, out


def test_a_verbench_table_of_runs_never_judged_so_says_what_it_needs(two_datasets):
    """It printed "VER-Bench scores, 0 items" and an empty table."""
    from scoring.results import ResultsError
    from scoring.tables import verbench_results

    with pytest.raises(ResultsError, match="scored under the VER-Bench protocol, which needs "
                                           "an LLM judge"):
        verbench_results(two_datasets, ["a", "b"])


def test_compare_flags_a_cancelled_or_failed_run_as_report_and_leaderboard_do(two_datasets):
    from scoring.compared import UNFINISHED

    db = two_datasets.path
    code, out, err = cli("compare", "--db", db, "c", "d")
    assert code == 0, err
    assert 'A "m3 · CoT" [c]: ' in out and 'B "m4 · CoT (cancelled)" [d]: ' in out
    assert "Not finished: m4 · CoT (cancelled)" in out
    result = json.loads(cli("compare", "--db", db, "c", "d", "--json")[1])
    assert result["status_b"] == "cancelled" and result["status_a"] not in UNFINISHED
    assert "Not finished: m4 · CoT (cancelled)" in result["note"]
    two_datasets.finish_run("b", "test", "failed", "the endpoint failed", {})
    code, out, err = cli("compare", "--db", db, "a", "b")
    assert code == 0, err
    assert 'A "Alpha baseline" [a]: ' in out and 'B "m2 · CoT (failed)" [b]: ' in out
    assert "Failed, never marked best: m2 · CoT (failed)" in out
    code, out, err = cli("compare", "--db", db, "a", "c")   # no shared item: refused as before
    assert code == 2


def test_an_unnamed_run_is_shown_by_its_label_in_the_csv_and_in_compare(two_datasets):
    """One rule for the name every output shows a run by: its label. Run b has no name:
    the CSV said `m2 · CoT` and `compare --json` said "" (the stored name, which stays '')."""
    code, out, err = cli("table", "--db", two_datasets.path, "--dataset", "demo",
                         "--runs", "a,b", "--format", "csv")
    assert code == 0, err
    frame = pd.read_csv(io.StringIO(out)).set_index("run_id")
    code, out, err = cli("compare", "--db", two_datasets.path, "a", "b", "--json")
    assert code == 0, err
    result = json.loads(out)
    assert (result["name_a"], result["name_b"]) == ("Alpha baseline", "m2 · CoT")
    assert (frame.loc["a", "run_label"], frame.loc["b", "run_label"]) == (
        result["name_a"], result["name_b"])
    assert two_datasets.get_run("b")["name"] == ""
