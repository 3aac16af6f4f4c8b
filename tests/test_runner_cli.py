"""The runner's command line as a researcher uses it: real subprocesses, a real SQLite file,
a real fake-OpenAI server process, and a SIGKILL in the middle of a paid run."""
import contextlib
import io
import json
import os
import re
import shutil
import shlex
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cli import main
from tests.live_server import ROOT
from tests.openai_server import free_port, start_server

DEMO = ROOT / "assets" / "demo" / "demo.jsonl"
SECRET = "sk-live-do-not-print-me-4242"


def app(*args, timeout=120):
    """`python app.py ARGS` in its own process."""
    return subprocess.run([sys.executable, str(ROOT / "app.py"), *map(str, args)],
                          capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)


def cli(*args, env=None):
    """The same command line in this process (the CLI's ~1 s start-up is mostly imports):
    real argument parsing, handlers, store and HTTP; returns code, stdout, stderr."""
    out, err, saved = io.StringIO(), io.StringIO(), dict(os.environ)
    os.environ.update(env or {})
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main([str(a) for a in args])
            except SystemExit as stop:
                code = stop.code if isinstance(stop.code, int) else 2
                if not isinstance(stop.code, int):
                    print(stop.code, file=sys.stderr)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


@pytest.fixture(scope="module")
def server():
    with start_server() as handle:
        yield handle


@pytest.fixture(scope="module")
def template(tmp_path_factory, server):
    """A database with the demo items (14) and an endpoint on the fake server."""
    folder = tmp_path_factory.mktemp("template")
    db = folder / "r.db"
    assert cli("import", "--db", db, "--format", "jsonl", DEMO).returncode == 0
    done = cli("endpoint", "add", "fake", "--base-url", server.url, "--model", "fake-vlm",
               "--concurrency", "4", "--db", db)
    assert done.returncode == 0, done.stderr
    return folder


@pytest.fixture
def db(template, tmp_path, server):
    server.configure(latency=0.0, script=[], faults={}, api_key=None, replies={})
    server.reset_log()
    shutil.copytree(template, tmp_path / "copy")
    return tmp_path / "copy" / "r.db"


def chats(server):
    return [r for r in server.requests() if r["path"].endswith("/chat/completions")]


def test_endpoints_are_listed_and_tested_without_ever_showing_a_key(db, server):
    env = {"FAKE_VLM_KEY": SECRET}
    added = cli("endpoint", "add", "keyed", "--base-url", server.url, "--model", "fake-vlm",
                "--api-key-env", "FAKE_VLM_KEY", "--db", db, env=env)
    listed = cli("endpoint", "list", "--json", "--db", db, env=env)
    [keyed] = [e for e in json.loads(listed.stdout) if e["name"] == "keyed"]
    assert keyed["api_key_env"] == "FAKE_VLM_KEY" and keyed["api_key_set"] is True
    refused = cli("endpoint", "add", "bad", "--base-url", server.url, "--model", "m",
                  "--api-key-env", SECRET, "--db", db)
    assert refused.returncode == 2 and "environment variable name" in refused.stderr

    server.configure(api_key="the-right-key", echo_key_in_errors=True)
    unauthorized = cli("endpoint", "test", "keyed", "--db", db, env=env)
    assert unauthorized.returncode == 1 and "FAKE_VLM_KEY" in unauthorized.stderr
    for done in (added, listed, refused, unauthorized):
        assert SECRET not in done.stdout + done.stderr
    server.configure(api_key=None)
    ok = json.loads(cli("endpoint", "test", "fake", "--json", "--db", db).stdout)
    assert ok["ok"] and ok["latency_ms"] >= 0 and "fake-vlm" in ok["models"]
    cli("endpoint", "edit", "fake", "--model", "no-such-model", "--db", db)
    unknown = cli("endpoint", "test", "fake", "--db", db)
    assert unknown.returncode == 1 and "does not serve model 'no-such-model'" in unknown.stderr


