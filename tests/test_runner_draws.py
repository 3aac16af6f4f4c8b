"""Each (item, repeat, sample) of a run is its own draw: a cached reply stands only for the
same draw of the same request, a run can take nothing from the cache, and every view says
which replies came from the cache and from which run. Real SQLite files, the real fake
OpenAI server process, the real command line."""
import json

import pytest
import sqlite_utils

from runner.config import Execution, RunConfig
from runner.coverage import pending_coverage
from runner.engine import execute
from runner.planning import create_run, plan_run
from store import Store
from store.migrations import MIGRATIONS, apply_migrations
from tests.openai_server import start_server
from tests.test_runner_cli import DEMO, cli
from ui import experiments_runs as xr

FAST = {"retry_base_delay": 0.05, "batch_interval": 0.1}


@pytest.fixture(scope="module")
def server():
    with start_server() as handle:
        yield handle


@pytest.fixture
def fake(server, store):
    server.configure(reset=True)
    server.reset_log()
    store.add_endpoint("fake", server.url, "fake-vlm", concurrency=4)
    return server


def launch(store, ids, execution=None, **config):
    plan = plan_run(store, RunConfig(endpoint="fake", ids=ids, **config),
                    Execution(**{**FAST, **(execution or {})}))
    run_id = create_run(store, plan)
    return plan, execute(store, run_id, items=plan.items)


def chats(server):
    return [r for r in server.requests() if r["path"].endswith("/chat/completions")]


def test_two_items_whose_requests_read_the_same_get_a_draw_each(store, fake, make_item):
    """MMR-Life items with the same text and no image: 6 of 10 shared one reply."""
    twin = make_item("demo/twin_1", n_images=0, n_clues=0)
    store.create_item(twin, "t")
    store.create_item({**twin, "id": "demo/twin_2"}, "t")
    _, outcome = launch(store, ["demo/twin_1", "demo/twin_2"], setting="direct", repeats=2)
    assert outcome.totals["done"] == 4 and len(chats(fake)) == 4
    assert outcome.totals["cached"] == 0
    keys = [r["cache_key"] for r in store.run_results(outcome.run_id)]
    assert len(set(keys)) == 4


def test_a_cached_reply_stands_only_for_its_own_draw_and_says_whose(store, fake, make_item):
    """A 2-repeat run after a 1-repeat one: repeat 0 is the earlier run's draws (said in
    its counters, its results and the panel), repeat 1 is sent; no latency is copied."""
    for n in range(3):
        store.create_item(make_item(f"demo/Q_{n}"), "t")
    ids = [f"demo/Q_{n}" for n in range(3)]
    _, first = launch(store, ids, setting="cot")
    fake.reset_log()
    plan, second = launch(store, ids, setting="cot", repeats=2)
    assert plan.projection["cached"] == 3
    assert plan.projection["cached_from"] == {first.run_id: 3}
    assert first.run_id in plan.projection["cache_text"]
    assert len(chats(fake)) == 3                       # repeat 1 only
    results = store.run_results(second.run_id)
    cached = [r for r in results if r["cached"]]
    assert {r["repeat"] for r in cached} == {0} and len(cached) == 3
    assert all(r["cached_from"] == first.run_id and r["latency"] is None for r in cached)
    assert all(r["latency"] is not None for r in results if not r["cached"])
    assert second.totals["cached_from"] == {first.run_id: 3}
    panel = xr.progress_html(store, second.run_id)
    assert f"3 replies taken from the cache, made by run {first.run_id}" in panel
    rows = xr.responses(store, second.run_id)
    assert [row[7] for row in rows if row[2] == 0] == ["cached"] * 3
    assert [row[9] for row in rows if row[2] == 0] == [f"run {first.run_id}"] * 3
    # and a 3-sample run takes only the (repeat 0, sample 0) draws of a 3-repeat run
    _, repeats = launch(store, ids, setting="direct", repeats=3)
    _, samples = launch(store, ids, setting="direct", samples=3)
    assert samples.totals["cached_from"] == {repeats.run_id: 3}
    assert {(r["repeat"], r["sample"]) for r in store.run_results(samples.run_id)
            if r["cached"]} == {(0, 0)}


