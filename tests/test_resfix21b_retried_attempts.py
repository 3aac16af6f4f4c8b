"""A resume with 'retry errors' deletes the error rows to send them again; what was sent for
them (requests, retries, 429s, tokens, cost) must stay counted: the run's totals, the
progress panel and `runs --show` (text and --json). Real SQLite, real HTTP to
tests/openai_server.py, the real CLI."""
import json

from store import Store
from tests.test_runner_cli import cli
from tests.test_runner_engine import chats, fake, items, launch, server  # noqa: F401
from ui import experiments_runs as xr


def test_retried_errors_keep_their_attempts_in_the_run_totals(store, fake, items):
    ids = items(3)
    fake.configure(script=["500"] * 9)          # 3 items x 3 attempts, all failing
    first = launch(store, ids, setting="direct", execution={"max_attempts": 3})
    totals = store.get_run(first.run_id)["totals"]
    assert totals["error"] == 3 and totals["requests"] == 9 and totals["retries"] == 6
    db = str(store.path)
    store.db.conn.close()
    resumed = cli("run", "--db", db, "--resume", first.run_id, "--retry-errors", "--json")
    assert resumed.returncode == 0, resumed.stderr
    assert len(chats(fake)) == 12                 # what the endpoint was sent, in all
    shown = cli("runs", "--db", db, "--show", first.run_id, "--json")
    t = json.loads(shown.stdout)["totals"]
    assert t["ok"] == 3 and t["error"] == 0
    assert t["requests"] == 12 and t["retries"] == 9, t    # the 9 first attempts too (resfix24b)
    assert t["retried"]["results"] == 3 and t["retried"]["requests"] == 9, t
    text = cli("runs", "--db", db, "--show", first.run_id).stdout
    assert "12 sent, 9 of them retries" in text, text
    assert "3 errors sent again (their 9 earlier attempts among the requests and retries" \
        in text, text
    again = Store.open(db)
    try:
        panel, _ = xr.progress(again, first.run_id)
    finally:
        again.db.conn.close()
    assert ">9<" in panel.split("retries", 1)[1][:80], panel      # the retries metric
    assert "3 errors sent again (their 9 earlier attempts" in panel, panel
    counts = json.loads(shown.stdout)["counts"]
    assert counts["ok"] == counts["total"] == 3                  # the rows add up as before


def test_a_second_retry_adds_to_the_first(store, fake, items):
    ids = items(2)
    fake.configure(script=["500"] * 4)
    first = launch(store, ids, setting="direct", execution={"max_attempts": 2})
    assert store.delete_run_results(first.run_id, ("error",)) == 2
    fake.configure(script=["500"] * 4)
    from runner.engine import execute
    execute(store, first.run_id)
    assert store.delete_run_results(first.run_id, ("error",)) == 2
    execute(store, first.run_id)
    t = store.get_run(first.run_id)["totals"]
    assert t["retried"]["results"] == 4 and t["retried"]["requests"] == 8
    assert t["requests"] == len(chats(fake)) == 10 and t["retries"] == 8
