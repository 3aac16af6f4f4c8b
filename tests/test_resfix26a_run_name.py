"""`run --name/--note`: a run started from the command line is named as it starts (the
README said "a run gets a name and a note", and `run` had no option for either: naming took
a `runs --rename` afterwards), under `runs --rename`'s rules (domain/limits.py), checked
before the run is created. Real argument parsing, store and HTTP to tests/openai_server.py."""
from __future__ import annotations

import json

from domain.limits import MAX_RUN_NAME, MAX_RUN_NOTE
from tests import test_runner_cli as base
from tests.test_runner_cli import chats, cli

server, template, db = base.server, base.template, base.db    # its fixtures: the demo items


def test_run_takes_a_name_and_a_note_under_the_rename_rules(db, server):
    done = cli("run", "--db", db, "--endpoint", "fake", "--setting", "direct", "--ids",
               "demo/alcove-furniture", "--name", "  direct\n baseline ", "--note",
               " first look ", "--json")
    assert done.returncode == 0, done.stderr
    run_id = json.loads(done.stdout)["id"]
    [shown] = json.loads(cli("runs", "--db", db, "--json").stdout)
    assert (shown["id"], shown["name"], shown["note"]) == (run_id, "direct baseline",
                                                          "first look")
    # the name picks the run where an id does, as a renamed run's
    assert json.loads(cli("runs", "--db", db, "--show", "direct baseline", "--json")
                      .stdout)["id"] == run_id

    sent = len(chats(server))
    for option, limit in (("--name", MAX_RUN_NAME), ("--note", MAX_RUN_NOTE)):
        refused = cli("run", "--db", db, "--endpoint", "fake", "--setting", "direct", "--ids",
                      "demo/alcove-furniture", option, "x" * (limit + 1))
        assert refused.returncode == 2 and f"at most {limit} characters" in refused.stderr
    assert len(json.loads(cli("runs", "--db", db, "--json").stdout)) == 1   # none created
    assert len(chats(server)) == sent

    resumed = cli("run", "--db", db, "--resume", run_id, "--name", "other")
    assert resumed.returncode == 2 and "runs --rename" in resumed.stderr
    helped = cli("run", "--help").stdout
    assert "--name NAME" in helped and "--note NOTE" in helped
