"""A run's counters as the researcher reads them: every response status has its counter in
the Experiments panel, the CLI summary and `runs --json`, the three agree and add up to the
total, and "in flight" never exceeds the concurrency. Real server process, real SQLite file."""
import html
import json
import re

import pytest

from runner.config import Execution, RunConfig
from runner.engine import execute
from runner.planning import create_run, plan_run
from runner.totals import COUNTS
from store import Store
from tests.test_runner_cli import DEMO, cli
from tests.openai_server import start_server
from ui import experiments_runs as xr
from ui import experiments_steering as xs

# three of them get the scripted refusal, truncation and 400; frozen-puddle, unless scripted,
# a reply with no yes or no
IDS = ("demo/alcove-furniture,demo/bakery-breakfast-deal,demo/evening-crescent,"
       "demo/frozen-puddle,demo/pantry-shelf,demo/plant-growth-next")


@pytest.fixture(scope="module")
def server():
    with start_server() as handle:
        yield handle


@pytest.fixture
def db(tmp_path, server):
    server.configure(reset=True)
    server.reset_log()
    db = tmp_path / "counts.db"
    assert cli("import", "--db", db, "--format", "jsonl", DEMO).returncode == 0
    assert cli("endpoint", "add", "fake", "--base-url", server.url, "--model", "fake-vlm",
               "--concurrency", "1", "--db", db).returncode == 0
    return db


def summary_counts(stdout: str) -> dict:
    """The answer counters of the CLI's one-line summary ('run X: done  6/6  answers: ok 2
    error 1 ... = 6 (0 in flight)[; clue pass: ...]')."""
    line = [x for x in stdout.splitlines() if x.startswith("run ")][-1]
    answers = line.split("answers: ")[1].split("; clue pass:")[0]
    counts = {name.replace(" ", "_"): int(n) for name, n in
              re.findall(r"\b(not run|no source clue|[a-z_]+) (\d+)\b", answers)
              if name.replace(" ", "_") in COUNTS}
    counts["total"] = int(re.search(r"= (\d+)", answers).group(1))
    return counts


def panel_counts(db, run_id: str) -> dict:
    html = xr.progress_html(Store(db), run_id)
    return {name: int(n) for name, n in
            re.findall(r"data-count='(\w+)'>(?:[\w ]+ )?<b>(\d+)</b>", html)} | \
        {"total": int(re.search(r"data-count='total'>(\d+)<", html).group(1))}


def views(db, stdout: str) -> tuple[dict, dict, dict]:
    run = json.loads(cli("runs", "--db", db, "--json").stdout)[0]
    listed = {k: v for k, v in run["counts"].items() if k != "in_flight" and
              (k != "clue_pass" or v is not None)}
    return summary_counts(stdout), listed, panel_counts(db, run["id"])


def test_every_status_is_counted_alike_in_the_panel_the_summary_and_runs_json(db, server):
    server.configure(script=["refuse", "truncate", "400"],
                     replies={"puddle": "Hard to say from this angle."})
    done = cli("run", "--db", db, "--endpoint", "fake", "--setting", "direct", "--ids", IDS)
    assert done.returncode == 0, done.stderr
    summary, listed, panel = views(db, done.stdout)
    run_id = json.loads(cli("runs", "--db", db, "--json").stdout)[0]["id"]
    statuses = [r["status"] for r in Store(db).run_results(run_id)]
    tally = {name: statuses.count(name) for name in COUNTS} | {"total": 6}
    assert summary == listed == panel == tally
    assert tally["refused"] == tally["truncated"] == tally["error"] == 1  # the script's
    assert tally["pending"] == 0 and tally["ok"] + tally["unparsed"] == 3


def test_a_run_stopped_early_counts_what_was_not_run_and_still_adds_up(db, server):
    """A stopped run has nothing pending: the rows it never answered are "not run"."""
    server.configure(latency=0.4)
    stopped = cli("run", "--db", db, "--endpoint", "fake", "--setting", "direct",
                  "--dataset", "demo", "--deadline", "1")
    assert stopped.returncode == 3, stopped.stderr
    summary, listed, panel = views(db, stopped.stdout)
    assert summary == listed == panel
    assert 0 < summary["not_run"] < 14 and summary["pending"] == 0 and summary["total"] == 14
    assert sum(summary[name] for name in COUNTS) == 14