def test_run_prints_one_json_object_and_runs_lists_it(db, server):
    nothing = cli("run", "--db", db, "--endpoint", "fake", "--setting", "cot", "--budget", "1")
    assert nothing.returncode == 2 and "price set fake-vlm" in nothing.stderr
    assert cli("price", "set", "fake-vlm", "--input", "2", "--output", "8",
               "--db", db).returncode == 0
    dry = json.loads(cli("run", "--db", db, "--endpoint", "fake", "--setting", "cot",
                         "--dataset", "demo", "--dry-run", "--json").stdout)
    assert dry["projection"]["requests"] == 14 and dry["projection"]["cost"] > 0
    assert chats(server) == []

    done = cli("run", "--db", db, "--endpoint", "fake", "--setting", "direct", "--preset",
               "mmr-life", "--samples", "2", "--ids", "demo/alcove-furniture", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["status"] == "done" and out["totals"]["done"] == out["totals"]["total"] == 2
    assert {"requests_per_s", "latency_p50", "latency_p95", "retries", "rate_limited",
            "errors", "prompt_tokens", "completion_tokens", "cost"} <= set(out["totals"])
    assert sorted(r["seed"] for r in chats(server)) == [17, 18]
    runs = json.loads(cli("runs", "--db", db, "--json").stdout)
    assert [r["id"] for r in runs] == [out["id"]]
    assert runs[0]["config"]["sampling"] == {"temperature": 0.5, "top_p": 0.5, "seed": 17}
    assert runs[0]["created_at"] and runs[0]["totals"]["done"] == 2


def test_a_dead_endpoint_is_a_clear_error_and_the_run_stays_resumable(db):
    """A run whose endpoint dies after it was created (a new run on a dead endpoint is
    refused before it is created: the test below) fails saying why and how to resume."""
    from runner.config import RunConfig
    from runner.planning import create_run, plan_run
    from store import Store

    cli("endpoint", "add", "dead", "--base-url", f"http://127.0.0.1:{free_port()}/v1",
        "--model", "m", "--db", db)
    store = Store.open(db)
    create_run(store, plan_run(store, RunConfig(endpoint="dead", setting="cot")), author="cli")
    store.close()
    [created] = json.loads(cli("runs", "--db", db, "--json").stdout)
    done = cli("run", "--db", db, "--resume", created["id"])
    assert done.returncode == 1
    assert "error: endpoint dead" in done.stderr and "cannot connect" in done.stderr
    assert "is the server running?" in done.stderr and "Traceback" not in done.stderr
    [run] = json.loads(cli("runs", "--db", db, "--json").stdout)
    assert run["status"] == "failed" and "--resume" in run["message"]
    # the advice runs as written: it names the database the run was made in
    advice = run["message"].split("resume with ", 1)[1]
    assert shlex.split(advice) == ["python", "app.py", "run", "--resume", run["id"],
                                   "--db", str(Path(db).resolve())]
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT count(*) FROM run_responses").fetchone()[0] == 0
        assert con.execute("SELECT count(*) FROM run_work").fetchone()[0] == 14


def committed(db) -> dict[int, str]:
    with sqlite3.connect(db) as con:
        return dict(con.execute("SELECT work_id, run_id FROM run_responses").fetchall())


def test_a_killed_run_resumes_without_resending_anything_committed(db, server):
    server.configure(latency=0.2)
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "app.py"), "run", "--db", str(db), "--endpoint", "fake",
         "--setting", "cot", "--samples", "3", "--seed", "5", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while len(committed(db)) < 10 and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.communicate()
    before = committed(db)
    assert 10 <= len(before) < 42, "the run must be killed mid-way"
    [run] = json.loads(cli("runs", "--db", db, "--json").stdout)
    assert run["status"] == "interrupted"
    sent_before = len(chats(server))

    resumed = app("run", "--db", db, "--resume", run["id"], "--json")
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["status"] == "done"
    with sqlite3.connect(db) as con:
        per_work = con.execute("SELECT w.id, count(r.work_id) FROM run_work w LEFT JOIN "
                               "run_responses r ON r.work_id = w.id GROUP BY w.id").fetchall()
    assert len(per_work) == 42 and {n for _, n in per_work} == {1}
    sent = [r["request_id"] for r in chats(server)]
    for work_id in before:  # nothing committed before the kill was asked for again
        assert sent.count(f"{run['id']}/{work_id}") == 1
    assert len(sent) - sent_before == 42 - len(before)  # the resume sent only the rest


