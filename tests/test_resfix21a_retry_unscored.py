"""A resume that retried errors after the run was scored drops the old verdicts of the
replies it replaced: their items dropped out of the table ("8 items … Unscored 0" of a run
that holds 14 answered items), only a note saying so. Now they count in the Unscored column,
so n + Unscored is the run's items with answers, in `report`, its JSON, the tables and the
Results page, and the note stays. Real CLI, real SQLite file, real HTTP to the fake
OpenAI server."""
import json

from scoring import tables
from store.core import Store
from tests.scoring_helpers import page_text
from tests.test_runner_cli import cli, db, server, template  # noqa: F401 (fixtures)
from ui import results_handlers as h


def test_items_answered_after_the_scoring_count_as_unscored(db, server):
    server.configure(script=["400"] * 9)
    first = cli("run", "--db", db, "--endpoint", "fake", "--setting", "cot", "--json")
    assert first.returncode in (0, 1), first.stderr
    run_id = json.loads(first.stdout)["id"]
    assert cli("score", "--db", db, "--run", run_id, "--protocol", "general").returncode == 0
    server.configure(script=[])
    resumed = cli("run", "--db", db, "--resume", run_id, "--retry-errors", "--json")
    assert resumed.returncode == 0, resumed.stderr
    report = cli("report", "--db", db, "--run", run_id, "--json")
    assert report.returncode == 0, report.stderr
    found = json.loads(report.stdout)
    overall = found["overall"]
    assert found["not_scored"] == 9
    store = Store.open(db)
    answered = store.db.conn.execute(
        "SELECT count(DISTINCT w.item_id) FROM run_responses r JOIN run_work w ON "
        "w.id = r.work_id WHERE w.run_id = ? AND w.phase = 'answer'", [run_id]).fetchone()[0]
    assert answered == 14
    # 9 answered after the scoring, 1 left unscored by the scoring itself
    assert (overall["n"], overall["unscored"]) == (4, 10), overall
    text = " ".join(cli("report", "--db", db, "--run", run_id).stdout.split())
    assert "9 answers came after its general scoring by offline" in text, text
    table = tables.main_table(store, [run_id])
    row = table.rows[0]
    assert (row["n"], row["unscored"]) == (4, 10), row
    assert "9 answers came after its general scoring" in table.notes
    shown = page_text(h.show_results(store, [run_id])["rules"])
    assert "9 answers came after its general scoring" in shown
