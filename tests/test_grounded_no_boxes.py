"""Grounded-rigorous accuracy of a run whose prompts asked for no boxes is n/a ("–", with the
reason) in every table, report, chart and export, never 0%: only the structured setting (or
clues=self with a structured first pass) asks the model for boxes. Real SQLite, real
scoring, the real CLI."""
from __future__ import annotations

import io
import json

import pandas as pd
import pytest

from scoring.no_boxes import asks_for_boxes
from scoring.score_run import score_run
from scoring.tables import drop_table, main_table
from store import Store
from ui.score_summary import summary_md
from tests.scoring_helpers import add_items, cli, make_run

CLUE = [{"text": "a red sign above the door", "reasoning": "", "boxes": []}]
REPLY = "Clue 1: a red sign above the door [10, 10, 50, 40]\nAnswer: A"


@pytest.fixture
def runs(tmp_path):
    store = Store.open(tmp_path / "boxes.db")
    ids = add_items(store, [{"id": f"demo/{i}", "answer_type": "multiple_choice",
                             "answer": "A", "domain": "d", "subtask": "s", "clues": CLUE}
                            for i in range(4)])
    make_run(store, "cot", dict.fromkeys(ids, REPLY), setting="cot")
    make_run(store, "boxed", dict.fromkeys(ids, REPLY), setting="structured")
    for run in ("cot", "boxed"):
        result = score_run(store, run, protocol="all")
    assert not any("n/a" in note for note in result["notes"])
    yield store
    store.close()


def test_which_settings_ask_for_boxes():
    assert asks_for_boxes({"setting": "structured", "clues": "none"})
    assert asks_for_boxes({"setting": "cot", "clues": "self",
                           "clue_pass_setting": "structured"})
    assert not asks_for_boxes({"setting": "cot", "clues": "self",
                               "clue_pass_setting": "clue_guided"})
    assert not asks_for_boxes({"setting": "clue_guided", "clues": "gt"})


def test_tables_show_a_dash_and_the_reason_not_zero(runs):
    table = main_table(runs, ["cot", "boxed"], protocol="grounded")
    rows = {row["run_id"]: row for row in table.rows}
    assert rows["cot"]["overall"] is None and rows["boxed"]["overall"] is not None
    assert "asks for no boxes" in table.notes and "n/a (–), not 0%" in table.notes
    [line] = [line for line in table.to_markdown().splitlines() if "· CoT |" in line]
    assert line.startswith("| m · CoT | – | 4 | – |")           # n kept, no 0.00
    exported = {r["run_id"]: r for r in json.loads(table.to_json())["rows"]}
    assert exported["cot"]["overall_pct"] is None
    assert "asks for no boxes" in exported["cot"]["not_applicable"]
    assert exported["boxed"]["not_applicable"] == ""
    drop = drop_table(runs, ["cot", "boxed"])
    rows = {row["run_id"]: row for row in drop.rows}
    assert rows["cot"]["grounded"] is None and rows["cot"]["general"] == 100.0
    assert rows["boxed"]["grounded"] is not None
    assert "asks for no boxes" in rows["cot"]["grounded_not_applicable"]


def test_the_cli_report_table_and_compare_say_n_a(runs):
    code, out, err = cli("report", "--db", runs.path, "--run", "cot", "--protocol",
                         "grounded", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["overall"]["accuracy"] is None and report["overall"]["n"] == 4
    assert "asks for no boxes" in report["not_applicable"]
    code, out, err = cli("report", "--db", runs.path, "--run", "cot", "--protocol", "grounded")
    assert code == 0 and "0.00" not in out.split("\n\n")[1] and "asks for no boxes" in out
    code, out, err = cli("table", "--db", runs.path, "--kind", "drop", "--runs", "cot,boxed",
                         "--format", "csv")
    assert code == 0, err
    rows = {r["run_id"]: r for r in pd.read_csv(io.StringIO(out)).to_dict("records")}
    assert pd.isna(rows["cot"]["grounded_pct"]) and rows["boxed"]["grounded_pct"] >= 0
    assert "asks for no boxes" in rows["cot"]["grounded_not_applicable"]
    code, out, err = cli("compare", "--db", runs.path, "cot", "boxed", "--protocol",
                         "grounded")
    assert code == 2 and "grounded-rigorous is n/a" in err


def test_score_says_n_a_for_grounded_of_a_run_without_boxes(runs):
    """`score` printed "grounded offline: … correct 0, wrong 3" for a run that asked for no
    boxes: counts that read as failures. It says n/a without the counts (they read as
    failures even in brackets; --json keeps them), and the notes come after the counts'
    last line (they ran into it: "unscored 0note:")."""
    code, out, err = cli("score", "--db", runs.path, "--run", "cot", "--protocol", "all")
    assert code == 0, err
    [line] = [x for x in out.splitlines() if x.strip().startswith("grounded offline")]
    assert line.strip().startswith("grounded offline: n/a, the run asked for no boxes (") and \
        "correct" not in line and "wrong" not in line
    assert json.loads(cli("score", "--db", runs.path, "--run", "cot", "--protocol", "all",
                          "--json")[1])["values"]["grounded offline"]["wrong"] >= 0
    assert out.endswith("\n") and "asks for no boxes" in err
    result = score_run(runs, "cot", protocol="all")
    assert "the run asked for no boxes; for Inspect only" in summary_md([("cot", result)])


def test_the_drop_tables_unscored_grounded_is_a_dash_where_grounded_is(runs):
    """`table --kind drop` showed a count in "Unscored grounded-rigorous" for a run whose
    Grounded-rigorous is "–" (n/a: it asked for no boxes): a count of no accuracy."""
    code, out, err = cli("table", "--db", runs.path, "--kind", "drop", "--runs", "cot,boxed")
    assert code == 0, err
    lines = [line for line in out.splitlines() if line.startswith("|")]
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    rows = {cells[0]: dict(zip(head, cells)) for cells in (
        [c.strip() for c in line.strip("|").split("|")] for line in lines[2:])}
    cot = next(row for label, row in rows.items() if "Structured" not in label)
    boxed = next(row for label, row in rows.items() if "Structured" in label)
    assert cot["Grounded-rigorous"] == "–" and cot["Unscored grounded-rigorous"] == "–"
    assert cot["Unscored rigorous"] == "0"
    assert boxed["Unscored grounded-rigorous"] == "0"
    drop = {row["run_id"]: row for row in json.loads(drop_table(runs, ["cot", "boxed"])
                                                     .to_json())["rows"]}
    assert drop["cot"]["unscored_grounded"] is None and drop["boxed"]["unscored_grounded"] == 0