def test_a_background_run_can_be_watched_and_cancelled_from_another_process(db, server):
    from runner.background import log_path, start_detached
    from runner.config import RunConfig
    from runner.planning import create_run, plan_run
    from store import Store

    server.configure(latency=0.2)
    with Store.open(db) as store:
        run_id = create_run(store, plan_run(store, RunConfig(
            endpoint="fake", setting="direct", samples=6, filters={"dataset": "demo"})))
    pid = start_detached(db, run_id)
    deadline = time.monotonic() + 30
    run = {}
    while time.monotonic() < deadline:
        [run] = json.loads(cli("runs", "--db", db, "--json").stdout)
        if run["status"] == "running" and run["totals"].get("done", 0) > 4:
            break
        time.sleep(0.1)
    assert run["status"] == "running", run
    assert "cancel requested" in cli("runs", "--db", db, "--cancel", run_id).stdout
    while time.monotonic() < deadline and json.loads(
            cli("runs", "--db", db, "--show", run_id, "--json").stdout)["status"] == "running":
        time.sleep(0.1)
    final = json.loads(cli("runs", "--db", db, "--show", run_id, "--json").stdout)
    assert final["status"] == "cancelled" and final["totals"]["done"] < 84
    [summary] = [line for line in log_path(db, run_id).read_text().splitlines()
                 if line.startswith("{")]
    assert json.loads(summary)["status"] == "cancelled"
    assert pid > 0


def test_a_prompt_edit_is_a_new_version_recorded_by_the_next_run(db, tmp_path):
    assert cli("prompt", "show", "system_direct", "--db", db).stdout.startswith("You answer")
    edited = tmp_path / "direct.txt"
    edited.write_text("Answer at once. Reply \"Answer: <answer>\", <answer> being {{answer_spec}}.")
    assert "version 2" in cli("prompt", "set", "system_direct", "--file", edited,
                              "--db", db).stdout
    assert "v2 of 2" in cli("prompt", "list", "--db", db).stdout
    first = json.loads(cli("run", "--db", db, "--endpoint", "fake", "--setting", "direct",
                           "--filter", "dataset=demo", "--dry-run", "--json").stdout)
    assert first["config"]["templates"]["system_direct"] == 2
    cli("prompt", "set", "system_direct", "--file", edited, "--db", db)  # same text: no v3
    again = json.loads(cli("run", "--db", db, "--endpoint", "fake", "--setting", "direct",
                           "--dataset", "demo", "--dry-run", "--json").stdout)
    assert again["config_id"] == first["config_id"]


