"""The runner's tables through Store: endpoints, prices, templates, runs, work, results, cache.

Real SQLite files; the lease and exactly-once rules are checked where they live (the store)."""
import time

import pytest

from store import ConflictError, NotFoundError, Store, ValidationError
from store.migrations import applied_migrations


def test_migration_adds_the_runner_tables(store):
    assert "0002_runner" in applied_migrations(store.db)
    assert {"endpoints", "prompt_templates", "prices", "model_runs", "run_work",
            "run_responses", "response_cache"} <= set(store.db.table_names())


def test_endpoints_store_the_key_variable_name_never_a_key(store):
    e = store.add_endpoint("local", "http://localhost:8000/v1/", "qwen", api_key_env="QWEN_KEY",
                           concurrency=4, max_image_pixels=1_000_000,
                           params={"temperature": 0})
    assert e["base_url"] == "http://localhost:8000/v1" and e["params"] == {"temperature": 0}
    with pytest.raises(ValidationError, match="environment variable name"):
        store.add_endpoint("bad", "http://x/v1", "m", api_key_env="sk-abc123")
    with pytest.raises(ValidationError, match="http"):
        store.add_endpoint("bad", "localhost:8000", "m")
    with pytest.raises(ValidationError, match="already exists"):
        store.add_endpoint("local", "http://x/v1", "m")
    assert store.update_endpoint("local", concurrency=16)["concurrency"] == 16
    with pytest.raises(ValidationError, match="unknown fields"):
        store.update_endpoint("local", api_key="secret")
    assert [e["name"] for e in store.list_endpoints()] == ["local"]
    store.delete_endpoint("local")
    with pytest.raises(NotFoundError, match="endpoint add"):
        store.get_endpoint("local")


def test_prices_exact_match_beats_the_longest_glob(store):
    store.set_price("gpt-4o*", 2.5, 10)
    store.set_price("gpt-4o-mini*", 0.15, 0.6)
    store.set_price("gpt-4o-mini", 0.2, 0.8)
    assert store.price_for("gpt-4o-2024")["input_per_m"] == 2.5
    assert store.price_for("gpt-4o-mini-2024")["input_per_m"] == 0.15
    assert store.price_for("gpt-4o-mini")["input_per_m"] == 0.2
    assert store.price_for("qwen") is None
    store.set_price("gpt-4o*", 3, 12)  # upsert
    assert store.price_for("gpt-4o-x")["output_per_m"] == 12
    with pytest.raises(ValidationError):
        store.set_price("m", -1, 0)


def test_templates_are_versioned_and_identical_saves_make_no_version(store):
    assert store.ensure_prompt_template("user", "v1 text")["version"] == 1
    assert store.ensure_prompt_template("user", "ignored")["text"] == "v1 text"
    assert store.save_prompt_template("user", "v1 text") == 1
    assert store.save_prompt_template("user", "v2 text", author="ann") == 2
    assert store.prompt_template("user")["text"] == "v2 text"
    assert store.prompt_template("user", 1)["text"] == "v1 text"
    assert [t["version"] for t in store.prompt_template_history("user")] == [2, 1]
    assert store.list_prompt_templates()[0]["versions"] == 2
    with pytest.raises(NotFoundError):
        store.prompt_template("user", 9)


def _run(store, run_id="r1", n=3):
    work = [("answer", f"demo/Q_{i}", 0, 0, None) for i in range(n)]
    store.create_run(run_id, "cid", {"setting": "cot"}, {}, "local", work, author="t")
    return store.pending_work(run_id)


def _row(work_id, status="ok", **extra):
    return {"work_id": work_id, "status": status, "text": "Answer: A", "answer": "A",
            "clues": [{"text": "a sign"}], "prompt_tokens": 10, "completion_tokens": 2,
            "latency": 0.1, "attempts": 1, "cost": 0.001, **extra}


def test_a_run_and_its_work_rows_are_created_together(store):
    pending = _run(store)
    assert [w["item_id"] for w in pending] == ["demo/Q_0", "demo/Q_1", "demo/Q_2"]
    with pytest.raises(ValidationError, match="already exists"):
        _run(store)
    assert store.run_work_count("r1") == 3
    assert store.get_run("r1")["status"] == "created"


