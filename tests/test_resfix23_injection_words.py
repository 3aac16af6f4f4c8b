"""A clue-injection cell "14.29 (−15.38 vs 23.08 on the 13 items both scored)" did not say
what 23.08 was, nor whose items: a reader took it for the cell's own run on another share. It
is the solver's run without clue (the No Clue column) on the items both runs scored; the cell
now says so, its n still in it: "14.29 (−15.38 vs 23.08 without clue, on the 13 items both
runs scored) (n 14)", in Markdown, LaTeX, the page's heatmap and the notes. Real SQLite, real
offline scoring, the real CLI."""
from __future__ import annotations

from scoring import figures, tables
from tests.scoring_helpers import add_items, cli, make_run
from tests.test_tables_paper_review import OPEN, VAGUE, YES_NO, finish, replies

RUNS = ["slow-none", "slow-gt", "alpha-none", "alpha-gt"]


def _runs(store):
    add_items(store, YES_NO + OPEN)
    make_run(store, "slow-none", replies(2, open1=VAGUE), model="slow-vlm")
    make_run(store, "slow-gt", replies(0), model="slow-vlm", clues="gt")
    make_run(store, "alpha-none", replies(3), model="alpha-vlm")
    make_run(store, "alpha-gt", replies(2, open1=VAGUE, open2=VAGUE), model="alpha-vlm",
             clues="gt")
    finish(store, *RUNS)


def test_a_change_says_it_is_against_the_run_without_clue(store):
    _runs(store)
    table = tables.injection_table(store, RUNS)
    out = table.to_markdown()
    slow = "slow-vlm · CoT, GT: \u221215.38 vs 23.08 without clue, on the 13 items both runs scored"
    alpha = "alpha-vlm · CoT, GT: \u22128.33 vs 25.00 without clue, on these 12 items"
    assert slow in out and alpha in out, out        # in the notes (round 28), once each
    assert "14.29 (\u221215.38) (n 14)" in out and "16.67 (\u22128.33) (n 12)" in out
    assert "without clue, on the 13 items both runs scored" in figures.injection_heatmap(table)
    code, latex, err = cli("table", "--db", store.path, "--kind", "injection", "--runs",
                           ",".join(RUNS), "--format", "latex")
    assert code == 0, err
    assert "vs 23.08 without clue, on the 13 items both runs scored" in latex  # its notes
    assert "\\textsubscript{$-$15.38}" in latex          # the cell: the change alone
    assert "without clue, on the 13 items both runs scored\": the cell's run and its No Clue " \
           "run)" in " ".join(table.notes.split())