def test_cost_is_unknown_without_a_price_and_the_estimate_learns_the_servers_usage(db, server):
    """No price: the run's cost is unknown, never $0.0000. The a-priori prompt estimate
    counts images by OpenAI's high-detail rule, the fake server 85 each (about 5x less):
    once the model has answered, the dry run is calibrated on the usage the server reported
    and lands within 5% of what the next run is billed."""
    first = json.loads(cli("run", "--db", db, "--endpoint", "fake", "--setting", "direct",
                           "--dataset", "demo", "--dry-run", "--json").stdout)["projection"]
    assert first["basis"].startswith("a priori") and first["cost"] is None
    done = cli("run", "--db", db, "--endpoint", "fake", "--setting", "direct",
               "--dataset", "demo")
    assert done.returncode == 0, done.stderr
    assert "cost unknown (no price)" in done.stdout and "$0.0000" not in done.stdout
    listed = cli("runs", "--db", db)
    assert "unknown (no price)" in listed.stdout and "$0.0000" not in listed.stdout
    [run] = json.loads(cli("runs", "--db", db, "--json").stdout)
    actual = run["totals"]["prompt_tokens"]
    assert run["totals"]["cost"] is None and actual > 0
    assert first["prompt_tokens"] > 3 * actual                 # the a-priori gap, measured
    again = cli("run", "--db", db, "--endpoint", "fake", "--setting", "direct",
                "--dataset", "demo", "--dry-run", "--seed", "99")
    # (the demo's items all have images: no text-only request to calibrate the text on)
    assert "token estimate: partly calibrated on the usage fake-vlm's endpoint reported (a " \
        "priori where none is recorded): prompt text a priori (~4 characters a token), " \
        "images ×0." in again.stdout, again.stdout
    calibrated = json.loads(cli("run", "--db", db, "--endpoint", "fake", "--setting",
                                "direct", "--dataset", "demo", "--dry-run", "--seed", "99",
                                "--json").stdout)["projection"]
    assert calibrated["cached"] == 0            # another seed: every request is sent again
    second = json.loads(cli("run", "--db", db, "--endpoint", "fake", "--setting", "direct",
                            "--dataset", "demo", "--seed", "99", "--json").stdout)["totals"]
    assert second["cached"] == 0
    assert abs(calibrated["prompt_tokens"] - second["prompt_tokens"]) <= 0.05 * \
        second["prompt_tokens"]
    assert abs(calibrated["completion_tokens"] - second["completion_tokens"]) <= 14


def test_the_estimate_is_calibrated_per_setting_and_clue_source(db, server):
    """A clues=gt run was projected from a clues=none run's shorter prompts, a CoT run at
    350 completion tokens a request (4,900 for 14) and a clues=self first pass at 450 when
    the server answers in a few: each request's own prompt is now corrected by the
    endpoint's recorded usage per text and image token, and completions by its replies in
    that setting (else by a comparable setting's: resfix23)."""
    assert cli("price", "set", "fake-vlm", "--input", "1", "--output", "2",
               "--db", db).returncode == 0

    def project(*args):
        return json.loads(cli("run", "--db", db, "--endpoint", "fake", "--dataset", "demo",
                              "--dry-run", "--json", *args).stdout)["projection"]

    def billed(*args):
        done = cli("run", "--db", db, "--endpoint", "fake", "--dataset", "demo", "--json",
                   *args)
        return json.loads(done.stdout)["totals"]

    # nothing to go on: its bound, said as one (resfix17: an a-priori 14 x 350 was ~35x off)
    assert project("--setting", "cot")["completion_tokens"] == 14 * 1024
    none = billed("--setting", "cot")
    gt = project("--setting", "cot", "--clues", "gt")
    assert "completion length: CoT, any clue source (14 replies): " in gt["basis"]
    actual = billed("--setting", "cot", "--clues", "gt")
    assert actual["prompt_tokens"] > 1.1 * none["prompt_tokens"]   # the clues make it longer
    assert abs(gt["prompt_tokens"] - actual["prompt_tokens"]) <= 0.05 * actual["prompt_tokens"]
    assert abs(gt["completion_tokens"] - actual["completion_tokens"]) <= 14
    assert abs(gt["cost"] - actual["cost"]) <= 0.1 * actual["cost"]
    own = project("--setting", "direct", "--clues", "self")      # a clue_guided first pass
    assert "Clue-guided CoT as measured for CoT (28 replies)" in own["basis"]
    # the first pass as CoT measured (a few tokens, not 450); No-CoT, measured nowhere and
    # like no other setting, at its bound (resfix23: not scaled from CoT's)
    assert own["completion_bounded"] == 14
    assert own["completion_tokens"] <= 14 * 1024 + 14 * 5


