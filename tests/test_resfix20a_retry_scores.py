"""A resume with --retry-errors replaces error responses: the verdicts scored on the old
replies must go with them (same transaction), and the tables must say to score again.
Real subprocess-free CLI, real SQLite file, real HTTP to the fake OpenAI server."""
import json
import sqlite3

from tests.test_runner_cli import cli, db, server, template  # noqa: F401 (fixtures)


def test_retried_errors_drop_their_old_verdicts_and_the_report_says_score_again(db, server):
    server.configure(script=["400"] * 9)
    first = cli("run", "--db", db, "--endpoint", "fake", "--setting", "cot", "--json")
    assert first.returncode in (0, 1), first.stderr
    run_id = json.loads(first.stdout)["id"]
    assert cli("score", "--db", db, "--run", run_id, "--protocol", "general").returncode == 0
    before = cli("report", "--db", db, "--run", run_id)
    assert "69.23" in before.stdout, before.stdout
    server.configure(script=[])
    resumed = cli("run", "--db", db, "--resume", run_id, "--retry-errors", "--json")
    assert resumed.returncode == 0, resumed.stderr
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT count(*) FROM run_responses WHERE status = 'error'"
                           ).fetchone()[0] == 0
        # no verdict scored on a reply that is gone is kept
        assert con.execute("SELECT count(*) FROM scores WHERE value = 'error'").fetchone()[0] == 0
        assert con.execute("SELECT count(*) FROM scores").fetchone()[0] == 5
        assert con.execute("SELECT n FROM scorings").fetchone()[0] == 5
    after = cli("report", "--db", db, "--run", run_id)
    assert after.returncode == 0, after.stderr
    assert "69.23" not in after.stdout, after.stdout
    text = " ".join((after.stdout + after.stderr).split())
    assert "9 answers came after its general scoring by offline" in text, text
    assert "sent again" in text and "score it again" in text, text
    # scoring again counts them all
    assert cli("score", "--db", db, "--run", run_id, "--protocol", "general").returncode == 0
    again = cli("report", "--db", db, "--run", run_id)
    assert "came after its" not in again.stdout + again.stderr
