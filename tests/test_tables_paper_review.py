"""A researcher's review of the paper tables (ablation, injection, leaderboard), each defect
made for real: real SQLite, runs written through the store, real scoring, the real CLI.

- The ablation table's row was the model alone: its CoT cell showed the newest run, a
  3-sample majority vote, beside single-draw No-CoT and Clue-guided cells; and a cell of
  several runs showed the newest finished one, a run answered wholly from the cache on 13
  items (23.08) where the run it copied had 14 (21.43, what `--runs` showed).
- The leaderboard ordered 23.08 (n 13) above 21.43 (n 14) under a note that no best was
  marked because the rows' n differ.
- Injection cells read "0.00 (-23.08, n 13) (n 14)" and "16.67 (-8.33, n 12) (n 12)"; the
  ablation table showed empty columns "No-CoT (n 0)"; the injection heatmap's notes sent
  the reader to an Items column it does not have.
"""
from __future__ import annotations

import json
import re
import time

import pytest

from scoring import tables
from scoring.cell_runs import CELL_RULE
from scoring.score_run import score_run
from store import Store
from tests.scoring_helpers import NOT_RUN, add_items, cli, make_run

YES_NO = [{"id": f"demo/{i:02}", "answer_type": "yes_no", "answer": "Yes", "domain": "d",
           "subtask": "s"} for i in range(12)]
OPEN = [{"id": f"demo/open{i}", "answer_type": "open", "answer": "a red kite", "domain": "d",
         "subtask": "s"} for i in (1, 2)]
IDS = [i["id"] for i in YES_NO + OPEN]
EXACT, VAGUE = "Answer: a red kite", "Answer: kite"     # scored right; unscored (offline)


def replies(right: int, open1: str = EXACT, open2: str = EXACT) -> dict:
    """`right` of the 12 yes/no items right (the rest wrong), and the two open answers."""
    found = {item["id"]: "Yes." if k < right else "No." for k, item in enumerate(YES_NO)}
    return {**found, "demo/open1": open1, "demo/open2": open2}


def finish(store, *run_ids):
    for run in run_ids:
        store.finish_run(run, "test", "done", "", {})
        score_run(store, run)


@pytest.fixture
def store(tmp_path):
    store = Store.open(tmp_path / "review.db")
    add_items(store, YES_NO + OPEN)
    yield store
    store.close()


def test_an_ablation_row_keeps_its_samples_and_repeats(store):
    """alpha-cot-s3 (3 samples, newest) filled alpha-vlm's CoT cell beside single draws."""
    make_run(store, "alpha-nocot", replies(3), model="alpha-vlm", setting="direct")
    make_run(store, "alpha-cot", replies(4), model="alpha-vlm")
    make_run(store, "alpha-cg", replies(5), model="alpha-vlm", setting="clue_guided")
    time.sleep(1.1)                                  # runs are stamped to the second
    make_run(store, "alpha-cot-s3", {i: ["Yes.", "Yes.", "No."] if i.startswith("demo/0") or
                                     i.startswith("demo/1") else [EXACT] * 3 for i in IDS},
             model="alpha-vlm", samples=3)
    finish(store, "alpha-nocot", "alpha-cot", "alpha-cg", "alpha-cot-s3")
    code, out, err = cli("table", "--db", store.path, "--kind", "ablation", "--format", "json")
    assert code == 0, err
    table = json.loads(out)
    rows = {row["model"]: row for row in table["rows"]}
    assert set(rows) == {"alpha-vlm", "alpha-vlm · 3 samples"}
    single, sampled = rows["alpha-vlm"], rows["alpha-vlm · 3 samples"]
    assert (single["direct_run_id"], single["cot_run_id"], single["clue_guided_run_id"]) == \
        ("alpha-nocot", "alpha-cot", "alpha-cg")
    assert (sampled["cot_run_id"], sampled["direct_pct"], sampled["clue_guided_pct"]) == \
        ("alpha-cot-s3", None, None)
    assert "Several runs fit one cell" not in table["notes"]      # none crowds another
    assert "a single draw is never set beside a 3-sample majority vote" in table["notes"]
    code, out, err = cli("table", "--db", store.path, "--kind", "ablation")
    assert "| alpha-vlm · 3 samples | – | **100.00** | – |" in out   # the best CoT cell