def test_the_command_line_says_whose_replies_a_run_took(db):
    """Each run's header comes first (on stdout), its summary says where its replies came
    from, `runs --show` is `runs --json`'s shape, and `report` says it per repeat."""
    first = cli("run", "--db", db, "--endpoint", "fake", "--setting", "direct",
                "--ids", "demo/bus-stop-wait,demo/parcel-fee-sms")
    lines = first.stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if "(config " in line)
    summary = next(i for i, line in enumerate(lines) if ": done " in line)
    assert header < summary, first.stdout                 # the header first, on stdout
    assert lines[summary + 1] == "no reply taken from the cache"
    old = json.loads(cli("runs", "--db", db, "--json").stdout)[0]["id"]
    second = cli("run", "--db", db, "--endpoint", "fake", "--setting", "direct",
                 "--ids", "demo/bus-stop-wait,demo/parcel-fee-sms", "--repeats", "2")
    assert "made by fake-vlm · No-CoT (2): those draws are that run's" in second.stdout
    [listed] = [r for r in json.loads(cli("runs", "--db", db, "--json").stdout)
                if r["id"] != old]
    new = listed["id"]
    shown = json.loads(cli("runs", "--db", db, "--show", new, "--json").stdout)
    assert shown == listed                                 # one shape, counts included
    assert shown["counts"]["total"] == 4
    assert shown["cache"]["cached_from"] == {old: 2} and shown["cache"]["use_cache"]
    assert cli("score", "--db", db, "--run", new).returncode == 0
    report = cli("report", "--db", db, "--run", new).stdout
    assert "(mean ± SD of the 2 per-repeat accuracies)" in report
    assert "repeat 0: 2 of 2 from fake-vlm · No-CoT; repeat 1: none" in report  # its label
    again = cli("run", "--db", db, "--endpoint", "fake", "--setting", "direct",
                "--ids", "demo/bus-stop-wait,demo/parcel-fee-sms", "--no-cache", "--json")
    assert json.loads(again.stdout)["cache"] == {
        "use_cache": False, "cached": 0, "cached_from": {},
        "text": "cache not used: every reply was sent by this run"}


def test_a_run_stopped_by_its_budget_says_how_to_go_on_and_goes_on_with_none(db):
    """A run stopped by its budget said "resume with python app.py run --resume ID", which
    stops it again at once (what it spent still reaches the budget). Its message now gives
    the two commands that go on, each runnable as written: a higher --budget, or
    --no-budget, which the resume takes."""
    from cli import build_parser

    cli("price", "set", "fake-vlm", "--input", "1000", "--output", "0", "--db", db)
    stopped = cli("run", "--db", db, "--endpoint", "fake", "--setting", "direct",
                  "--ids", "demo/bus-stop-wait,demo/frozen-puddle,demo/park-season",
                  "--budget", "0.01", "--json")
    assert stopped.returncode == 3, stopped.stderr
    run = json.loads(stopped.stdout)
    assert run["status"] == "stopped" and "budget of $0.01 reached" in run["message"]
    advice = run["message"].split(" left: ", 1)[1]
    higher, none = [shlex.split(found) for found in
                    re.findall(r"\((python app\.py [^()]*)\)", advice)]
    where = ["--db", str(Path(db).resolve())]
    assert higher == ["python", "app.py", "run", "--resume", run["id"], "--budget", "USD",
                      *where]
    assert none == ["python", "app.py", "run", "--resume", run["id"], "--no-budget", *where]
    build_parser().parse_args(none[2:])                 # the CLI takes it as written

    # as it is, it would stop again at once: refused, as the page's Resume refuses it, saying
    # how to go on (it resumed, sent one more request and stopped: a review, round 28)
    again = cli("run", "--db", db, "--resume", run["id"], "--json")
    assert again.returncode != 0 and "stops again at once" in again.stderr
    assert "--budget USD" in again.stderr and "--no-budget" in again.stderr
    assert json.loads(cli("runs", "--db", db, "--show", run["id"], "--json").stdout)[
        "totals"]["done"] == run["totals"]["done"]
    raised = cli("run", "--db", db, "--resume", run["id"], "--budget", "0.02", "--json")
    assert json.loads(cli("runs", "--db", db, "--show", run["id"], "--json").stdout)["execution"][
        "budget"] == 0.02 and raised.returncode in (0, 3)
    done = cli(*none[2:], "--json")
    assert done.returncode == 0, done.stderr
    shown = json.loads(cli("runs", "--db", db, "--show", run["id"], "--json").stdout)
    assert shown["status"] == "done" and shown["execution"]["budget"] is None
    assert cli("run", "--db", db, "--resume", run["id"], "--budget", "1",
               "--no-budget").returncode == 2                 # one or the other


