"""Researcher review (resfix24b): `runs --show` said "18 sent, 0 of them retries; 4 errors
retried (their 4 attempts counted in the requests, retries, tokens and cost)": the retries
counted only the attempts within a call after its first, so the attempts of the errors sent
again were in no retry. Now every request but the one that made each result kept is a
retry (requests = results sent + retries), and the words say where those attempts are.
Real SQLite, real HTTP to tests/openai_server.py, the real CLI."""
import json

from tests.test_runner_cli import cli
from tests.test_runner_engine import chats, fake, items, launch, server  # noqa: F401


def _resumed(store, fake, ids, attempts: int) -> tuple[dict, str]:
    """Every item fails `attempts` times, then the run is resumed with its errors sent
    again (all answered): (`runs --show --json`'s totals, `runs --show`'s text)."""
    fake.configure(script=["500"] * (len(ids) * attempts))
    run_id = launch(store, ids, setting="direct", execution={"max_attempts": attempts}).run_id
    before = store.get_run(run_id)["totals"]
    assert (before["requests"], before["retries"]) == (len(ids) * attempts,
                                                       len(ids) * (attempts - 1))
    db = str(store.path)
    store.db.conn.close()
    resumed = cli("run", "--db", db, "--resume", run_id, "--retry-errors", "--json")
    assert resumed.returncode == 0, resumed.stderr
    shown = cli("runs", "--db", db, "--show", run_id, "--json").stdout
    return json.loads(shown)["totals"], cli("runs", "--db", db, "--show", run_id).stdout


def test_the_attempts_of_errors_sent_again_are_retries(store, fake, items):
    t, text = _resumed(store, fake, items(4), attempts=1)      # one attempt each, failing
    assert len(chats(fake)) == 8
    assert t["ok"] == 4 and t["requests"] == 8 and t["retries"] == 4, t
    assert t["requests"] == t["ok"] + t["retries"]            # they add up
    assert "8 sent, 4 of them retries; 4 errors sent again (their 4 earlier attempts among " \
           "the requests and retries, and in the tokens and cost)" in text, text
    assert "0 of them retries" not in text
