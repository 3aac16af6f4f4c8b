"""The clue-injection table on the Results page: a cell whose run took every reply from the
response cache (another run's draws, not its own) was not marked, and a run injecting the
clues of a run without a name was labelled by that run's raw id ("m · CoT · clues
run:20261206-…") beside a column titled by the source's label. Now the row names the cell
("m · CoT (GT: from the cache)"), the notes say whose draws they are, CSV/JSON carry
`<column>_from_cache`, and the source run is named by its table label. Real SQLite, real
scoring, the page's handler."""
from __future__ import annotations

from scoring import tables
from scoring.score_run import score_run
from tests.scoring_helpers import add_items, make_run
from ui import results_handlers as h

ITEMS = [{"id": f"demo/{i}", "answer_type": "multiple_choice", "answer": "A", "domain": "d",
          "subtask": "s"} for i in range(4)]
SOURCE = "20261206-100826-1d74"


def runs(store) -> list[str]:
    add_items(store, ITEMS)
    ids = [i["id"] for i in ITEMS]
    make_run(store, SOURCE, {i: "Clue 1: a red bus\nAnswer: A" for i in ids}, model="mx",
             setting="clue_guided")
    make_run(store, "none1", {i: "Answer: B" if i == "demo/0" else "Answer: A" for i in ids})
    make_run(store, "gt1", {i: "Answer: A" for i in ids}, clues="gt", cached_from="none1")
    make_run(store, "inj", {i: "Answer: B" for i in ids}, clues=f"run:{SOURCE}")
    chosen = [SOURCE, "none1", "gt1", "inj"]
    for run in chosen:
        score_run(store, run)
    return chosen


def test_a_cell_served_from_the_cache_is_marked_and_said(store):
    chosen = runs(store)
    table = tables.injection_table(store, chosen)
    row = next(r for r in table.rows if r["solver"].startswith("m · CoT"))
    assert row["solver"] == "m · CoT (GT: from the cache)"
    assert row["GT_from_cache"] == 4 and row["No Clue_from_cache"] == 0    # counts
    assert "GT_from_cache" in table.exported
    assert ("From the cache: m · CoT · clues gt: all its 4 replies taken from the cache, "
            "made by m · CoT") in table.notes
    shown = h.show_results(store, chosen)
    assert "m · CoT (GT: from the cache)" in shown["injection"]


def test_an_unnamed_source_run_is_named_by_its_label_not_its_id(store):
    chosen = runs(store)
    table = tables.injection_table(store, chosen)
    row = next(r for r in table.rows if r["solver"].startswith("m · CoT"))
    assert row["clues of mx · Clue-guided CoT_run_label"] == \
        "m · CoT · clues of (mx · Clue-guided CoT)"
    main = tables.main_table(store, chosen)
    assert "m · CoT · clues of (mx · Clue-guided CoT)" in {r["model"] for r in main.rows}
    shown = h.show_results(store, chosen)
    assert SOURCE not in shown["injection"] + shown["rules"] + shown["group_chart"]
    assert SOURCE not in table.notes + main.notes
