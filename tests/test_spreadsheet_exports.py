"""Exports opened as spreadsheets or read by pandas: real SQLite, real files, real CLI.

CSVs meant for people (the Results download, `table`, `leaderboard`, the Inspect tag export)
neutralise a cell that a spreadsheet would run as a formula (OWASP: `=`, `+`, `-`, `@`, tab,
CR at the start get a leading `'`); the VLMEvalKit TSV is data and keeps every value exact,
quoting fields that hold a tab, CR or LF so that pandas reads one row per item.
"""
from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from formats import export_path, import_path
from judges.tables import spreadsheet_cell
from scoring.score_run import score_run
from store import Store
from tests.scoring_helpers import add_items, make_run
from tests.live_server import ROOT
from ui import results_handlers as h
from ui.inspect_tags import add_vocabulary_tag, export_tagged, save_tags

# A model id per dangerous first character; each leads its row of every results table.
HOSTILE_MODELS = ["=HYPERLINK(\"http://evil.example/\",\"x\")", "+1+2", "-3+4", "@SUM(A1)",
                  "\tTAB", "\rCR"]
ITEMS = [{"id": f"x/{i}", "answer_type": "multiple_choice", "answer": "A", "domain": "d",
          "subtask": "s"} for i in range(4)]


def read_csv(data: bytes) -> pd.DataFrame:
    """As a spreadsheet gets the file: bytes, no newline translation."""
    return pd.read_csv(io.BytesIO(data), dtype=str, keep_default_na=False)


def cli_output(*args) -> bytes:
    """The CLI's stdout as bytes (tests.test_cli.cli reads text, which turns CR into LF)."""
    done = subprocess.run([sys.executable, str(ROOT / "app.py"), *map(str, args)],
                          capture_output=True, timeout=300, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture
def scored_db(tmp_path):
    db = tmp_path / "results.db"
    store = Store.open(db)
    add_items(store, ITEMS)
    for n, model in enumerate(HOSTILE_MODELS):
        make_run(store, f"run{n}", {item["id"]: "Answer: A" for item in ITEMS}, model=model)
        score_run(store, f"run{n}")
    store.close()
    return db


def expected_labels() -> set[str]:
    return {"'" + model + " · CoT" for model in HOSTILE_MODELS}


def test_spreadsheet_cell_rule():
    for start in ("=", "+", "-", "@", "\t", "\r"):
        assert spreadsheet_cell(start + "x") == "'" + start + "x"
    assert spreadsheet_cell("model a") == "model a"
    assert spreadsheet_cell(-2.5) == -2.5          # a number is no formula
    assert spreadsheet_cell(None) is None
    assert spreadsheet_cell("") == ""


def test_results_download_neutralises_every_model_cell(scored_db):
    store = Store.open(scored_db)
    try:
        runs = [f"run{n}" for n in range(len(HOSTILE_MODELS))]
        for kind in ("main", "leaderboard"):
            path = h.export_table(store, runs, "general", kind, "csv")
            frame = read_csv(Path(path).read_bytes())
            assert len(frame) == len(HOSTILE_MODELS)
            assert list(frame.columns[:4]) == ["run_id", "run_name", "run_label", "model"]
            assert set(frame["run_label"]) == expected_labels(), kind
            assert set(frame["model"]) == {"'" + model for model in HOSTILE_MODELS}, kind
            # numbers stay numbers: 4 of 4 right in every run
            assert {float(v) for v in frame["overall_pct"]} == {100.0}
    finally:
        store.close()


def test_cli_table_and_leaderboard_csv_are_neutralised(scored_db):
    runs = ",".join(f"run{n}" for n in range(len(HOSTILE_MODELS)))
    frame = read_csv(cli_output("leaderboard", "--db", scored_db, "--runs", runs,
                                "--format", "csv"))
    assert len(frame) == len(HOSTILE_MODELS)
    assert set(frame["run_label"]) == expected_labels()
    frame = read_csv(cli_output("table", "--db", scored_db, "--runs", runs, "--kind", "main",
                                "--format", "csv"))
    assert len(frame) == len(HOSTILE_MODELS)
    assert set(frame["run_label"]) == expected_labels()


def test_inspect_tag_export_uses_the_same_rule(scored_db):
    store = Store.open(scored_db)
    try:
        work_id = store.scoring_responses("run0")[0]["work_id"]
        add_vocabulary_tag(store, "=SUM(A1)", "alice")
        save_tags(store, work_id, ["=SUM(A1)"], "alice")
        frame = pd.read_csv(export_tagged(store, "run0", "csv")[0], dtype=str,
                            keep_default_na=False)
        assert len(frame) == 1
        assert frame.loc[0, "tags"] == "'=SUM(A1)"
        assert frame.loc[0, "item_id"] == "x/0"
    finally:
        store.close()


# ---- the VLMEvalKit TSV: data, kept exact --------------------------------------------------
AWKWARD = ["a lone\rcarriage return", "a\ttab", "two\nlines", "CRLF\r\nhere",
           "=1+1 stays a formula", "+1 stays", "-2 stays", "@SUM(A1) stays",
           'a "quoted" word']


def test_vlmevalkit_tsv_reads_back_one_row_per_item_with_exact_values(store, make_item,
                                                                      tmp_path):
    for n, text in enumerate(AWKWARD):
        store.create_item(make_item(f"tsv/Q_{n}", n_clues=0, question=text,
                                    gt_reasoning="r"), "t")
    out = tmp_path / "out.tsv"
    export_path(store, "vlmevalkit", out)
    frame = pd.read_csv(out, sep="\t", dtype=str, keep_default_na=False)
    assert len(frame) == len(AWKWARD)
    assert list(frame["question"]) == AWKWARD
    assert list(frame["item_id"]) == [f"tsv/Q_{n}" for n in range(len(AWKWARD))]
    fresh = Store.open(tmp_path / "again.db")
    try:
        import_path(fresh, "vlmevalkit", out)
        assert [fresh.get_item(f"tsv/Q_{n}")["question"] for n in range(len(AWKWARD))] \
            == AWKWARD
    finally:
        fresh.close()


def test_a_vlmevalkit_export_says_how_many_cells_a_spreadsheet_would_run(store, make_item,
                                                                          tmp_path):
    """The TSV keeps "=HYPERLINK(…)" exact (data), and the page said nothing: an annotator
    could plant a formula for whoever opens the download in a spreadsheet. The export
    counts such cells (a negative number is none) and the page's line and the CLI say so."""
    from ui.io_lines import export_line
    for n, text in enumerate(['=HYPERLINK("http://evil.example/","q")', "@SUM(1+1)", "plain"]):
        store.create_item(make_item(f"f/Q_{n}", n_clues=0, question=text, answer="-3",
                                    gt_reasoning="r"), "t")
    summary = export_path(store, "vlmevalkit", tmp_path / "out.tsv")
    assert summary["formula_cells"] == 2
    line = export_line(summary)
    assert "2 cells begin with = + - or @, kept as written" in line and "as text" in line
    store.create_item(make_item("g/Q_0", n_clues=0, question="-", answer="-3.5",
                                gt_reasoning="r"), "t")
    clean = export_path(store, "vlmevalkit", tmp_path / "clean.tsv", dataset="g")
    assert clean["formula_cells"] == 1 and "1 cell begins" in export_line(clean)
