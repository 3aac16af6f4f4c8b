"""What Cancel means, said the same on the page and in the CLI, and true: `runs --cancel`'s
help said "stop for good" while the page's confirmation said Resume goes on with the items
not done; a cancelled run is resumed (real `app.py` processes, real HTTP to
tests/openai_server.py, real SQLite)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from runner.planning import create_run
from store import Store
from tests.live_server import build_ui_db
from tests.openai_server import start_server
from tests.test_experiments_handlers import form
from ui import experiments_endpoints as xe
from ui import experiments_handlers as xh
from ui import experiments_steering as xs

ROOT = Path(__file__).resolve().parent.parent
SAID = "the requests in flight are dropped (their replies are not recorded)"
STILL = "can still send the items not done"


def app(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "app.py"), *args], capture_output=True,
                          text=True, cwd=ROOT, env={**os.environ, **(env or {})}, timeout=120)


def test_the_cli_help_and_the_page_say_the_same_of_cancel():
    helped = " ".join(app("runs", "--help").stdout.split())
    assert "for good" not in helped
    assert SAID in helped and f"`run --resume RUN` {STILL}" in helped, helped
    confirm = " ".join((ROOT / "assets" / "confirm.js").read_text().split())
    asked = confirm.split('"run-cancel"')[1][:400]          # its string pieces, joined
    words = asked.replace('" + "', "").replace('` + "', "")
    assert "It stops now: " + SAID in words and f"Resume {STILL}" in words, words


def test_a_cancelled_run_is_resumed_to_the_end(tmp_path):
    server = start_server()
    try:
        build_ui_db(tmp_path / "ui.db")
        with Store.open(tmp_path / "ui.db") as store:
            xe.save_endpoint(store, "fake", server.url, "fake-vlm", None, 4, None)
            run_id = create_run(store, xh.plan(store, form()), author="local")
            assert "now cancelled" in xs.control(store, run_id, "cancel")
        out = app("run", "--db", str(tmp_path / "ui.db"), "--resume", run_id, "--json")
        assert out.returncode == 0, out.stderr
        outcome = json.loads(out.stdout)
        assert outcome["status"] == "done" and outcome["totals"]["done"] == 3
    finally:
        server.stop()