def test_the_budget_stop_message_reads_plainly(db):
    """It read "…one more request could go over it (projected), so none was sent after the
    0 already started; spent $0.0097 in all": worded plainly, the requests already sent
    named only when there are any."""
    from runner.dispatch import budget_stop_text

    cli("price", "set", "fake-vlm", "--input", "1000", "--output", "0", "--db", db)
    stopped = cli("run", "--db", db, "--endpoint", "fake", "--setting", "direct",
                  "--ids", "demo/bus-stop-wait,demo/frozen-puddle,demo/park-season",
                  "--budget", "0.01", "--json")
    message = json.loads(stopped.stdout)["message"]
    assert "already started" not in message and "none was sent after" not in message
    assert re.search(r"budget of \$0\.01 reached: the next request could take the spend "
                     r"over it \(projected\), so no more requests were sent"
                     r"( \(the \d+ already sent (was|were) let finish\))?; spent \$\d", message)
    assert budget_stop_text(0.01, 0).endswith("so no more requests were sent")
    assert budget_stop_text(0.01, 1).endswith("(the 1 already sent was let finish)")


def test_the_mmr_life_preset_implies_its_setting_and_a_departure_drops_its_label(db):
    """`run --endpoint fake --preset mmr-life --dry-run` failed with "--endpoint NAME and
    --setting S are required": the preset is MMR-Life's protocol (zero-shot CoT, no clues,
    full images), so it implies cot. A run that departs from it (clue_guided with GT clues)
    keeps the preset's sampling but not its name, and the plan says so."""
    plain = cli("run", "--db", db, "--endpoint", "fake", "--preset", "mmr-life",
                "--ids", "demo/bus-stop-wait", "--dry-run", "--json")
    assert plain.returncode == 0, plain.stderr
    config = json.loads(plain.stdout)["config"]
    assert (config["setting"], config["clues"], config["preset"]) == ("cot", "none", "mmr-life")
    assert config["sampling"] == {"temperature": 0.5, "top_p": 0.5, "seed": 17}
    departed = cli("run", "--db", db, "--endpoint", "fake", "--preset", "mmr-life",
                   "--setting", "clue_guided", "--clues", "gt", "--ids", "demo/bus-stop-wait",
                   "--dry-run", "--json")
    out = json.loads(departed.stdout)
    assert out["config"]["preset"] is None and out["config"]["setting"] == "clue_guided"
    assert out["config"]["sampling"] == {"temperature": 0.5, "top_p": 0.5, "seed": 17}
    assert out["config_id"] == json.loads(cli(
        "run", "--db", db, "--endpoint", "fake", "--setting", "clue_guided", "--clues", "gt",
        "--temperature", "0.5", "--top-p", "0.5", "--seed", "17", "--ids",
        "demo/bus-stop-wait", "--dry-run", "--json").stdout)["config_id"]
    assert any("setting clue_guided, clues gt: not the mmr-life preset's protocol" in w
               and "not labelled preset mmr-life" in w for w in out["warnings"])