def test_a_cell_of_several_runs_shows_the_one_the_stated_rule_picks(store):
    """slow-cot: its own draws, all 14 items scored, 3 right (21.43). slow-cot-cached, newer:
    every reply from the cache, one open answer unscored, 3 of 13 right (23.08). The cell
    showed the newest finished run; now the one with the most scored items, as `--runs`
    without the copy shows it."""
    make_run(store, "slow-cot", replies(1), model="slow-vlm")
    time.sleep(1.1)
    make_run(store, "slow-cot-cached", replies(2, open1=VAGUE), model="slow-vlm",
             cached_from="slow-cot-r3")
    make_run(store, "slow-gt", replies(5), model="slow-vlm", clues="gt")
    finish(store, "slow-cot", "slow-cot-cached", "slow-gt")
    for kind, key, cell in (("ablation", "model", "cot"), ("injection", "solver", "No Clue")):
        code, out, err = cli("table", "--db", store.path, "--kind", kind, "--format", "json")
        assert code == 0, err
        table = json.loads(out)
        if kind == "injection":      # the other run has a row of its own (resfix17)
            # (round 19: the kept run's row names it too, and rows sort by label)
            [row] = [r for r in table["rows"] if r[f"{cell}_run_id"] == "slow-cot"]
            [other] = [r for r in table["rows"] if r is not row]
            assert row[key] == "slow-vlm · CoT [slow-cot]", row[key]
            assert other[key] == "slow-vlm · CoT [slow-cot-cached] (No Clue: from the cache)"
            assert ("keeps slow-vlm · CoT [slow-cot] (n 14); slow-vlm · CoT [slow-cot-cached] "
                    "(n 13; 14 replies from the cache) in a row of its own") in table["notes"]
            assert (row[f"{cell}_run_id"], row[f"{cell}_pct"]) == ("slow-cot", 21.43)
            continue
        [row] = table["rows"]
        assert (row[f"{cell}_run_id"], row[f"{cell}_pct"], row[f"{cell}_n"]) == \
            ("slow-cot", 21.43, 14)
        assert CELL_RULE in table["notes"]
        assert ("shows slow-vlm · CoT [slow-cot] (n 14), not slow-vlm · CoT "
                "[slow-cot-cached] (n 13; 14 replies from the cache).") in table["notes"]
    # at equal n, a run that sent its own requests before a newer copy from the cache
    make_run(store, "slow-cot-copy", replies(1), model="slow-vlm", cached_from="slow-cot")
    finish(store, "slow-cot-copy")
    table = tables.ablation_table(store, ["slow-cot-copy", "slow-cot"])
    assert table.rows[0]["cot_run_id"] == "slow-cot"
    assert "not slow-vlm · CoT [slow-cot-copy] (n 14; 14 replies from the cache)" in \
        table.notes


def test_the_leaderboard_says_its_order_is_no_ranking_when_the_rows_n_differ(store):
    make_run(store, "slow-cot", replies(1), model="slow-vlm")
    make_run(store, "slow-cot-vague", replies(2, open1=VAGUE), model="slow-vlm",
             setting="direct")
    finish(store, "slow-cot", "slow-cot-vague")
    code, out, err = cli("leaderboard", "--db", store.path)
    assert code == 0, err
    assert [line.split(" | ")[1:3] for line in out.splitlines()
            if line.startswith("| slow")] == [["21.43", "14"], ["23.08", "13"]]  # n first
    assert ("Leaderboard: general accuracy (%), 14 items; n differ: ordered by n, then "
            "accuracy, not a ranking; samples rule: majority vote**") in out
    assert ("Rows are in order of n (the items each run scored), most first, then of Overall "
            "among equal n: accuracies on different items are no ranking") in out
    latex = cli("leaderboard", "--db", store.path, "--format", "latex")[1]
    assert "not a ranking" in latex.split("\\caption{")[1].split("}")[0]  # the caption travels
    code, out, err = cli("leaderboard", "--db", store.path, "--runs", "slow-cot")
    assert "not a ranking" not in out                                      # one n: ranked


