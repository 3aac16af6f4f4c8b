"""The clue-injection (and ablation) table named each row by model and setting only: a cell
whose run was cancelled read as a finished run's. The row now names such a cell, its run's
status and n, on the page's heatmap and in every download."""
from scoring import tables
from scoring.heatmaps import injection_heatmap
from store import Store
from scoring.score_run import score_run
from tests.scoring_helpers import NOT_RUN, add_items, make_run

ITEMS = [{"id": f"demo/{i}", "answer_type": "yes_no", "answer": "Yes", "domain": "Street",
          "subtask": "signs"} for i in range(6)]


def test_a_cancelled_cell_says_so_with_its_n(tmp_path):
    store = Store.open(tmp_path / "t.db")
    add_items(store, ITEMS)
    ids = [i["id"] for i in ITEMS]
    make_run(store, "cot", {i: "Yes." for i in ids})
    make_run(store, "gt", {i: "Yes." if n < 4 else NOT_RUN for n, i in enumerate(ids)},
             clues="gt")
    store.finish_run("gt", "test", "cancelled", "cancelled by the user", {})
    for run in ("cot", "gt"):
        score_run(store, run)
    table = tables.injection_table(store, ["cot", "gt"])
    assert table.rows[0]["solver"] == "m · CoT (GT: cancelled, n 4)"
    assert "GT: cancelled, n 4" in table.to_csv() and "GT: cancelled, n 4" in table.to_markdown()
    assert "m · CoT (GT: cancelled, n 4)" in injection_heatmap(table)
