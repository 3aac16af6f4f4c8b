"""Reviewer round 28: a resume forgot the requests and retries sent before it. A run whose
endpoint went down ended failed with 80 retries in its totals; resumed, its totals said 0
retries and only the requests of the results kept, and `runs --show` "N sent, 0 of them
retries": the live counters started from the results recorded alone. They start from the
run's last snapshot too now, so what was sent and kept in no result stays with the run.
Real SQLite, real HTTP to tests/openai_server.py, the real CLI."""
import json

from runner.engine import execute
from store import Store
from tests.test_runner_cli import cli
from tests.test_runner_engine import chats, fake, items, launch, server  # noqa: F401
from ui import experiments_runs as xr


def _failed_with_the_endpoint_down(store, fake, ids) -> str:
    """One item: a 429, a 500, then a 401 (the endpoint is down: the run fails and the item
    stays pending, its three attempts in no result)."""
    fake.configure(script=["429", "500", "401"], retry_after=0)
    outcome = launch(store, ids, setting="direct", execution={"max_attempts": 5})
    assert outcome.status == "failed", outcome.message
    t = store.get_run(outcome.run_id)["totals"]
    assert (t["requests"], t["retries"], t["rate_limited"], t["done"]) == (3, 2, 1, 0), t
    return outcome.run_id


def test_a_cli_resume_keeps_what_was_sent_before_it(store, fake, items):
    run_id = _failed_with_the_endpoint_down(store, fake, items(1))
    db = str(store.path)
    store.db.conn.close()
    resumed = cli("run", "--db", db, "--resume", run_id, "--json")
    assert resumed.returncode == 0, resumed.stderr
    assert len(chats(fake)) == 4                         # what the endpoint was sent, in all
    t = json.loads(cli("runs", "--db", db, "--show", run_id, "--json").stdout)["totals"]
    assert t["ok"] == 1 and t["requests"] == 4, t
    # the three sent for the item before are retries of it: requests = results + retries
    assert t["retries"] == 3 and t["rate_limited"] == 1, t
    text = cli("runs", "--db", db, "--show", run_id).stdout
    assert "4 sent, 3 of them retries" in text, text
    again = Store.open(db)
    try:
        panel, _ = xr.progress(again, run_id)
    finally:
        again.db.conn.close()
    assert ">3<" in panel.split("retries", 1)[1][:80], panel        # the retries metric


def test_totals_add_up_over_several_resumes(store, fake, items):
    ids = items(1)
    run_id = _failed_with_the_endpoint_down(store, fake, ids)
    fake.configure(script=["500", "401"])                # down again, two more attempts
    assert execute(store, run_id).status == "failed"
    t = store.get_run(run_id)["totals"]
    assert (t["requests"], t["retries"], t["rate_limited"]) == (5, 4, 1), t
    assert execute(store, run_id).status == "done"
    t = store.get_run(run_id)["totals"]
    assert (t["requests"], t["retries"], t["ok"]) == (6, 5, 1) == (len(chats(fake)), 5, 1), t


def test_a_resume_with_a_budget_counts_what_was_spent_before(store, fake, items):
    """The budget on resume is measured against the run's whole spend, not this
    execution's: a run stopped at its budget and resumed with the same one sends nothing."""
    ids = items(1)
    store.set_price("fake-vlm", 1000.0, 0.0)             # ~$0.1 per request here
    first = launch(store, ids, setting="direct", samples=20, execution={
        "budget": 0.35, "concurrency": 1})
    assert first.status == "stopped" and 0 < first.totals["done"] < 20
    sent = len(chats(fake))
    spent = first.totals["cost"]
    again = execute(store, first.run_id)                 # its execution keeps the budget
    assert again.status == "stopped" and "budget" in again.message
    assert len(chats(fake)) == sent and again.totals["cost"] == spent
    assert again.totals["requests"] == first.totals["requests"]
