"""Reviewer round 29: `run --resume` silently reset `--max-attempts` and `--timeout` to
their argparse defaults (6, 120 s) while it kept the concurrency, streaming and deadline:
the flags' defaults overrode the run's stored settings. A resume keeps every stored
execution setting unless its flag is given (the page's Resume is this same command).
Real SQLite, real HTTP to tests/openai_server.py, the real CLI."""
import json

from store import Store
from tests.test_runner_cli import cli
from tests.test_runner_engine import fake, items, server  # noqa: F401

KEPT = {"max_attempts": 2, "request_timeout": 7.0, "concurrency": 2, "stream": True,
        "deadline": 60.0, "use_cache": False, "budget": None}


def _execution(db: str, run: str) -> dict:
    with Store(db) as store:
        return store.get_run(run)["execution"]


def test_a_resume_keeps_every_stored_execution_setting(store, fake, items):
    ids = items(2)
    db = str(store.path)
    store.db.conn.close()
    made = cli("run", "--db", db, "--endpoint", "fake", "--setting", "direct", "--ids",
               ",".join(ids), "--concurrency", 2, "--max-attempts", 2, "--timeout", 7,
               "--stream", "--deadline", 60, "--no-cache", "--name", "exec-reset", "--json")
    assert made.returncode == 0, made.stderr
    run_id = json.loads(made.stdout)["id"]
    first = _execution(db, run_id)
    assert {k: first[k] for k in KEPT} == KEPT, first
    resumed = cli("run", "--db", db, "--resume", "exec-reset", "--json")
    assert resumed.returncode == 0, resumed.stderr
    assert _execution(db, run_id) == first              # nothing reset, nothing changed
    # a flag given on resume changes its setting, and only it
    again = cli("run", "--db", db, "--resume", run_id, "--max-attempts", 3, "--json")
    assert again.returncode == 0, again.stderr
    assert _execution(db, run_id) == {**first, "max_attempts": 3}
    again = cli("run", "--db", db, "--resume", run_id, "--timeout", 9, "--json")
    assert _execution(db, run_id) == {**first, "max_attempts": 3, "request_timeout": 9.0}


def test_a_new_run_still_gets_the_default_attempts_and_timeout(store, fake, items):
    ids = items(1)
    db = str(store.path)
    store.db.conn.close()
    made = cli("run", "--db", db, "--endpoint", "fake", "--setting", "direct", "--ids",
               ids[0], "--json")
    assert made.returncode == 0, made.stderr
    execution = _execution(db, json.loads(made.stdout)["id"])
    assert (execution["max_attempts"], execution["request_timeout"]) == (6, 120.0)