def test_a_run_without_the_cache_sends_every_request_and_resumes_alike(store, fake,
                                                                       make_item):
    for n in range(3):
        store.create_item(make_item(f"demo/Q_{n}"), "t")
    ids = [f"demo/Q_{n}" for n in range(3)]
    _, first = launch(store, ids, setting="direct")
    fake.reset_log()
    plan, fresh = launch(store, ids, execution={"use_cache": False}, setting="direct")
    assert plan.projection["cached"] == 0 and plan.projection["to_send"] == 3
    assert "not used" in plan.projection["cache_text"]
    assert len(chats(fake)) == 3 and fresh.totals["cached"] == 0
    assert store.get_run(fresh.run_id)["execution"]["use_cache"] is False
    # a no-cache run's pending work is not covered by the cache (a dead endpoint stops it)
    plan = plan_run(store, RunConfig(endpoint="fake", ids=ids, setting="direct"),
                    Execution(use_cache=False))
    waiting = create_run(store, plan)
    assert pending_coverage(store, waiting).cached == 0
    assert pending_coverage(store, create_run(store, plan_run(
        store, RunConfig(endpoint="fake", ids=ids, setting="direct")))).cached == 3
    fake.reset_log()
    resumed = execute(store, waiting)
    assert resumed.status == "done" and len(chats(fake)) == 3
    assert resumed.totals["cached"] == 0


def test_the_command_line_says_whose_replies_a_run_took(tmp_path, server):
    server.configure(reset=True)
    db = tmp_path / "draws.db"
    assert cli("import", "--db", db, "--format", "jsonl", DEMO).returncode == 0
    assert cli("endpoint", "add", "fake", "--base-url", server.url, "--model", "fake-vlm",
               "--db", db).returncode == 0
    first = cli("run", "--db", db, "--endpoint", "fake", "--setting", "direct",
                "--ids", "demo/bus-stop-wait,demo/parcel-fee-sms")
    lines = first.stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if "(config " in line)
    summary = next(i for i, line in enumerate(lines) if ": done " in line)
    assert header < summary, first.stdout                 # the header first, on stdout
    assert lines[summary + 1] == "no reply taken from the cache"
    old = json.loads(cli("runs", "--db", db, "--json").stdout)[0]["id"]
    second = cli("run", "--db", db, "--endpoint", "fake", "--setting", "direct",
                 "--ids", "demo/bus-stop-wait,demo/parcel-fee-sms", "--repeats", "2")
    assert f"made by run {old} (2): those draws are that run's" in second.stdout
    [listed] = [r for r in json.loads(cli("runs", "--db", db, "--json").stdout)
                if r["id"] != old]
    new = listed["id"]
    shown = json.loads(cli("runs", "--db", db, "--show", new).stdout)
    assert shown == listed                                 # one shape, counts included
    assert shown["counts"]["total"] == 4
    assert shown["cache"]["cached_from"] == {old: 2} and shown["cache"]["use_cache"]
    assert cli("score", "--db", db, "--run", new).returncode == 0
    report = cli("report", "--db", db, "--run", new).stdout
    assert "(mean ± SD of the 2 per-repeat accuracies)" in report
    assert (f"repeat 0: 2 of 2 from run {old}; repeat 1: none") in report
    again = cli("run", "--db", db, "--endpoint", "fake", "--setting", "direct",
                "--ids", "demo/bus-stop-wait,demo/parcel-fee-sms", "--no-cache", "--json")
    assert json.loads(again.stdout)["cache"] == {
        "use_cache": False, "cached": 0, "cached_from": {},
        "text": "cache not used: every reply was sent by this run"}


def test_replies_cached_before_sources_were_kept_are_traced_to_their_run(tmp_path):
    """Migration 0013 on a database written before it: each cache entry gets the run that
    paid for it, each cached result that run, and no cached result keeps a latency."""
    db = sqlite_utils.Database(tmp_path / "old.db")
    before = [m for m in MIGRATIONS if m[0] < "0013"]
    apply_migrations(db, before)
    db.execute("INSERT INTO model_runs (id, config_id, config, endpoint, status, created_at) "
               "VALUES ('old', 'c', '{}', 'e', 'done', '2026-01-01T00:00:00Z'), "
               "('new', 'c', '{}', 'e', 'done', '2026-01-02T00:00:00Z')")
    db.execute("INSERT INTO run_work (id, run_id, phase, item_id, repeat, sample) VALUES "
               "(1, 'old', 'answer', 'i', 0, 0), (2, 'new', 'answer', 'i', 0, 0)")
    db.execute("INSERT INTO run_responses (work_id, run_id, status, latency, cached, "
               "cache_key, created_at) VALUES (1, 'old', 'ok', 1.5, 0, 'k', 't1'), "
               "(2, 'new', 'ok', 1.5, 1, 'k', 't2')")
    db.execute("INSERT INTO response_cache (key, text, created_at) VALUES ('k', 'A', 't1')")
    db.conn.commit()
    db.conn.close()
    store = Store.open(tmp_path / "old.db")
    try:
        assert store.cache_get("k")["run_id"] == "old"
        [old], [new] = store.run_results("old"), store.run_results("new")
        assert old["latency"] == 1.5 and new["latency"] is None
        assert new["cached_from"] == "old" and store.run_cache_sources("new") == {"old": 1}
    finally:
        store.close()
