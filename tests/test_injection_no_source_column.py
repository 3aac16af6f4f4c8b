"""A clue-injection run whose every item had no source clue (its source run listed none) was
missing from the injection table: no column, no ‡, its CSV's `_no_source_clue` all 0, only
"Failed, never marked best" naming it. Now its column is there, the cell "–‡" (nothing
scored, and why) with the footnote, in the table, its CSV, Markdown and LaTeX, and on the
Results page. Real SQLite, real scoring."""
from scoring import tables
from scoring.score_run import score_run
from tests.scoring_helpers import add_items, cli, make_run
from tests.test_injection_table_marks import ITEMS
from ui import results_handlers as h

COLUMN = "clues of mx · Clue-guided CoT"


def runs(store) -> list[str]:
    add_items(store, ITEMS)
    ids = [i["id"] for i in ITEMS]
    make_run(store, "src", {i: "Answer: A" for i in ids}, model="mx", setting="clue_guided")
    make_run(store, "none1", {i: "Answer: A" for i in ids})
    make_run(store, "inj", {i: None for i in ids}, clues="run:src")
    with store.atomic():     # as the engine records an answer not asked (runner_work)
        store.db.conn.execute("UPDATE run_responses SET reason = 'no clues from run src: "
                              "its reply listed none' WHERE run_id = 'inj'")
    store.finish_run("inj", "test", "failed", "4 × no clues from run src", {})
    for run in ("src", "none1", "inj"):
        score_run(store, run)
    return ["src", "none1", "inj"]


def test_a_run_without_any_source_clue_has_its_column_and_footnote(store):
    chosen = runs(store)
    table = tables.injection_table(store, chosen)
    assert COLUMN in [c.key for c in table.columns]
    row = next(r for r in table.rows if r["solver"].startswith("m · CoT"))
    assert row[COLUMN] is None and row[f"{COLUMN}_no_source_clue"] == 4
    assert "‡ No source clue: m · CoT · clues of (mx · Clue-guided CoT): 4 items" in table.notes
    assert "| –‡ |" in table.to_markdown()
    assert "--$^\\ddagger$" in table.to_latex()
    assert ",4,0," in table.to_csv()       # <column>_no_source_clue 4, No Clue's 0
    code, out, _ = cli("table", "--db", store.path, "--kind", "injection", "--runs",
                       ",".join(chosen))
    assert code == 0 and "–‡" in out and "‡ No source clue" in out
    shown = h.show_results(store, chosen)["injection"]
    assert "n 0 ‡<" in shown and "No source clue: m · CoT" in shown     # the tile: n, mark
    assert 'title="‡ 4 items not asked: no source clue"' in shown       # the count on hover
