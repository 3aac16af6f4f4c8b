"""An injection cell "62.50 (+0.00 on this cell's items) n 8" beside No Clue's "64.29 n 14"
read as a contradiction (62.50 is not 64.29 + 0.00): the change is on the cell's 8 items,
where No Clue's accuracy is another than its 64.29 on 14. The cell now says No Clue's own
figure on those items: "+0.00 vs 62.50 without clue, on these 8 items", in the notes since
review round 28 (the cell: "62.50 (+0.00)"; it held the sentence)."""
from __future__ import annotations

import json

from judges.cells import delta_notes
from judges.paper_tables import clue_injection_table


def _table():
    cells = {("m · CoT", "GT"): 62.5, ("m · CoT", "No Clue"): 64.2857,
             ("k · CoT", "GT"): 40.0, ("k · CoT", "No Clue"): 50.0}
    deltas = {("m · CoT", "GT"): (0.0, 8, 62.5), ("k · CoT", "GT"): (-20.0, 13, 60.0)}
    table = clue_injection_table(cells, deltas=deltas)
    for row, (n, base_n) in zip(table.rows, ((8, 14), (14, 15))):
        row.update({"GT_n": n, "No Clue_n": base_n, "_baseline_n": base_n})
    return table


def test_a_change_on_other_items_says_the_baselines_figure_there():
    table = _table()
    cells = table.rendered(latex=False)
    assert cells[0] == ["m · CoT", "62.50 (+0.00) (n 8)", "64.29 (n 14)"]
    assert cells[1][1] == "40.00 (\u221220.00) (n 14)"
    assert delta_notes(table.rows, "solver", {"GT": "GT"}) == (
        "Changes on other items than their cells' n (said here, not in the cells): m · CoT, "
        "GT: +0.00 vs 62.50 without clue, on these 8 items; k · CoT, GT: \u221220.00 vs 60.00 "
        "without clue, on the 13 items both runs scored.")
    first = json.loads(table.to_json())["rows"][0]
    assert first["GT_pct_delta_base"] == 62.5


def test_a_change_on_both_cells_items_says_no_more():
    table = _table()
    table.rows[0].update({"GT_n": 8, "No Clue_n": 8, "_baseline_n": 8})
    assert table.rendered(latex=False)[0][1] == "62.50 (+0.00) (n 8)"
    assert "m · CoT" not in delta_notes(table.rows, "solver", {"GT": "GT"})