def test_a_change_says_on_which_items_without_a_second_n(store):
    """slow: No Clue scored 13 (one open answer vague), 3 right; GT all 14, 2 right (14.29):
    the change is on the 13 both scored, 1 - 3 of 13 (-15.38). alpha: GT scored 12 (both
    open answers vague), 2 right (16.67); No Clue all 14, 3 right of GT's 12 (25.00): the
    change is on the GT cell's 12 items (-8.33). The GT column's n differ, so each cell
    says its own."""
    make_run(store, "slow-none", replies(2, open1=VAGUE), model="slow-vlm")
    make_run(store, "slow-gt", replies(0), model="slow-vlm", clues="gt")
    make_run(store, "alpha-none", replies(3), model="alpha-vlm")
    make_run(store, "alpha-gt", replies(2, open1=VAGUE, open2=VAGUE), model="alpha-vlm",
             clues="gt")
    finish(store, "slow-none", "slow-gt", "alpha-none", "alpha-gt")
    table = tables.injection_table(store, ["slow-none", "slow-gt", "alpha-none", "alpha-gt"])
    rows = {row["solver"]: row for row in table.rows}
    assert (rows["slow-vlm · CoT"]["GT_n"], rows["slow-vlm · CoT"]["GT_delta_n"]) == (14, 13)
    assert (rows["alpha-vlm · CoT"]["GT_n"], rows["alpha-vlm · CoT"]["GT_delta_n"]) == (12, 12)
    out = table.to_markdown()
    assert "| slow-vlm · CoT | 14.29 (\u221215.38) (n 14) |" in out   # on which items: notes
    assert "| alpha-vlm · CoT | 16.67 (\u22128.33) (n 12) |" in out
    notes = " ".join(table.notes.split())
    assert "slow-vlm · CoT, GT: \u221215.38 vs 23.08 without clue, on the 13 items both runs " \
        "scored" in notes
    assert "alpha-vlm · CoT, GT: \u22128.33 vs 25.00 without clue, on these 12 items" in notes
    for cell in (c for line in out.splitlines() for c in line.split(" | ")):
        said = re.findall(r"\bn (\d+)", cell)
        assert len(said) == len(set(said)), cell          # no n said twice in a cell
    assert ', n 1' not in out and "vs 62.50 without clue, on these 8 items" in table.notes


def test_an_ablation_column_no_run_has_is_not_shown(store):
    """Without --runs, group 2 (a cancelled clue-guided run on 4 items) showed No-CoT (n 0)
    and CoT (n 0) columns with nothing in them."""
    make_run(store, "cot", replies(4))
    make_run(store, "cg-cancelled", {i: "Yes." if k < 4 else NOT_RUN for k, i in
                                     enumerate(IDS)}, setting="clue_guided")
    finish(store, "cot", "cg-cancelled")
    store.finish_run("cg-cancelled", "test", "cancelled", "cancelled by the user", {})
    code, out, err = cli("table", "--db", store.path, "--kind", "ablation")
    assert code == 0, err
    first, second = out.split("## Dataset demo, group 2 of 2 (1 run)")
    assert "(n 0)" not in out
    assert "| Model | CoT (n 14) | Items | Judge |" in first
    assert "| Model | Clue-guided CoT (n 4) | Items | Judge |" in second
    assert ("No run of this table has the setting No-CoT and Clue-guided CoT: those columns "
            "are left out.") in first
    assert ("No run of this table has the setting No-CoT and CoT: those columns are left "
            "out.") in second


def test_the_injection_heatmap_notes_say_where_its_items_are(store):
    from ui import results_handlers as h

    make_run(store, "none", replies(4))
    make_run(store, "gt", replies(6), clues="gt")
    finish(store, "none", "gt")
    table = tables.injection_table(store, ["none", "gt"])
    figure = h.injection_figure(table)
    assert "Items column" not in figure and "(Items)" not in figure
    assert "m · CoT (14 items)" in figure                             # where they are ...
    assert "counted after each row&#x27;s name, &quot;(14 items)&quot;" in figure  # ... said
    assert "counted in the Items column" in table.to_markdown()       # the table has one
