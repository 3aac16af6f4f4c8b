"""A negative change was printed with the hyphen-minus, "0.00 (-75.00)", in the tables, the
page's heatmaps and the downloads people read: displayed text now has the minus sign
"0.00 (−75.00)" (U+2212), LaTeX its '$-$', while CSV and JSON keep the number itself
(-75.0), which programs read. Real SQLite, real scoring."""
from __future__ import annotations

import csv
import io
import json

from judges.cells import fixed
from scoring import tables
from scoring.score_run import score_run
from tests.scoring_helpers import add_items, make_run

ITEMS = [{"id": f"demo/{i}", "answer_type": "multiple_choice", "answer": "A", "domain": "d",
          "subtask": "s"} for i in range(4)]


def test_fixed_prints_the_minus_sign_and_never_minus_zero():
    assert fixed(-23.08, 2, signed=True) == "\u221223.08"
    assert fixed(-0.5, 2) == "\u22120.50" and fixed(7.14, 2, signed=True) == "+7.14"
    assert fixed(-0.001, 2, signed=True) == "+0.00"


def test_a_negative_change_reads_with_the_minus_sign_but_exports_a_number(store):
    add_items(store, ITEMS)
    ids = [i["id"] for i in ITEMS]
    make_run(store, "none1", {i: "Answer: A" for i in ids})
    make_run(store, "gt1", {i: "Answer: B" if i == "demo/0" else "Answer: A" for i in ids},
             clues="gt")
    for run in ("none1", "gt1"):
        score_run(store, run)
    table = tables.injection_table(store, ["none1", "gt1"])
    assert "75.00 (\u221225.00)" in table.to_markdown()
    assert "-25" not in table.to_markdown().split("\n\n")[1]       # the table's body
    assert "75.00\\textsubscript{$-$25.00}" in table.to_latex()
    row = json.loads(table.to_json())["rows"][0]
    assert row["GT_pct_delta"] == -25.0
    [exported] = list(csv.DictReader(io.StringIO(table.to_csv())))
    assert float(exported["GT_pct_delta"]) == -25.0
