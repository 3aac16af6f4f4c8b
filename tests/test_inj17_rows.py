"""Researcher review (inj17): result tables keyed rows by a label that could collide.

A named run `a-cot` (vlm-a · CoT, no clues) and an unnamed run of the same model and setting
whose every reply came from a-cot's cache: the unnamed run's own label is 'vlm-a · CoT', the
label of the row keeping a-cot, so the two rows were one and a-cot was in none. Real SQLite,
real scoring, the CLI and the Results page's handlers."""
from __future__ import annotations

import csv
import io
import json

from scoring import tables
from scoring.score_run import score_run
from tests.scoring_helpers import add_items, cli, make_run
from ui import results_handlers as h

ITEMS = [{"id": f"demo/{i}", "answer_type": "multiple_choice", "answer": "A", "domain": "d",
          "subtask": "s"} for i in range(4)]
B = "20261207-101500-bbbb"     # unnamed: labelled 'vlm-a · CoT'


def runs(store) -> list[str]:
    add_items(store, ITEMS)
    ids = [i["id"] for i in ITEMS]
    right = {i: "Answer: A" for i in ids}
    half = {i: "Answer: B" if i in ids[:2] else "Answer: A" for i in ids}
    make_run(store, "a-cot", half, model="vlm-a")
    make_run(store, B, half, model="vlm-a", cached_from="a-cot")
    make_run(store, "a-gt", right, model="vlm-a", clues="gt")
    make_run(store, "b-cot", half, model="vlm-b")
    make_run(store, "b-gt", right, model="vlm-b", clues="gt")
    store.label_run("a-cot", name="a-cot")
    chosen = ["a-cot", B, "a-gt", "b-cot", "b-gt"]
    for run in chosen:
        store.finish_run(run, "test", "done", "", {})
        score_run(store, run)
    return chosen


def test_a_named_run_and_an_unnamed_copy_of_one_solver_are_two_rows(store):
    chosen = runs(store)
    table = tables.injection_table(store, chosen)
    solvers = [row["solver"] for row in table.rows]
    assert len(solvers) == len(set(solvers)) == 3, solvers
    shown = sorted(row[f"{c}_run_id"] for row in table.rows for c in ("No Clue", "GT")
                   if row.get(f"{c}_run_id"))
    assert shown == sorted(chosen), (shown, solvers)
    for fmt in ("json", "csv"):
        code, out, err = cli("table", "--db", store.path, "--kind", "injection", "--runs",
                             ",".join(chosen), "--format", fmt)
        assert code == 0, err
        rows = json.loads(out)["rows"] if fmt == "json" else \
            list(csv.DictReader(io.StringIO(out)))
        ids = {row["No Clue_run_id"] for row in rows}
        assert {"a-cot", B, "b-cot"} <= ids, (fmt, ids)
        assert len({row["solver"] for row in rows}) == len(rows) == 3
    page = h.show_results(store, chosen)["injection"]        # the page's heatmap
    assert "vlm-a · CoT [a-cot] (4 items)" in page, page
    assert "vlm-a · CoT [bbbb] (No Clue: from the cache) (4 items)" in page, page  # short id
    path = h.export_table(store, chosen, "general", "injection", "csv")
    with open(path, newline="") as f:
        assert {row["No Clue_run_id"] for row in csv.DictReader(f)} >= {"a-cot", B}
    assert "-5-runs-" in path, path       # it said 4-runs for the 5 runs picked


CLUED = [{"id": f"c/{i}", "answer_type": "multiple_choice", "answer": "A", "domain": "d",
          "subtask": "s", "clues": [{"text": "a red bus", "reasoning": "", "boxes": []}]}
         for i in range(4)]


