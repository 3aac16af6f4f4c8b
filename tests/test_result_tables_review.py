"""A context-free researcher's review of the result tables (injection, ablation, drop,
leaderboard, the exports' file names and the Results page's notes). Real SQLite store, runs
written through the store as the engine writes them, the real CLI and the page's handlers.
"""
import json

from scoring.score_run import score_run
from tests.scoring_helpers import add_items, cli, make_run

ITEMS = [{"id": f"demo/{i}", "answer_type": "yes_no", "answer": "Yes", "domain": "Street",
          "subtask": "signs"} for i in range(4)]
YES = {i["id"]: "Answer: Yes" for i in ITEMS}


def scored(store, *run_ids, protocol="general"):
    for rid in run_ids:
        score_run(store, rid, protocol=protocol)


def test_two_clue_sources_by_one_model_have_a_column_each(store):
    """Run x injected the clues of s1 (cot-vlm, Structured), run y those of s2 (cot-vlm,
    Clue-guided CoT): both were shown under one column "cot-vlm clues", a column mixing two
    clue sources (a ‡ footnote alone named them, and only for sources lacking a clue)."""
    add_items(store, ITEMS)
    make_run(store, "s1", YES, model="cot-vlm", setting="structured")
    make_run(store, "s2", YES, model="cot-vlm", setting="clue_guided")
    make_run(store, "base", YES, model="m", setting="cot")
    make_run(store, "x", YES, model="m", setting="cot", clues="run:s1")
    make_run(store, "y", YES, model="m", setting="cot", clues="run:s2")
    scored(store, "s1", "s2", "base", "x", "y")
    code, out, err = cli("table", "--db", store.path, "--kind", "injection",
                         "--runs", "base,x,y", "--format", "json")
    assert code == 0, err
    [row] = json.loads(out)["rows"]
    assert row["cot-vlm · Structured clues_run_id"] == "x"
    assert row["cot-vlm · Clue-guided CoT clues_run_id"] == "y"
    assert "Several runs fit one cell" not in out        # neither source's run is hidden
