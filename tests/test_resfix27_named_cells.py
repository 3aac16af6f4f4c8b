"""Researcher review (resfix27): the injection and ablation tables label rows by model and
setting, so a run the user named "nocot" read as 'vlm-a · No-CoT' (injection) or the vlm-a
row's No-CoT cell (ablation) while the main table called it "nocot", nothing tying the two.
The notes now name each cell a named run fills, by its name ("Cells of named runs: nocot in
vlm-a · No-CoT, No Clue"), as the main table names it (`scoring.compared.run_label`). Real
SQLite, real offline scoring, the real CLI and the Results page's injection heatmap."""
from __future__ import annotations

import html
import json

from scoring import tables
from tests.scoring_helpers import add_items, cli, make_run
from tests.test_resfix24b_injection_rows import ITEMS
from tests.test_tables_paper_review import finish
from ui import results_handlers as h

NOCOT, GT, COT = "20261207-181000-c001", "20261207-181100-c002", "20261207-181200-c003"


def _runs(store) -> list[str]:
    add_items(store, ITEMS)
    ids = [i["id"] for i in ITEMS]
    make_run(store, NOCOT, {i: "Answer: A" if i in ids[:2] else "Answer: B" for i in ids},
             model="vlm-a", setting="direct")
    make_run(store, GT, {i: "Answer: A" for i in ids}, model="vlm-a", setting="direct",
             clues="gt")
    make_run(store, COT, {i: "Answer: A" for i in ids}, model="vlm-a", setting="cot")
    store.label_run(NOCOT, name="nocot")
    chosen = [NOCOT, GT, COT]
    finish(store, *chosen)
    return chosen


def test_injection_notes_name_the_cell_a_named_run_fills(store):
    chosen = _runs(store)
    table = tables.injection_table(store, chosen)
    assert [row["solver"] for row in table.rows] == ["vlm-a · CoT", "vlm-a · No-CoT"]
    assert "Cells of named runs: nocot in vlm-a · No-CoT, No Clue." in table.notes, table.notes
    main = tables.main_table(store, chosen)
    assert "nocot" in [row["model"] for row in main.rows]
    # the page's heatmap says it under the map, and `table` in its notes
    page = h.show_results(store, chosen)
    assert "Cells of named runs: nocot in vlm-a · No-CoT, No Clue." in \
        html.unescape(page["injection"])
    code, text, err = cli("table", "--db", store.path, "--kind", "injection", "--runs",
                          ",".join(chosen), "--format", "json")
    assert code == 0, err
    assert "nocot in vlm-a · No-CoT, No Clue" in json.loads(text)["notes"]


def test_ablation_notes_name_the_cell_a_named_run_fills(store):
    chosen = _runs(store)
    table = tables.ablation_table(store, chosen)
    assert [row["model"] for row in table.rows] == ["vlm-a"]
    assert "Cells of named runs: nocot in vlm-a, No-CoT." in table.notes, table.notes
    # no named run: no such note
    store.label_run(NOCOT, name="")
    assert "Cells of named runs" not in tables.ablation_table(store, chosen).notes