def test_the_drop_is_not_shown_over_wrong_answers_only(store):
    """A clue judge whose replies on the right answers cannot be read: a wrong answer is
    wrong under rigorous without it, so the items both protocols scored were the wrong ones
    only and the row read General 0.00, Rigorous 0.00†, Drop 0.00† for a run right on half.
    Real HTTP to tests/openai_server.py."""
    from scoring.tables import drop_table
    from tests.openai_server import start_server

    add_items(store, CLUED)
    make_run(store, "r1", {i["id"]: "Clue 1: a red bus\nAnswer: A" if n % 2 else "Answer: B"
                           for n, i in enumerate(CLUED)})
    with start_server(replies={"Ground-truth clues:": "no idea"}) as server:
        store.add_endpoint("clue-bad", server.url, "gpt-4o-mini")
        score_run(store, "r1", protocol="all", judges=["clue-bad"])
    table = drop_table(store, ["r1"], judge="llm:clue-bad")
    [row] = table.rows
    assert (row["general"], row["n"]) == (50.0, 4), row
    assert row["rigorous"] is None and row["drop"] is None, row
    said = [f for f in table.footnotes if "2 items with a right answer have no clue verdict "
            "from "
            "llm:clue-bad, the drop over the rest would count wrong answers only" in f]
    assert said, table.footnotes
    code, out, err = cli("table", "--db", store.path, "--kind", "drop", "--judge", "clue-bad")
    assert code == 0, err
    assert "| 50.00 | – | – |" in out and \
        "2 items with a right answer have no clue verdict" in out, out
    assert "both protocols scored" not in table.caption, table.caption     # n 4: general's
    assert "General alone, on the items it scored, for 1 run" in table.caption


def test_a_copy_of_a_shown_run_is_not_marked_best_beside_it(store):
    """B took every reply from a-cot's cache: the main table bolded both as best. The mark
    goes to a-cot alone; the notes say why B has none."""
    chosen = runs(store)
    table = tables.main_table(store, ["a-cot", B, "b-cot", "b-gt"])
    rows = {row["run_id"]: i for i, row in enumerate(table.rows)}
    marks = table.marks()
    assert marks.get((rows["b-gt"], "overall")) == "best"
    assert marks.get((rows["a-cot"], "overall")) == "second", marks
    assert (rows[B], "overall") not in marks, marks
    assert "Not marked best or second, being copies of runs shown here" in table.notes
    assert "vlm-a · CoT (every reply from a-cot)" in table.notes
    code, out, err = cli("table", "--db", store.path, "--kind", "main", "--runs",
                         ",".join(chosen))
    assert code == 0, err
    copy = next(line for line in out.splitlines() if line.startswith("| vlm-a · CoT |"))
    assert "**" not in copy and "<u>" not in copy and "\\_" not in copy, copy

    # an ablation cell whose run copies another row's first repeat: not marked either
    three = {i["id"]: ["Answer: A" if i["id"] != "demo/0" else "Answer: B"] * 3
             for i in ITEMS}
    make_run(store, "a-rep", three, model="vlm-c", repeats=3)
    make_run(store, "a-one", {k: v[0] for k, v in three.items()}, model="vlm-c",
             cached_from="a-rep")
    for run in ("a-rep", "a-one"):
        store.finish_run(run, "test", "done", "", {})
        score_run(store, run)
    table = tables.ablation_table(store, ["a-rep", "a-one", "b-cot"])
    rows = {row["cot_run_id"]: i for i, row in enumerate(table.rows)}
    marks = table.marks()
    assert marks.get((rows["a-rep"], "cot")) == "best", marks
    assert marks.get((rows["b-cot"], "cot")) == "second", marks
    assert (rows["a-one"], "cot") not in marks, marks
    assert "Not marked best or second, being copies of runs shown here" in table.notes

def test_a_human_baseline_labelled_as_a_run_does_not_replace_its_row(store, tmp_path):
    """The main table keyed its rows by label: a baseline labelled 'a-cot' replaced the run
    a-cot's row (its numbers the baseline's, its run_id the run's)."""
    from scoring.human import add_baseline, stored_summary

    runs(store)
    path = tmp_path / "crowd.json"
    path.write_text(json.dumps({"label": "a-cot", "results": {
        i["id"]: True for i in ITEMS}}))
    human = stored_summary(store, add_baseline(store, path))
    for sort in (False, True):          # the main table and the leaderboard
        table = tables.main_table(store, ["a-cot", "b-cot"], human=human, sort=sort)
        labels = [row["model"] for row in table.rows]
        assert len(labels) == len(set(labels)) == 3, labels
        ran = next(row for row in table.rows if row.get("run_id") == "a-cot")
        assert ran["overall"] == 50.0, ran
        baseline = [row for row in table.rows if row["overall"] == 100.0]
        assert len(baseline) == 1 and "run_id" not in baseline[0], baseline