def test_a_dead_endpoint_is_refused_before_a_run_is_created_unless_the_cache_answers(db):
    """`run --endpoint dead` created a failed run (0/3, $0.0000) that then cluttered every
    run picker, where the page refused to start ("not started: … would need the
    endpoint"). The CLI checks the endpoint first, as the page does: refused, nothing
    created; a run the cache answers entirely still goes on from it. The plan's counts take
    their number ("1 item, 1 work row, 1 request", not "1 items")."""
    from runner.coverage import FROM_CACHE

    with start_server() as mortal:
        assert cli("endpoint", "add", "mortal", "--base-url", mortal.url, "--model",
                   "fake-vlm", "--db", db).returncode == 0
        first = cli("run", "--db", db, "--endpoint", "mortal", "--setting", "direct",
                    "--ids", "demo/bus-stop-wait")
        assert first.returncode == 0, first.stderr
        assert "1 item, 1 work row, 1 request (0 cached)" in first.stdout
    before = json.loads(cli("runs", "--db", db, "--json").stdout)
    dead = cli("run", "--db", db, "--endpoint", "mortal", "--setting", "direct",
               "--ids", "demo/bus-stop-wait,demo/frozen-puddle")
    assert dead.returncode == 2
    assert re.search(r"not started: .*cannot connect.*; 1 of 2 requests are cached, 1 would "
                     r"need the endpoint", dead.stderr)
    assert json.loads(cli("runs", "--db", db, "--json").stdout) == before   # nothing created
    cached = cli("run", "--db", db, "--endpoint", "mortal", "--setting", "direct",
                 "--ids", "demo/bus-stop-wait", "--json")
    assert cached.returncode == 0, cached.stderr
    assert FROM_CACHE in cached.stderr and json.loads(cached.stdout)["status"] == "done"


def test_the_plan_of_a_clues_self_rerun_counts_the_cache_it_will_take(db, server):
    """A clues=self run made again: its first pass comes from the cache, and so, its clues
    being the cached replies' clues, do its answers (the run takes all 28 from the cache).
    The plan counted the answers as never cached (placeholder clues): '28 requests (14
    cached)'. It reads the cached first pass's clues and counts what the run will take."""
    server.configure(default_reply="Clue 1: the sky is dark\nAnswer: {letter}")
    first = cli("run", "--db", db, "--endpoint", "fake", "--setting", "cot", "--clues", "self",
                "--json")
    assert first.returncode == 0, first.stderr
    plan = cli("run", "--db", db, "--endpoint", "fake", "--setting", "cot", "--clues", "self",
               "--dry-run", "--json")
    assert plan.returncode == 0, plan.stderr
    projected = json.loads(plan.stdout)["projection"]
    server.reset_log()
    again = cli("run", "--db", db, "--endpoint", "fake", "--setting", "cot", "--clues", "self",
                "--json")
    assert again.returncode == 0 and chats(server) == []        # all 28 from the cache
    assert (projected["requests"], projected["cached"]) == (28, 28), projected


def test_endpoint_list_says_the_key_is_set_in_this_shell_not_the_servers(db):
    """`endpoint list` said "key $FAKE_KEY (set)" of the CLI's environment, while the server
    that runs the models has its own."""
    cli("endpoint", "add", "keyed", "--base-url", "http://127.0.0.1:9/v1", "--model", "m",
        "--api-key-env", "LISTED_KEY", "--db", db)
    listed = cli("endpoint", "list", "--db", db, env={"LISTED_KEY": SECRET})
    assert "key $LISTED_KEY (set in this shell)" in listed.stdout
    assert SECRET not in listed.stdout
    listed = cli("endpoint", "list", "--db", db, env={"LISTED_KEY": " "})
    assert "key $LISTED_KEY (NOT SET in this shell)" in listed.stdout