def test_a_cancelled_run_says_not_run_in_its_counters_as_in_its_message(db, server):
    """Cancelled before it ran: 'pending 6' beside '6 not run' was the panel's old say."""
    store = Store(db)
    plan = plan_run(store, RunConfig(endpoint="fake", setting="direct", ids=IDS.split(",")))
    run_id = create_run(store, plan)
    assert panel_counts(db, run_id)["pending"] == 6          # created: waiting to be sent
    assert "now cancelled" in xs.control(store, run_id, "cancel")
    run = json.loads(cli("runs", "--db", db, "--json").stdout)[0]
    assert run["message"] == "cancelled on request: 0 done, 0 failed, 6 not run = 6 work rows"
    panel = panel_counts(db, run_id)
    assert panel["pending"] == 0 and panel["not_run"] == 6 and panel["total"] == 6
    assert {k: v for k, v in run["counts"].items() if k in panel} == panel
    assert "not run <b>6</b>" in xr.progress_html(store, run_id)


def stored_items(store, make_item, prefix: str, n: int) -> list[str]:
    """The ids of `n` new items `prefix`_0, `prefix`_1, ... in the store."""
    for k in range(n):
        store.create_item(make_item(f"{prefix}_{k}"), "t")
    return [f"{prefix}_{k}" for k in range(n)]


def test_in_flight_never_exceeds_the_concurrency(store, server, make_item):
    """The dispatcher keeps up to twice the concurrency of tasks (the next requests wait for
    a slot); only those holding a slot are in flight."""
    server.configure(reset=True, latency=0.25)
    store.add_endpoint("fake", server.url, "fake-vlm", concurrency=3)
    ids = stored_items(store, make_item, "demo/F", 18)
    plan = plan_run(store, RunConfig(endpoint="fake", ids=ids, setting="direct"),
                    Execution(batch_interval=0.05))
    seen: list[int] = []
    outcome = execute(store, create_run(store, plan), items=plan.items,
                      on_progress=lambda t: seen.append(t["in_flight"]))
    assert outcome.status == "done" and outcome.totals["in_flight"] == 0
    assert max(seen) == 3, seen


def clue_counts(db, run_id: str) -> dict:
    html = xr.progress_html(Store(db), run_id)
    return {name: int(n) for name, n in re.findall(r"data-count='clue-(\w+)'>(?:[\w ]+ )?<b>(\d+)<",
                                                   html)} | \
        {"total": int(re.search(r"data-count='clue-total'>(\d+)<", html).group(1))}


def test_a_clue_pass_is_counted_apart_and_a_run_with_no_answer_has_failed(db, server):
    """clues=self where the first pass finds no clues: every answer row is an error. The
    clue pass's ok replies are no answers: each group adds up to its own total, and the run
    ends failed, not done."""
    server.configure(default_reply="Answer: A")        # a first pass that names no clue
    ran = cli("run", "--db", db, "--endpoint", "fake", "--setting", "cot", "--clues", "self",
              "--ids", IDS)
    assert ran.returncode == 1, ran.stdout
    run = json.loads(cli("runs", "--db", db, "--json").stdout)[0]
    assert run["status"] == "failed" and "every one of the 6 answer rows" in run["message"]
    why = ("6 × no clues from the first pass for this item (its reply listed no clue): "
           "the answer is asked with the clues injected, so it is not asked without any")
    shown = json.loads(cli("runs", "--db", db, "--show", run["id"], "--json").stdout)
    assert why in run["message"] and why in shown["message"] and why in ran.stderr + ran.stdout
    assert why in html.unescape(xr.progress_html(Store(db), run["id"]))
    store = Store(db)
    answers = [r["status"] for r in store.run_results(run["id"])]
    first = [r["status"] for r in store.run_results(run["id"], phase="clues")]
    assert answers == ["error"] * 6 and len(first) == 6
    answer_tally = {name: answers.count(name) for name in COUNTS} | {"total": 6}
    clue_tally = {name: first.count(name) for name in COUNTS} | {"total": 6}
    summary, listed, panel = views(db, ran.stdout)
    listed_clues = listed.pop("clue_pass")
    assert summary == listed == panel == answer_tally
    assert listed_clues == clue_counts(db, run["id"]) == clue_tally
    assert "clue pass: ok 0" in ran.stdout and "answers: ok 0" in ran.stdout
    assert clue_tally["unparsed"] == 6      # a clue pass is read for its clues, not an answer


