"""The run commands' human output: `runs --show` printed one raw JSON blob without --json;
`run --dry-run` planned on an endpoint where nothing listens without a word (the real run
refused at once). Real CLI, real fake-server process, real SQLite file."""
from __future__ import annotations

import json

from tests import test_runner_cli as runner_cli
from tests.test_runner_cli import cli

server, template, db = runner_cli.server, runner_cli.template, runner_cli.db   # its fixtures

IDS = "demo/alcove-furniture,demo/bakery-breakfast-deal"


def test_runs_show_is_a_readable_summary_and_json_only_with_json(db):
    ran = cli("run", "--db", db, "--endpoint", "fake", "--setting", "cot", "--ids", IDS,
              "--json")
    run_id = json.loads(ran.stdout)["id"]
    shown = cli("runs", "--db", db, "--show", run_id)
    assert shown.returncode == 0, shown.stderr
    assert not shown.stdout.lstrip().startswith("{")
    lines = dict(line.split(":", 1) for line in shown.stdout.splitlines() if ":" in line)
    assert lines["run"].strip() == run_id and lines["status"].strip() == "done"
    assert "setting CoT" in lines["setup"] and "clues none" in lines["setup"]
    assert "model fake-vlm" in lines["endpoint"]
    assert "2/2" in lines["progress"] and "= 2" in lines["progress"]
    as_json = json.loads(cli("runs", "--db", db, "--show", run_id, "--json").stdout)
    assert as_json["id"] == run_id and as_json["counts"]["total"] == 2
    assert "finished" in lines
    # a paused run's stop time is no "finished" beside "status: paused"
    from store import Store
    with Store.open(db) as store:
        store.finish_run(run_id, None, "paused", "paused by test", {"done": 1})
    paused = dict(line.split(":", 1) for line in cli("runs", "--db", db, "--show",
                                                     run_id).stdout.splitlines() if ":" in line)
    assert paused["status"].strip().startswith("paused") and "finished" not in paused \
        and "stopped" in paused


def test_a_dry_run_on_a_dead_endpoint_warns_that_the_run_would_not_start(db):
    """Nothing listens at the endpoint: the real run refuses at once (exit 2); the dry run
    planned as usual and said nothing. It now tests the endpoint too, warns, and exits 0."""
    from tests.openai_server import free_port

    dead = f"http://127.0.0.1:{free_port()}/v1"
    assert cli("endpoint", "add", "dead", "--base-url", dead, "--model", "fake-vlm",
               "--db", db).returncode == 0
    ask = ("run", "--db", db, "--endpoint", "dead", "--setting", "cot", "--ids", IDS,
           "--no-cache")
    planned = cli(*ask, "--dry-run")
    assert planned.returncode == 0, planned.stderr
    [warning] = [line for line in planned.stdout.splitlines()
                 if line.startswith("warning: the run would not start: ")]
    assert "cannot connect" in warning and "2 would need the endpoint" in warning
    as_json = json.loads(cli(*ask, "--dry-run", "--json").stdout)
    assert as_json["would_start"] is False and "would not start" in as_json["warnings"][0]
    assert cli(*ask).returncode == 2                     # the real run: refused, as before
    fine = json.loads(cli("run", "--db", db, "--endpoint", "fake", "--setting", "cot",
                          "--ids", IDS, "--dry-run", "--json").stdout)
    assert fine["would_start"] is True and not fine["warnings"]
