"""A small hand-made database for the Inspect tab's tests: the UI test items with GT boxes, two
runs whose responses are written through the store as the engine writes them (extraction by
`runner.outcomes.from_reply`, item versions recorded), offline scores from `score_run`, and
LLM judge verdicts read by the real judge parsers (`judges.llm`) from canned replies.

    run-a (m-a): alpha correct, clue M1 matches GT1 (judge and matcher), M2 illusionary;
                 beta correct but hostile text; gamma wrong ("B"; the LLM judge says correct)
    run-b (m-b): alpha "13" (unscored offline), beta error, gamma right answer, wrong reason
    gamma is edited after both runs (version 2 -> 3).
"""
from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from tests.live_server import open_ui_store

HOSTILE = ('<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"> '
           '[click me](javascript:window.__pwned=3) ')
HOSTILE_REPLY = HOSTILE + json.dumps({
    "answer": "Yes",
    "clues": [{"text": '<img src=y onerror="window.__pwned=4"> a platform sign',
               "box": [100, 100, 400, 300]}]})
ALPHA_A = ("The blue sign says EXIT 12, so that is the exit.\n" + json.dumps({
    "answer": "12",
    "clues": [{"text": "blue sign reading EXIT 12", "box": [300, 200, 420, 260]},
              {"text": "a dragon flying over the road", "box": [1000, 560, 1150, 760]}]}))
JUDGE_REPLY = json.dumps({"clues": [
    {"model_clue": 1, "label": "match", "gt_clue": 1},
    {"model_clue": 2, "label": "illusionary", "gt_clue": None}],
    "reason": "clue 1 is the sign; there is no dragon"})


def _with_boxes(store) -> None:
    alpha = store.get_item("ui/alpha")
    first, second = alpha["images"]
    alpha["clues"] = [
        {"text": "The blue sign reads EXIT 12", "reasoning": "signs name exits",
         "boxes": [{"image": first, "x0": 300, "y0": 200, "x1": 420, "y1": 260}]},
        {"text": "a grey road leads to the junction", "reasoning": "exits are on roads",
         "boxes": [{"image": second, "x0": 600, "y0": 400, "x1": 900, "y1": 700}]}]
    store.save_item(alpha, alpha["version"], "fixture", "boxes")
    gamma = store.get_item("ui/gamma")
    gamma["clues"] = [{"text": "the sign is blue", "reasoning": "look at it",
                       "boxes": [{"image": gamma["images"][0], "x0": 300, "y0": 200,
                                  "x1": 420, "y1": 260}]}]
    store.save_item(gamma, gamma["version"], "fixture", "boxes")


def make_run(store, run_id: str, model: str, replies: dict[str, str | None],
             setting: str = "structured") -> dict:
    """A run of one response per item, item versions recorded; {item_id: work_id}."""
    from runner.outcomes import from_failure, from_reply

    config = {"endpoint": {"name": "e", "base_url": "http://x/v1", "model": model},
              "setting": setting, "clues": "none", "image_mode": "full",
              "image_max_pixels": None, "samples": 1, "repeats": 1}
    versions = {i: store.get_item(i)["version"] for i in replies}
    store.create_run(run_id, f"cfg-{run_id}", config, {}, "e",
                     [("answer", i, 0, 0, None, versions[i]) for i in replies])
    rows, ids = [], {}
    for w in store.pending_work(run_id):
        item, text = store.get_item(w["item_id"]), replies[w["item_id"]]
        ids[w["item_id"]] = w["id"]
        if text is None:
            rows.append(from_failure(w["id"], "HTTP 500 from test"))
            continue
        rows.append(from_reply(w["id"], {"text": text, "finish_reason": "stop",
                                         "completion_tokens": len(text) // 4, "latency": 1.5},
                               item["answer_type"], item["options"],
                               cache_key=f"k{w['id']}", price_cost=None,
                               image_size=(1200, 800)))
    store.record_run_batch(run_id, "test", rows, [], {})
    return ids


def add_llm_clue_verdict(store, run_id: str, work_id: int, item_id: str) -> None:
    """A rigorous verdict by an LLM clue judge ("llm:judge") from a canned reply."""
    from judges.llm import rigorous_llm_verdict
    from judges.verdict import correct
    from scoring.score_run import _rows

    response = store.response_detail(work_id)
    clues = [c for c in response["clues"] if str(c.get("text") or "").strip()]
    n_gt = len(store.get_item(item_id)["clues"])
    verdict, _ = rigorous_llm_verdict("llm:judge", correct("gold", answer=response["answer"]),
                                      clues, n_gt, "PROMPT", JUDGE_REPLY)
    verdict.details["clues_from"] = "clue list"
    store.upsert_scores(_rows(run_id, "rigorous", "llm:judge", {work_id: verdict}))


def add_llm_general_verdict(store, run_id: str, work_id: int) -> None:
    """A general verdict by "llm:judge" that disagrees with the offline rule (correct)."""
    from judges.llm import open_verdict
    from scoring.score_run import _rows

    verdict = open_verdict("llm:judge", "PROMPT", '{"verdict": "correct", "reason": "close '
                           'enough <b>bold</b>"}', "B")
    store.upsert_scores(_rows(run_id, "general", "llm:judge", {work_id: verdict}))


def build_inspect_db(db: Path) -> dict:
    """Returns {"a": {item: work id}, "b": {...}} for runs run-a (model m-a) and run-b."""
    from scoring.score_run import score_run

    store = open_ui_store(db)
    try:
        _with_boxes(store)
        a = make_run(store, "run-a", "m-a", {"ui/alpha": ALPHA_A, "ui/beta": HOSTILE_REPLY,
                                             "ui/gamma": "The sign looks red. Answer: B"})
        b = make_run(store, "run-b", "m-b", {
            "ui/alpha": "Answer: 13", "ui/beta": None,
            "ui/gamma": "A fire truck would look like that. Answer: A"})
        for run_id in ("run-a", "run-b"):
            score_run(store, run_id, protocol="all")
        add_llm_clue_verdict(store, "run-a", a["ui/alpha"], "ui/alpha")
        add_llm_general_verdict(store, "run-a", a["ui/gamma"])
        gamma = store.get_item("ui/gamma")  # edited after the runs: the view must say so
        gamma["question"] = "Which colour is the exit sign?"
        store.save_item(gamma, gamma["version"], "fixture", "after the runs")
    finally:
        store.close()
    return {"a": a, "b": b}


def copy_db(db: Path, folder: Path) -> Path:
    """A copy of a built database in `folder`, with a copy of its media folder without the
    drawn images (tests write tags and notes, draw, and prune the drawn images)."""
    copy = folder / db.name
    with sqlite3.connect(db) as src, sqlite3.connect(copy) as dst:
        src.backup(dst)
    shutil.copytree(db.with_name(db.stem + "-media"), copy.with_name(copy.stem + "-media"),
                    ignore=shutil.ignore_patterns("inspect-cache"))
    return copy


# Fixtures of the Inspect tests: import both names into a test module to use them.
@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(database path, {"a": {item: work id}, "b": ...}) built once per test module."""
    db = tmp_path_factory.mktemp("inspect") / "ui.db"
    return db, build_inspect_db(db)


@pytest.fixture
def env(built, tmp_path):
    """(Store on a fresh copy of the module's database, the work ids), closed after."""
    from store import Store

    db, ids = built
    store = Store.open(copy_db(db, tmp_path))
    yield store, ids
    store.close()
