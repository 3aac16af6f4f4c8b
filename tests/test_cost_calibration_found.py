"""A plan's token estimate finds the usage the model recorded: the plan of a CoT run said
"has no recorded usage to calibrate on yet" and projected 350 completion tokens a request a
priori beside completed runs of the same model whose replies were a few tokens, because the
usage was looked up by the endpoint's URL only (a second endpoint, or one edited to a new
address, found none) among the latest runs whether or not they had sent anything (a run the
cache answered whole pushed the usage out). Real CLI, fake server process, SQLite file."""
from __future__ import annotations

import json
import re
import time

from store import runner_work
from tests import test_runner_cli as runner_cli
from tests.test_runner_cli import cli

server, template, db = runner_cli.server, runner_cli.template, runner_cli.db   # its fixtures

IDS = "demo/alcove-furniture,demo/bakery-breakfast-deal,demo/evening-crescent"


def projected(db, endpoint: str, *more) -> dict:
    done = cli("run", "--db", db, "--endpoint", endpoint, "--setting", "cot", "--ids", IDS,
               "--dry-run", "--json", "--no-cache", *more)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["projection"]


def test_the_same_model_at_another_url_calibrates_the_plan(db, server):
    other = server.url.replace("127.0.0.1", "localhost")     # the same server, another URL
    assert cli("endpoint", "add", "again", "--base-url", other, "--model", "fake-vlm",
               "--db", db).returncode == 0
    assert projected(db, "again")["completion_tokens"] == 3 * 1024   # nothing recorded: bound
    ran = cli("run", "--db", db, "--endpoint", "fake", "--setting", "cot", "--ids", IDS,
              "--json")
    billed = json.loads(ran.stdout)["totals"]["completion_tokens"]
    plan = projected(db, "again")
    assert plan["completion_tokens"] == billed < 3 * 20, plan["basis"]
    assert re.match(r"(partly )?calibrated on the usage fake-vlm reported at another endpoint "
                    r"URL \(none recorded at this one\)", plan["basis"]), plan["basis"]
    assert re.match(r"(partly )?calibrated on the usage fake-vlm's endpoint reported",
                    projected(db, "fake")["basis"])


def test_a_run_answered_from_the_cache_does_not_hide_the_usage(db, monkeypatch):
    monkeypatch.setattr(runner_work, "USAGE_RUNS", 1)
    for _ in range(2):    # the second takes every reply from the cache: it sent nothing
        assert cli("run", "--db", db, "--endpoint", "fake", "--setting", "cot", "--ids",
                   IDS).returncode == 0
        time.sleep(1.1)   # runs are ordered by their creation time, to the second
    plan = projected(db, "fake")
    assert "calibrated on the usage" in plan["basis"] and plan["completion_tokens"] < 3 * 20
