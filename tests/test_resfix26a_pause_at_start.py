"""A pause asked in the first seconds of a run, before its process has started sending, is
honoured: the run never goes on to 'done' while the page said it paused (round-26 finding).
Real runner processes (`app.py run --resume ID`, started as the page starts them), real
HTTP to tests/openai_server.py, real SQLite."""
from __future__ import annotations

import json
import time

import pytest

from runner.background import log_path
from store import Store
from tests.live_server import build_ui_db
from tests.openai_server import start_server
from ui import experiments_endpoints as xe
from ui import experiments_handlers as xh
from ui import experiments_steering as xs
from tests.test_experiments_handlers import form as handlers_form


@pytest.fixture(scope="module")
def slow():
    server = start_server(latency=1.5)
    yield server
    server.stop()


@pytest.fixture
def store(tmp_path, monkeypatch, slow):
    monkeypatch.setenv("XP_SLOW_KEY", "sk-any")
    build_ui_db(tmp_path / "ui.db")
    store = Store.open(tmp_path / "ui.db")
    xe.save_endpoint(store, "slow", slow.url, "fake-vlm", "XP_SLOW_KEY", 4, None)
    yield store
    store.close()


def form() -> dict:
    return handlers_form(endpoint="slow", repeats=8)     # 24 requests, 4 at a time, 1.5 s each


def outcomes(store, run_id: str, count: int, timeout: float = 60.0) -> list[dict]:
    """The JSON outcomes the run's processes printed in its log, once there are `count`."""
    path = log_path(store.path.resolve(), run_id)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = [json.loads(line) for line in (path.read_text().splitlines()
                                               if path.exists() else [])
                 if line.startswith("{")]
        if len(found) >= count:
            return found
        time.sleep(0.2)
    raise AssertionError(f"run {run_id}: no outcome after {timeout} s: {store.get_run(run_id)}")


def chats(server) -> int:
    return len([r for r in server.requests() if r["path"].endswith("/chat/completions")])


def test_a_pause_asked_before_the_process_claims_the_run_is_honoured(store, slow):
    slow.reset_log()
    run_id = xh.start_run(store, form(), "local")["run_id"]
    total = store.run_work_count(run_id)
    said = xs.control(store, run_id, "pause")     # the process has not started sending yet
    assert said.startswith(f"Asked run {run_id} to pause"), said
    [outcome] = outcomes(store, run_id, 1)
    run = store.get_run(run_id)
    assert outcome["status"] == run["status"] == "paused", (outcome, run)
    assert run["control"] is None and run["owner"] is None
    assert chats(slow) < total and run["totals"]["done"] < total

    # the same at a resume: asked between the page's hand-over and the process's own claim
    said = xs.resume(store, run_id)
    assert "resumed in its own process" in said
    assert xs.control(store, run_id, "pause").startswith(f"Asked run {run_id} to pause")
    outcome = outcomes(store, run_id, 2)[1]
    assert outcome["status"] == store.get_run(run_id)["status"] == "paused"
    assert store.get_run(run_id)["totals"]["done"] < total
