"""Benchmark: rule-based scoring of a large run, and every result table of a 20,000-response run.

    python -m bench.scoring_and_tables [--items 20000] [--samples 5] [--table-responses 20000]

Builds a database in a temporary folder: N items of mixed answer types (multiple choice, yes/no,
numeric, location, open) over 4 domains x 4 subtasks, a run of N x samples responses (written
through the store as the engine writes them, with the extraction already stored), and a second
run of --table-responses responses with one sample. Measures:
  score_s   score_run(protocol="general") on the big run, offline: read responses and items,
            rule verdicts from the stored extractions, upsert every score row (target <= 10 s)
  tables_s  on the table run (scored general + rigorous + grounded first): run summaries with
            bootstrap CIs, the main tables by domain and subtask, drop, clue injection,
            ablation, leaderboard and the plot data (target <= 1 s)
Prints progress on stderr and one JSON line on stdout.
"""
from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from bench._common import emit, log, machine

DOMAINS = ["Location", "Spatial", "Daily", "Science"]
KINDS = [("multiple_choice", "B"), ("multiple_choice", "C"), ("multiple_choice", "A"),
         ("yes_no", "Yes"), ("numeric", "12"), ("location", "$france,ile-de-france$"),
         ("open", "red umbrella")]
WRONG = {"multiple_choice": "D", "yes_no": "No", "numeric": "13",
         "location": "$france,normandy$", "open": "blue umbrella"}


def build(store, n_items: int) -> list[dict]:
    from tests.conftest import png_bytes

    sha = store.add_image(png_bytes(64, 48), "bench.png").sha256
    rows = []
    with store.atomic():
        for i in range(n_items):
            answer_type, gold = KINDS[i % len(KINDS)]
            item = {"id": f"bench/{i}", "dataset": "bench", "domain": DOMAINS[i % 4],
                    "subtask": f"{DOMAINS[i % 4]}-{(i // 4) % 4}", "question": f"Q{i}?",
                    "answer_type": answer_type, "answer": gold, "aliases": [],
                    "options": [{"label": L, "text": f"opt {L}", "image": None}
                                for L in "ABCD"] if answer_type == "multiple_choice" else [],
                    "status": "draft", "images": [sha], "reasoning_type": None,
                    "clues": [{"text": f"a sign reading {i}", "reasoning": "", "boxes": []}]}
            store.create_item(item, "bench")
            rows.append(item)
    return rows


def make_run(store, run_id: str, items: list[dict], samples: int, seed: int,
             clues: str = "none", model_seed: int | None = None) -> None:
    """A finished run with random outcomes; `clues`/`model_seed` make the GT-clue twin of a
    run (same model and setting) that the injection table compares with."""
    rng = random.Random(seed)
    model = f"model-{seed if model_seed is None else model_seed}"
    config = {"endpoint": {"name": "e", "base_url": "http://x/v1", "model": model},
              "setting": ["direct", "cot", "clue_guided"][(model_seed or seed) % 3],
              "clues": clues,
              "image_mode": "full", "image_max_pixels": None}
    work = [("answer", item["id"], 0, s, None, None) for item in items for s in range(samples)]
    store.create_run(run_id, f"cfg-{run_id}", config, {}, "e", work)
    by_id = {item["id"]: item for item in items}
    pending = store.pending_work(run_id)
    for start in range(0, len(pending), 5000):
        batch = []
        for w in pending[start:start + 5000]:
            item = by_id[w["item_id"]]
            draw = rng.random()
            status = "error" if draw < 0.02 else "unparsed" if draw < 0.05 else "ok"
            answer = None if status != "ok" else item["answer"] if draw < 0.6 else \
                WRONG[item["answer_type"]]
            batch.append({"work_id": w["id"], "status": status, "answer": answer,
                          "reason": "bench", "text": f"Clue 1: a sign reading {w['item_id']}"
                          f"\nAnswer: {answer}", "completion_tokens": rng.randint(50, 500),
                          "clues": [{"text": f"a sign reading {w['item_id'][6:]}",
                                     "box": None}] if answer else []})
        store.record_run_batch(run_id, "bench", batch, [], {})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, default=20_000)
    parser.add_argument("--samples", type=int, default=5)
    parser.add_argument("--table-responses", type=int, default=20_000)
    args = parser.parse_args()

    from scoring import figures, tables
    from scoring.results import run_summary
    from scoring.score_run import score_run
    from store import Store

    folder = Path(tempfile.mkdtemp(prefix="cluelab-bench-scoring-"))
    store = Store.open(folder / "bench.db")
    started = time.perf_counter()
    items = build(store, max(args.items, args.table_responses))
    make_run(store, "big", items[:args.items], args.samples, 1)
    for seed in (2, 3, 4):
        make_run(store, f"t{seed}", items[:args.table_responses], 1, seed)
    make_run(store, "t2gt", items[:args.table_responses], 1, 5, clues="gt", model_seed=2)
    log(f"built {len(items)} items and runs in {time.perf_counter() - started:.1f} s")

    started = time.perf_counter()
    result = score_run(store, "big", protocol="general")
    score_s = time.perf_counter() - started
    log(f"scored {result['responses']} responses in {score_s:.2f} s")
    table_runs = ["t2", "t3", "t4"]
    for run in table_runs + ["t2gt"]:
        score_run(store, run, protocol="all")

    started = time.perf_counter()
    summary = run_summary(store, "t2")
    tables.main_table(store, ["t2"], "by_domain").to_markdown()
    tables.main_table(store, ["t2"], "by_subtask").to_latex()
    tables.drop_table(store, ["t2"]).to_csv()
    tables.injection_table(store, ["t2", "t2gt"]).to_json()   # needs a GT-clue run
    tables.ablation_table(store, ["t2"]).to_markdown()
    figures.length_bins({"t2": summary})
    one_s = time.perf_counter() - started
    started = time.perf_counter()
    tables.leaderboard_table(store, table_runs).to_markdown()
    figures.correlation_heatmap({r: run_summary(store, r)["summary"] for r in table_runs})
    three_s = time.perf_counter() - started
    log(f"all tables of one {args.table_responses}-response run: {one_s:.2f} s; leaderboard "
        f"and correlation over 3 such runs: {three_s:.2f} s")
    store.close()
    emit({"bench": "scoring", "responses_scored": result["responses"],
          "score_s": round(score_s, 2), "score_target_s": 10,
          "table_responses": args.table_responses, "tables_s": round(one_s, 3),
          "tables_target_s": 1, "leaderboard_3_runs_s": round(three_s, 3),
          "machine": machine()})


if __name__ == "__main__":
    main()