def test_a_result_is_recorded_exactly_once(store):
    pending = _run(store)
    run = store.claim_run("r1", "me:1", lambda owner, beat: False)
    assert run["status"] == "running"
    state = store.record_run_batch("r1", "me:1", [_row(pending[0]["id"])],
                                   [{"key": "k1", "text": "Answer: A"}], {"done": 1})
    assert state == {"inserted": 1, "control": None, "owner": "me:1"}
    assert store.get_run("r1")["totals"] == {"done": 1}
    again = store.record_run_batch("r1", "me:1", [_row(pending[0]["id"], text="other")], [], {})
    assert again["inserted"] == 0
    assert len(store.pending_work("r1")) == 2
    results = store.run_results("r1")
    assert results[0]["text"] == "Answer: A" and results[0]["clues"] == [{"text": "a sign"}]
    assert results[1]["status"] is None
    assert store.cache_get("k1")["text"] == "Answer: A"


def test_aggregates_count_tokens_and_cost_of_paid_replies_only(store):
    pending = _run(store)
    store.claim_run("r1", "me:1", lambda o, b: False)
    store.record_run_batch("r1", "me:1", [
        _row(pending[0]["id"]), _row(pending[1]["id"], cached=1, cost=0.0),
        _row(pending[2]["id"], status="error", prompt_tokens=None, completion_tokens=None,
             cost=None, attempts=6, rate_limited=2)], [], {})
    agg = store.run_aggregates("r1")
    assert agg["by_status"] == {"ok": 2, "error": 1}
    assert agg["prompt_tokens"] == 10 and agg["cached"] == 1 and agg["priced"] == 1
    assert agg["attempts"] == 8 and agg["rate_limited"] == 2
    assert store.delete_run_results("r1", ("error",)) == 1
    assert len(store.pending_work("r1")) == 1


def test_a_live_owner_keeps_the_run_and_a_stale_one_loses_it(store):
    _run(store)
    store.claim_run("r1", "host:1", lambda o, b: False)
    with pytest.raises(ConflictError, match="host:1"):
        store.claim_run("r1", "host:2", lambda owner, beat: False)
    taken = store.claim_run("r1", "host:2", lambda owner, beat: owner == "host:1")
    assert taken["owner"] == "host:2"
    # the old owner's next commit learns it lost the run and writes no counters
    state = store.record_run_batch("r1", "host:1", [], [], {"done": 99})
    assert state["owner"] == "host:2" and store.get_run("r1")["totals"] == {}


def test_pause_and_cancel_requests(store):
    _run(store)
    assert store.request_run_control("r1", "pause")["status"] == "paused"  # nobody runs it
    store.claim_run("r1", "me:1", lambda o, b: False)
    assert store.request_run_control("r1", "cancel")["control"] == "cancel"
    assert store.read_run_control("r1") == "cancel"
    store.finish_run("r1", "me:1", "cancelled", "cancel requested", {"done": 0})
    run = store.get_run("r1")
    assert run["status"] == "cancelled" and run["owner"] is None and run["control"] is None
    with pytest.raises(ValidationError):
        store.request_run_control("r1", "explode")


def test_response_clues_by_item_and_repeat(store):
    work = [("clues", "demo/Q_1", r, 0, None) for r in range(2)]
    store.create_run("r2", "cid", {}, {}, "local", work)
    store.claim_run("r2", "me:1", lambda o, b: False)
    pending = store.pending_work("r2", "clues")
    store.record_run_batch("r2", "me:1", [_row(pending[1]["id"])], [], {})
    assert store.run_response_clues("r2", "clues") == {
        ("demo/Q_1", 1): {"status": "ok", "clues": [{"text": "a sign"}]}}


def test_cache_many_and_put(store):
    store.cache_put({"key": "a", "text": "x", "latency": 0.5})
    store.cache_put({"key": "a", "text": "second"})  # first reply wins
    keys = [f"k{i}" for i in range(1200)] + ["a"]
    assert set(store.cache_get_many(keys)) == {"a"}
    assert store.cache_get("a")["text"] == "x"
    assert store.cache_stats()["entries"] == 1


def test_runs_are_listed_newest_first(tmp_path):
    s = Store.open(tmp_path / "l.db")
    for n in range(3):
        s.create_run(f"r{n}", "c", {}, {}, "e", [])
        time.sleep(0.01)
    assert len(s.list_runs()) == 3 and len(s.list_runs(limit=2)) == 2
    assert [r["id"] for r in s.runs_with_config("c")] == ["r0", "r1", "r2"]
    s.close()
