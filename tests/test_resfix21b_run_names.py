"""Runs are named as the tables name them everywhere: a clue source in the plan's warning and
in the reasons of the rows it left unasked (not by id); the short id the pickers show works
in every CLI option taking a run; the image mode titled ('text only'); the preview says
which request it shows in words; the endpoints list invites only those who may edit it.
Real SQLite, real HTTP to tests/openai_server.py, the real CLI."""
import json

import pytest

from runner.config import Execution, RunConfig
from runner.planning import plan_run
from runner.run_refs import resolve_run
from scoring.compared import run_label
from store import ValidationError
from tests.test_runner_cli import cli
from tests.test_source_clues import CLUED, endpoint_and_items, launch, server  # noqa: F401


def test_a_clue_source_is_named_by_its_name_in_the_plan_and_the_reasons(store, server,
                                                                        make_item):
    from ui.experiments_handlers import RUN_FIELDS
    from ui.experiments_preview import preview
    from ui.inspect_view import reason_named

    ids = endpoint_and_items(store, server, make_item, "N", 2)
    server.configure(reset=True, replies={"demo/N_0": CLUED}, default_reply="Answer: B")
    source = launch(store, ids, setting="structured")
    store.label_run(source.run_id, name="a-guided")
    plan = plan_run(store, RunConfig(endpoint="fake", ids=ids, setting="cot",
                                     clues=f"run:{source.run_id}"), Execution())
    [warning] = [w for w in plan.warnings if "has no clues" in w]
    assert warning.startswith("run a-guided has no clues for 1 of these 2"), warning
    assert source.run_id not in warning
    outcome = launch(store, ids, setting="cot", clues=f"run:{source.run_id}")
    [row] = [r for r in store.run_results(outcome.run_id) if r["status"] == "error"]
    assert row["reason"].startswith("no clues from run " + source.run_id)   # as stored
    shown = reason_named(store, row["reason"])
    assert shown.startswith("no clues from run a-guided for this item ("), shown
    assert "(deleted)" not in shown and source.run_id not in shown
    # the preview's header says which request it shows in words
    form = dict.fromkeys(RUN_FIELDS)
    form.update(endpoint="fake", setting="cot", clues="none", image_mode="full", samples=1,
                repeats=1, dataset="(all)", flagged="all", image_quality=90, preset="none",
                ids=", ".join(ids))
    summary = preview(store, form, ids[0])["summary"]
    assert "(the answer request)" in summary and "phase answer" not in summary, summary


def test_every_cli_option_taking_a_run_takes_its_short_id(store, server, make_item):
    ids = endpoint_and_items(store, server, make_item, "S", 2)
    server.configure(reset=True, default_reply="Answer: A")
    first = launch(store, ids, setting="cot").run_id
    second = launch(store, ids, setting="direct").run_id
    if first[-4:] == second[-4:]:
        pytest.skip("the two random tails met")
    db = str(store.path)
    assert cli("score", "--db", db, "--run", first[-4:]).returncode == 0
    assert cli("score", "--db", db, "--run", second[-4:]).returncode == 0
    done = cli("table", "--db", db, "--runs", f"{first[-4:]},{second[-4:]}", "--format", "csv")
    assert done.returncode == 0, done.stderr
    shown = cli("runs", "--db", db, "--show", second[-4:], "--json")
    assert shown.returncode == 0 and json.loads(shown.stdout)["id"] == second
    report = cli("report", "--db", db, "--run", first[-4:])
    assert report.returncode == 0, report.stderr
    # a tail two runs share is refused, the candidates named
    run = store.get_run(first)
    twins = [f"20261207-134531-{first[-4:]}"]
    store.create_run(twins[0], run["config_id"], run["config"], run["execution"],
                     run["endpoint"], [("answer", ids[0], 0, 0, 1)], "t")
    store.label_run(twins[0], name="a-guided")
    with pytest.raises(ValidationError) as refused:
        resolve_run(store, first[-4:])
    assert first in str(refused.value) and f"{twins[0]} (a-guided)" in str(refused.value)
    code = cli("report", "--db", db, "--run", first[-4:])
    assert code.returncode == 2 and twins[0] in code.stderr and first in code.stderr
    assert resolve_run(store, "a-guided") == twins[0]           # a unique name still works


def test_the_image_mode_is_titled_in_table_labels():
    run = {"id": "r", "status": "done", "name": "", "totals": {},
           "config": {"setting": "clue_guided", "image_mode": "text_only",
                      "endpoint": {"model": "b"}}}
    assert run_label(run) == "b · Clue-guided CoT · text only"


def test_the_endpoints_list_invites_only_those_who_may_edit_it(store):
    from ui import access
    from ui.experiments_endpoints import list_label

    store.add_user("ada", "admin", "pw-ada-123456")
    store.add_user("res", "researcher", "pw-res-123456")
    admin = access.caller(store, "ada", True)
    researcher = access.caller(store, "res", True)
    assert list_label("endpoints", admin) == "Click a row to edit it"
    said = list_label("endpoints", researcher)
    assert "Click a row" not in said and "Only admin may edit these endpoints" in said
