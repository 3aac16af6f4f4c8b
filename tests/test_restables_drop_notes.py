"""Review round 28: the drop table's notes said "Grounded-rigorous is n/a (–), not 0%, for X:
setting cot asks for no boxes (…)" once per run (nine times for nine CoT runs); now once, the
runs named together by reason. And a No-CoT run (setting direct, whose prompt asks for no
clues) got a rigorous accuracy and a drop from clues its reply volunteered (Rigorous 33.33):
DailyClue's rigorous protocol reads the clues of the model's CoT (§4.2) and reports rigorous
and the drop for CoT runs only (Fig. 7; No-CoT has its accuracy alone, Fig. 6), so a No-CoT
run's Rigorous and Drop are n/a ("–") with the reason in the notes, as grounded-rigorous is
for runs asked for no boxes. Real SQLite, real scoring, the real CLI and page handler."""
from __future__ import annotations

import io
import json

import pandas as pd
import pytest

from scoring.score_run import score_run
from scoring.tables import drop_table, main_table
from store import Store
from tests.scoring_helpers import add_items, cli, make_run
from ui import results_handlers as h

CLUE = [{"text": "a red sign above the door", "reasoning": "", "boxes": []}]
REPLY = "Clue 1: a red sign above the door\nAnswer: A"
COTS = [f"cot{k}" for k in range(4)]


@pytest.fixture
def store(tmp_path):
    found = Store.open(tmp_path / "notes.db")
    ids = add_items(found, [{"id": f"demo/{i}", "answer_type": "multiple_choice",
                             "answer": "A", "domain": "d", "subtask": "s", "clues": CLUE}
                            for i in range(3)])
    for run in COTS:
        make_run(found, run, dict.fromkeys(ids, REPLY), model=f"m{run[-1]}", setting="cot")
    # No-CoT: right on all three, volunteering the clue on one of them
    make_run(found, "nocot", {ids[0]: REPLY, ids[1]: "Answer: A", ids[2]: "Answer: A"},
             model="mx", setting="direct")
    for run in COTS + ["nocot"]:
        score_run(found, run, protocol="all")
    yield found
    found.close()


def test_the_no_boxes_sentence_is_said_once_naming_the_runs(store):
    table = drop_table(store, COTS + ["nocot"])
    assert table.notes.count("asks for no boxes") == 2, table.notes      # cot, direct
    assert table.notes.count("Grounded-rigorous is n/a") == 1, table.notes
    assert table.notes.count("only the structured setting") == 1, table.notes
    assert ("for m0 · CoT, m1 · CoT, m2 · CoT and m3 · CoT: setting cot asks for no boxes"
            in table.notes), table.notes
    code, out, err = cli("table", "--db", store.path, "--kind", "drop", "--runs",
                         ",".join(COTS + ["nocot"]), "--format", "md")
    assert code == 0, err
    assert out.count("asks for no boxes") == 2 and out.count("Grounded-rigorous is n/a") == 1


def test_a_no_cot_run_has_no_rigorous_or_drop(store):
    table = drop_table(store, COTS + ["nocot"])
    rows = {row["run_id"]: row for row in table.rows}
    assert rows["nocot"]["general"] == 100.0
    assert rows["nocot"]["rigorous"] is None and rows["nocot"]["drop"] is None, rows["nocot"]
    assert rows["cot0"]["rigorous"] == 100.0 and rows["cot0"]["drop"] == 0.0
    assert "Rigorous is n/a (–), not 0%, for mx · No-CoT: setting direct (No-CoT) asks for " \
           "no clues" in table.notes, table.notes
    line = next(line for line in table.to_markdown().splitlines() if "mx · No-CoT" in line)
    assert line.startswith("| mx · No-CoT | 100.00 | – | – |"), line
    code, out, err = cli("table", "--db", store.path, "--kind", "drop", "--runs",
                         "cot0,nocot", "--format", "csv")
    assert code == 0, err
    found = {r["run_id"]: r for r in pd.read_csv(io.StringIO(out)).to_dict("records")}
    assert pd.isna(found["nocot"]["rigorous_pct"]) and pd.isna(found["nocot"]["drop_pct"])
    assert "asks for no clues" in found["nocot"]["rigorous_not_applicable"]
    main = main_table(store, ["cot0", "nocot"], protocol="rigorous")
    rows = {row["run_id"]: row for row in main.rows}
    assert rows["nocot"]["overall"] is None and "asks for no clues" in main.notes
    code, out, err = cli("report", "--db", store.path, "--run", "nocot", "--protocol",
                         "rigorous", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["overall"]["accuracy"] is None and "asks for no clues" in \
        report["not_applicable"]
    shown = h.show_results(store, ["cot0", "nocot"])
    assert "mx · No-CoT · rigorous: n/a: no clues asked" in shown["drop_chart"]
