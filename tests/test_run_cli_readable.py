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
    assert "setting cot" in lines["setup"] and "clues none" in lines["setup"]
    assert "model fake-vlm" in lines["endpoint"]
    assert "2/2" in lines["progress"] and "= 2" in lines["progress"]
    as_json = json.loads(cli("runs", "--db", db, "--show", run_id, "--json").stdout)
    assert as_json["id"] == run_id and as_json["counts"]["total"] == 2