def test_a_clue_pass_that_found_clues_is_ok_without_an_answer_line(db, server):
    """A first pass lists clues and no answer line: its replies were counted "unparsed"
    though their clues fed every answer."""
    server.configure(default_reply="Clues:\n1. a tiny price tag", replies={
        "Visual clues:\n1. a tiny price tag": "Answer: A"})
    ran = cli("run", "--db", db, "--endpoint", "fake", "--setting", "cot", "--clues", "self",
              "--ids", IDS)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    run = json.loads(cli("runs", "--db", db, "--json").stdout)[0]
    first = Store(db).run_results(run["id"], phase="clues")
    assert {r["status"] for r in first} == {"ok"} and len(first) == 6
    assert "clue pass: ok 6  error 0  no source clue 0  refused 0  truncated 0  unparsed 0" in ran.stdout


def test_an_unpriced_models_cost_is_unknown_at_every_moment_and_in_every_view(db, server):
    """No price for fake-vlm: before the first reply, while running and after a run that
    failed with no paid reply, the cost is unknown (null in JSON), never $0.0000."""
    server.configure(script=["400", "400"], latency=0.2)
    store = Store(db)
    plan = plan_run(store, RunConfig(endpoint="fake", setting="direct",
                                     ids=IDS.split(",")[:2]), Execution(batch_interval=0.05))
    seen: list[dict] = []
    outcome = execute(store, create_run(store, plan), items=plan.items, on_progress=seen.append)
    assert outcome.status == "failed" and seen and seen[0]["done"] == 0
    assert [t["cost"] for t in seen] == [None] * len(seen)
    [run] = json.loads(cli("runs", "--db", db, "--json").stdout)
    assert run["status"] == "failed" and run["totals"]["cost"] is None
    listed = cli("runs", "--db", db).stdout
    panel = xr.progress_html(Store(db), run["id"])
    [row] = xr.runs_table(Store(db))
    assert row[xr.RUN_HEADERS.index("cost $")] == "unknown"
    assert "$0.0000" not in listed + panel
    assert "unknown (no price)" in listed and "unknown (no price)" in panel


def test_a_cut_off_reply_is_recorded_without_a_guessed_answer():
    """A reply cut off by max_tokens ending "...per-100 g column\\n2" was recorded with the
    answer 2 (the last number: a fallback), shown in Experiments and Inspect, while every
    verdict read it as unparsed. It is read as scoring reads it: whole statements only."""
    from runner.outcomes import from_reply

    cut = {"text": "Looking at the label, per-100 g column\n2", "finish_reason": "length"}
    row = from_reply(1, cut, "numeric", [], cache_key="k", price_cost=None)
    assert row["status"] == "truncated" and row["answer"] is None
    whole = from_reply(1, {**cut, "finish_reason": "stop"}, "numeric", [], cache_key="k",
                       price_cost=None)
    assert whole["answer"] == "2"                    # a complete reply may end on its number
    stated = from_reply(1, {"text": "Answer: 12\nBecause the label", "finish_reason": "length"},
                        "numeric", [], cache_key="k", price_cost=None)
    assert stated["status"] == "truncated" and stated["answer"] == "12"


def test_the_panel_says_when_429s_lowered_the_slots(store, server, make_item):
    """After a 429 the limiter allows fewer slots: "in flight 1/4" read as a run using a
    quarter of its slots, nothing said of why."""
    server.configure(reset=True, script=["429"], retry_after=0)
    store.add_endpoint("fake", server.url, "fake-vlm", concurrency=4)
    ids = stored_items(store, make_item, "demo/L", 6)
    plan = plan_run(store, RunConfig(endpoint="fake", ids=ids, setting="direct"),
                    Execution(batch_interval=0.05))
    seen: list[dict] = []
    execute(store, create_run(store, plan), items=plan.items, on_progress=seen.append)
    lowered = [t for t in seen if t["concurrency_now"] < 4]
    assert lowered and lowered[0]["concurrency"] == 4, seen
    shown = xr._in_flight({"in_flight": 1}, lowered[0], "running")
    assert shown == f"1/4 (lowered to {lowered[0]['concurrency_now']} after 429s)"
    assert xr._in_flight({"in_flight": 0}, lowered[0], "done") == "0/4"
