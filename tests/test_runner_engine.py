"""The engine against a real OpenAI-compatible server process (tests/openai_server.py):
results, cache, retries by class, endpoint failures, clue sources, pause, budget, deadline."""
import json
import threading
import time

import pytest

from runner.config import Execution, RunConfig
from runner.coverage import FROM_CACHE, pending_coverage
from runner.engine import execute
from runner.planning import create_run, plan_run
from store import Store
from tests.openai_server import free_port, start_server
from ui import experiments_runs as xr

RESET = {"latency": 0.0, "jitter": 0.0, "script": [], "faults": {}, "replies": {},
         "reply_queue": [], "default_reply": "Answer: {letter}", "letters": "AB",
         "retry_after": 1, "api_key": None, "hang": 30.0}
FAST = {"retry_base_delay": 0.05, "batch_interval": 0.1}


@pytest.fixture(scope="module")
def server():
    with start_server() as handle:
        yield handle


@pytest.fixture
def fake(server, store):
    server.configure(**RESET)
    server.reset_log()
    store.add_endpoint("fake", server.url, "fake-vlm", concurrency=4)
    return server


@pytest.fixture
def items(store, make_item):
    def make(n=3, **overrides):
        ids = []
        for i in range(n):
            item = make_item(f"demo/Q_{len(store.item_ids())}", **overrides)
            store.create_item(item, "t")
            ids.append(item["id"])
        return ids
    return make


def launch(store, ids, endpoint="fake", execution=None, **config):
    plan = plan_run(store, RunConfig(endpoint=endpoint, ids=ids, **config),
                    Execution(**{**FAST, **(execution or {})}))
    run_id = create_run(store, plan)
    return execute(store, run_id, items=plan.items)


def chats(server):
    return [r for r in server.requests() if r["path"].endswith("/chat/completions")]


def test_every_work_row_gets_one_result_with_answer_tokens_and_latency(store, fake, items):
    ids = items(3)
    outcome = launch(store, ids, setting="cot", samples=2, seed=1)
    assert outcome.status == "done" and outcome.totals["done"] == 6
    results = store.run_results(outcome.run_id)
    assert len(results) == 6 and {r["status"] for r in results} == {"ok"}
    assert all(r["answer"] in "AB" and r["prompt_tokens"] > 0 and r["latency"] > 0
               and r["attempts"] == 1 and r["cache_key"] for r in results)
    log = chats(fake)
    assert len(log) == 6 and len({r["request_id"] for r in log}) == 6
    assert sorted(r["seed"] for r in log) == [1, 1, 1, 2, 2, 2]
    totals = store.get_run(outcome.run_id)["totals"]
    assert totals["ok"] == 6 and totals["requests"] == 6 and totals["latency_p50"] > 0


def test_streamed_replies_are_assembled_and_recorded(store, fake, items):
    ids = items(2)
    outcome = launch(store, ids, setting="direct", execution={"stream": True})
    results = store.run_results(outcome.run_id)
    assert outcome.status == "done" and {r["status"] for r in results} == {"ok"}
    assert all(r["completion_tokens"] for r in results)
    assert all(r["stream"] for r in chats(fake))


def test_a_warm_cache_rerun_sends_zero_requests(store, fake, items):
    ids = items(3)
    first = launch(store, ids, setting="direct", samples=2)
    fake.reset_log()
    second = launch(store, ids, setting="direct", samples=2)
    assert chats(fake) == []
    assert second.status == "done" and second.totals["cached"] == 6
    assert second.totals["cost"] == 0 and second.totals["prompt_tokens"] == 0
    assert store.get_run(first.run_id)["config_id"] == store.get_run(second.run_id)["config_id"]
    answers = [[r["answer"] for r in store.run_results(o.run_id)] for o in (first, second)]
    assert answers[0] == answers[1]


def test_two_items_whose_requests_read_the_same_get_a_draw_each(store, fake, make_item):
    """MMR-Life items with the same text and no image: 6 of 10 shared one reply."""
    twin = make_item("demo/twin_1", n_images=0, n_clues=0)
    store.create_item(twin, "t")
    store.create_item({**twin, "id": "demo/twin_2"}, "t")
    outcome = launch(store, ["demo/twin_1", "demo/twin_2"], setting="direct", repeats=2)
    assert outcome.totals["done"] == 4 and len(chats(fake)) == 4
    assert outcome.totals["cached"] == 0
    keys = [r["cache_key"] for r in store.run_results(outcome.run_id)]
    assert len(set(keys)) == 4


def test_a_cached_reply_stands_only_for_its_own_draw_and_says_whose(store, fake, make_item):
    """A 2-repeat run after a 1-repeat one: repeat 0 is the earlier run's draws (said in
    its counters, its results and the panel), repeat 1 is sent; no latency is copied."""
    for n in range(3):
        store.create_item(make_item(f"demo/Q_{n}"), "t")
    ids = [f"demo/Q_{n}" for n in range(3)]
    first = launch(store, ids, setting="cot")
    fake.reset_log()
    plan = plan_run(store, RunConfig(endpoint="fake", ids=ids, setting="cot", repeats=2))
    second = launch(store, ids, setting="cot", repeats=2)
    assert plan.projection["cached"] == 3
    assert plan.projection["cached_from"] == {first.run_id: 3}
    assert first.run_id in plan.projection["cache_text"]
    assert len(chats(fake)) == 3                       # repeat 1 only
    results = store.run_results(second.run_id)
    cached = [r for r in results if r["cached"]]
    assert {r["repeat"] for r in cached} == {0} and len(cached) == 3
    assert all(r["cached_from"] == first.run_id and r["latency"] is None for r in cached)
    assert all(r["latency"] is not None for r in results if not r["cached"])
    assert second.totals["cached_from"] == {first.run_id: 3}
    panel = xr.progress_html(store, second.run_id)
    assert "3 replies taken from the cache, made by fake-vlm · CoT (3)" in panel  # its label
    rows = xr.responses(store, second.run_id)
    details = [json.loads(xr.response_detail(store, second.run_id, row[0])[1])
               for row in rows if row[2].startswith("r0 ")]     # the sample's "draw"
    assert [d["latency_s"] for d in details] == ["cached"] * 3
    assert [d["cached_from"] for d in details] == [f"run {first.run_id}"] * 3
    # and a 3-sample run takes only the (repeat 0, sample 0) draws of a 3-repeat run
    repeats = launch(store, ids, setting="direct", repeats=3)
    samples = launch(store, ids, setting="direct", samples=3)
    assert samples.totals["cached_from"] == {repeats.run_id: 3}
    assert {(r["repeat"], r["sample"]) for r in store.run_results(samples.run_id)
            if r["cached"]} == {(0, 0)}


def test_a_run_without_the_cache_sends_every_request_and_resumes_alike(store, fake,
                                                                       make_item):
    for n in range(3):
        store.create_item(make_item(f"demo/Q_{n}"), "t")
    ids = [f"demo/Q_{n}" for n in range(3)]
    launch(store, ids, setting="direct")
    fake.reset_log()
    plan = plan_run(store, RunConfig(endpoint="fake", ids=ids, setting="direct"),
                    Execution(use_cache=False))
    fresh = launch(store, ids, execution={"use_cache": False}, setting="direct")
    assert plan.projection["cached"] == 0 and plan.projection["to_send"] == 3
    assert "not used" in plan.projection["cache_text"]
    assert len(chats(fake)) == 3 and fresh.totals["cached"] == 0
    assert store.get_run(fresh.run_id)["execution"]["use_cache"] is False
    # a no-cache run's pending work is not covered by the cache (a dead endpoint stops it)
    plan = plan_run(store, RunConfig(endpoint="fake", ids=ids, setting="direct"),
                    Execution(use_cache=False))
    waiting = create_run(store, plan)
    assert pending_coverage(store, waiting).cached == 0
    assert pending_coverage(store, create_run(store, plan_run(
        store, RunConfig(endpoint="fake", ids=ids, setting="direct")))).cached == 3
    fake.reset_log()
    resumed = execute(store, waiting)
    assert resumed.status == "done" and len(chats(fake)) == 3
    assert resumed.totals["cached"] == 0


def test_429_waits_for_retry_after_and_shrinks_nothing_it_should_not(store, fake, items):
    ids = items(1)
    fake.configure(script=["429"], retry_after=1)
    outcome = launch(store, ids, setting="direct")
    [result] = store.run_results(outcome.run_id)
    assert result["status"] == "ok" and result["attempts"] == 2 and result["rate_limited"] == 1
    first, second = chats(fake)
    assert second["time"] - first["time"] >= 0.95
    assert outcome.totals["rate_limited"] == 1 and outcome.totals["retries"] == 1


def test_500s_are_retried_and_400_fails_at_once(store, fake, items):
    ids = items(1)
    fake.configure(script=["500", "503"])
    [retried] = store.run_results(launch(store, ids, setting="direct").run_id)
    assert retried["status"] == "ok" and retried["attempts"] == 3
    fake.reset_log()
    fake.configure(script=["400"])
    [failed] = store.run_results(launch(store, ids, setting="cot").run_id)
    assert failed["status"] == "error" and failed["attempts"] == 1
    assert "HTTP 400" in failed["reason"] and len(chats(fake)) == 1


@pytest.mark.parametrize("script, status, reason", [
    (["truncate"], "truncated", "max_tokens"),
    (["refuse"], "refused", "can't help"),
    (["content_filter"], "refused", "content_filter"),
    (["malformed", "malformed"], "error", "malformed"),
    (["missing_choices", "missing_choices"], "error", "no choices"),
    (["hang", "hang"], "error", "timed out")])
def test_truncated_refused_malformed_and_timeout_statuses(store, fake, items, script, status,
                                                          reason):
    ids = items(1)
    fake.configure(script=script, hang=2.0)
    outcome = launch(store, ids, setting="direct", execution={
        "max_attempts": 2, "request_timeout": 0.4})
    [result] = store.run_results(outcome.run_id)
    assert result["status"] == status and reason in result["reason"]
    assert store.cache_stats()["entries"] == (1 if status != "error" else 0)


def test_a_dead_endpoint_fails_fast_and_leaves_every_item_pending(store, items):
    ids = items(2)
    store.add_endpoint("dead", f"http://127.0.0.1:{free_port()}/v1", "m")
    started = time.monotonic()
    outcome = launch(store, ids, endpoint="dead", setting="cot")
    assert time.monotonic() - started < 5
    assert outcome.status == "failed" and "cannot connect" in outcome.message
    assert "is the server running" in outcome.message and "--resume" in outcome.message
    assert len(store.pending_work(outcome.run_id)) == 2


def test_a_dead_endpoint_runs_from_the_cache_when_it_answers_every_request(store, items):
    """The pre-flight meets real HTTP to a port nothing listens on any more: a run the cache
    answers entirely goes on from it and says so; one it does not is refused with counts."""
    ids = items(2)
    with start_server() as mortal:
        store.add_endpoint("mortal", mortal.url, "fake-vlm")
        assert launch(store, ids, endpoint="mortal", setting="direct", samples=2).status == "done"
    cached = launch(store, ids, endpoint="mortal", setting="direct", samples=2)
    assert cached.status == "done" and cached.totals["cached"] == 4
    assert cached.message.startswith(FROM_CACHE) and "cannot connect" in cached.message
    partial = launch(store, ids + items(1), endpoint="mortal", setting="direct", samples=2)
    assert partial.status == "failed" and "cannot connect" in partial.message
    assert "4 of 6 requests are cached, 2 would need the endpoint" in partial.message
    assert len(store.pending_work(partial.run_id)) == 6      # refused: nothing recorded


def test_a_refused_key_names_its_variable_and_never_shows_the_key(store, fake, items,
                                                                  monkeypatch):
    ids = items(1)
    fake.configure(api_key="right-key", echo_key_in_errors=True)
    store.update_endpoint("fake", api_key_env="FAKE_VLM_KEY")
    monkeypatch.setenv("FAKE_VLM_KEY", "wrong-key-123")
    outcome = launch(store, ids, setting="cot")
    assert outcome.status == "failed" and "FAKE_VLM_KEY" in outcome.message
    assert "wrong-key-123" not in outcome.message and len(store.pending_work(outcome.run_id)) == 1
    monkeypatch.delenv("FAKE_VLM_KEY")
    missing = launch(store, ids, setting="cot")
    assert missing.status == "failed" and "FAKE_VLM_KEY" in missing.message
    assert "not set" in missing.message


def test_gt_clues_are_injected_and_items_without_clues_are_errors(store, fake, items):
    ids = items(2) + items(1, clues=[])
    fake.configure(replies={"Visual clues:\n1. clue 0": "Answer: A"}, default_reply="Answer: B")
    outcome = launch(store, ids, setting="cot", clues="gt")
    results = store.run_results(outcome.run_id)
    assert [r["answer"] for r in results[:2]] == ["A", "A"]
    assert results[2]["status"] == "error" and "no GT clues" in results[2]["reason"]
    assert len(chats(fake)) == 2


def test_self_clues_are_a_recorded_first_pass_then_injected(store, fake, items):
    ids = items(2)
    fake.configure(replies={"Visual clues:\n1. a tiny price tag": "Answer: A"},
                   default_reply="Clues:\n1. a tiny price tag\nReasoning: cheap\nAnswer: B")
    outcome = launch(store, ids, setting="cot", clues="self", repeats=2, seed=3)
    first = store.run_results(outcome.run_id, phase="clues")
    answers = store.run_results(outcome.run_id, phase="answer")
    assert len(first) == 4 and all(r["clues"][0]["text"] == "a tiny price tag" for r in first)
    assert len(answers) == 4 and {r["answer"] for r in answers} == {"A"}
    assert outcome.totals["done"] == 8 and len(chats(fake)) == 8


def test_clues_of_another_run_are_injected(store, fake, items):
    ids = items(2)
    fake.configure(replies={"What is shown": '{"answer": "B", "clues": [{"clue": "snow on the '
                                             'roof", "reasoning": "winter", "box": [1, 2, 3, 4]}]}'})
    source = launch(store, ids, setting="structured")
    assert store.run_results(source.run_id)[0]["clues"][0]["text"] == "snow on the roof"
    fake.configure(replies={"1. snow on the roof": "Answer: A"}, default_reply="Answer: B")
    outcome = launch(store, ids, setting="cot", clues=f"run:{source.run_id}")
    assert {r["answer"] for r in store.run_results(outcome.run_id)} == {"A"}
    # the plan's warning counts the source's clues (it guessed from its setting)
    from runner.planning import plan_run
    from runner.config import RunConfig
    bare = plan_run(store, RunConfig(endpoint="fake", ids=ids, setting="cot",
                                     clues=f"run:{outcome.run_id}")).warnings
    assert any(f"has no clues for {len(ids)} of these {len(ids)} items" in w for w in bare)
    clued = plan_run(store, RunConfig(endpoint="fake", ids=ids, setting="cot",
                                      clues=f"run:{source.run_id}")).warnings
    assert not any("clues" in w for w in clued)


def test_the_clue_source_run_can_be_named_by_its_name_and_the_config_keeps_its_id(store, fake,
                                                                                 items):
    ids = items(1)
    source = launch(store, ids, setting="structured")
    store.label_run(source.run_id, name="structured pass")
    outcome = launch(store, ids, setting="cot", clues="run:structured pass")
    assert store.get_run(outcome.run_id)["config"]["clues"] == f"run:{source.run_id}"
    with pytest.raises(Exception, match="no run 'nobody'"):
        launch(store, ids, setting="cot", clues="run:nobody")


def steered_run(store, fake, items, latency: float, samples: int, action: str,
                after: float) -> str:
    """A run of one item x `samples` at 2 in flight against replies taking `latency` s, which
    another process asks to `action` (pause, cancel) `after` seconds; not executed yet."""
    fake.configure(latency=latency)
    plan = plan_run(store, RunConfig(endpoint="fake", ids=items(1), setting="direct",
                                     samples=samples), Execution(**FAST, concurrency=2))
    run_id = create_run(store, plan)

    def steer_soon():
        time.sleep(after)
        with Store(store.path) as other:  # its own connection, as the UI would have
            other.request_run_control(run_id, action)

    threading.Thread(target=steer_soon).start()
    return run_id


def test_another_process_can_pause_and_the_resume_sends_only_the_rest(store, fake, items,
                                                                      tmp_path):
    run_id = steered_run(store, fake, items, 0.1, 40, "pause", after=0.5)
    paused = execute(store, run_id)
    assert paused.status == "paused" and 0 < paused.totals["done"] < 40
    done, left = paused.totals["done"], 40 - paused.totals["done"]
    assert paused.message.startswith(f"paused on request: {done} done, 0 failed, {left} not "
                                     f"run = 40 work rows; {left} left: resume with")
    assert store.get_run(run_id)["status"] == "paused"
    resumed = execute(store, run_id)
    assert resumed.status == "done" and resumed.totals["done"] == 40
    request_ids = [r["request_id"] for r in chats(fake)]
    assert len(request_ids) == len(set(request_ids)) == 40


def test_a_pause_sends_nothing_that_was_still_waiting_for_a_slot(store, fake, items):
    """Paused while 2 requests are in flight and more are queued behind them for a slot: the
    two in flight finish, the queued ones are never sent (they stay pending)."""
    run_id = steered_run(store, fake, items, 0.8, 12, "pause", after=0.4)
    paused = execute(store, run_id)
    assert paused.status == "paused"
    assert 1 <= paused.totals["done"] == len(chats(fake)) <= 2  # 2 in flight, 2 queued


def test_a_pause_after_the_last_request_was_sent_ends_the_run_done(store, fake, items):
    """Paused while its last requests were in flight: they came back, every work row had its
    result, and the run stayed "paused" for good (its tables said its numbers cover only
    part of its items; Resume had nothing to send)."""
    run_id = steered_run(store, fake, items, 0.8, 2, "pause", after=0.3)
    outcome = execute(store, run_id)
    assert outcome.totals["done"] == 2 and outcome.status == "done", outcome.message
    assert store.get_run(run_id)["status"] == "done"


def test_a_resumed_runs_elapsed_and_rates_are_over_all_its_executions(store, fake, items):
    """Paused, left a second, resumed: elapsed is the two executions' active time (not the
    last one's only, nor the pause), and the rates are the whole run's counts over it."""
    run_id = steered_run(store, fake, items, 0.1, 40, "pause", after=0.5)
    first = execute(store, run_id).totals["elapsed"]
    time.sleep(1.0)
    started = time.monotonic()
    execute(store, run_id)
    second = time.monotonic() - started
    totals = store.get_run(run_id)["totals"]          # what `runs --show` prints
    assert first >= 0.4 and totals["done"] == 40
    assert second + first / 2 < totals["elapsed"] <= first + second + 0.05
    assert totals["requests_per_s"] == pytest.approx(40 / totals["elapsed"], abs=0.01)
    assert totals["results_per_s"] == pytest.approx(40 / totals["elapsed"], abs=0.01)


def test_a_cancelled_run_stops_at_once_and_says_what_it_was_left_with(store, fake, items):
    """Every slot taken by a slow request: the cancel is not left waiting for one to free, and
    the run ends 'cancelled' with counters that add up, not with the words of the request."""
    from ui import experiments_runs as xr

    run_id = steered_run(store, fake, items, 20, 30, "cancel", after=0.8)
    started = time.monotonic()
    outcome = execute(store, run_id)
    assert time.monotonic() - started < 5
    run = store.get_run(run_id)
    assert outcome.status == run["status"] == "cancelled" and run["control"] is None
    # the requests in flight were not waited for: said, with what it means for the bill
    assert run["message"].startswith("cancelled on request: 0 done, 0 failed, 30 not run = "
                                      "30 work rows; ")
    abandoned = int(run["message"].split("; ")[1].split()[0])
    assert abandoned >= 1 and "sent and not waited for (an endpoint may bill a reply that " \
        "is not recorded; a resume sends them again)" in run["message"]
    panel, status = xr.progress(store, run_id)
    assert status == "cancelled" and "requested" not in panel
    assert "cancelled on request" in panel and "= <b data-count='total'>30</b>" in panel


def test_budget_stops_dispatch_before_overspending(store, fake, items):
    ids = items(1)
    store.set_price("fake-vlm", 1000.0, 0.0)  # ~$0.1 per request here
    outcome = launch(store, ids, setting="direct", samples=20, execution={
        "budget": 0.35, "concurrency": 1})
    assert outcome.status == "stopped" and "budget" in outcome.message
    assert 0 < outcome.totals["done"] < 20 and outcome.totals["cost"] <= 0.35
    # the message's spend is the summary's, counted after the requests in flight came back
    assert f"spent ${outcome.totals['cost']:.4f} in all" in outcome.message


def test_a_budget_holds_with_many_requests_in_flight_and_long_replies(store, fake, items):
    """Concurrency 8 and replies far longer than the plan's typical one: the requests in
    flight were counted at the typical length, and runs spent twice their budget. They are
    counted at max_tokens now, and dispatch waits for them near the budget."""
    ids = items(1)
    store.set_price("fake-vlm", 0.0, 1000.0)          # $0.001 per completion token
    fake.configure(latency=0.05, replies={"What is shown": "Answer: A. " + "word " * 150})
    outcome = launch(store, ids, setting="direct", samples=30, max_tokens=400, execution={
        "budget": 1.0, "concurrency": 8})
    assert outcome.status == "stopped" and "budget" in outcome.message
    assert 0 < outcome.totals["done"] < 30 and outcome.totals["cost"] <= 1.0, outcome.totals


def test_a_long_reply_after_short_ones_does_not_take_the_run_over_its_budget(store, fake,
                                                                            items):
    """Replies of uneven length, no max_tokens: each next request was counted at the mean
    reply, so a long one after short ones went over (a review's run stopped at $0.0111 of a
    $0.01 budget). It is counted at the dearest reply so far now: here the mean let a sixth
    request go out at $0.309 spent and ended at $0.459 of $0.40."""
    ids = items(1)
    store.set_price("fake-vlm", 0.0, 1000.0)          # $0.001 per completion token
    short, long = "Answer: A", "Answer: A. " + "word " * 150
    fake.configure(reply_queue=[short, long] * 10)
    outcome = launch(store, ids, setting="direct", samples=20, execution={
        "budget": 0.4, "concurrency": 1})
    assert outcome.status == "stopped" and "budget" in outcome.message
    assert 0 < outcome.totals["cost"] <= 0.4, outcome.totals


def test_a_budget_waits_for_the_replies_in_flight_before_it_stops(store, fake, items):
    """The plan's estimate per request was far above what replies cost: the run stopped
    at "budget reached" with most of its budget left, instead of waiting for the replies
    in flight and going on at their cost."""
    ids = items(1)
    store.set_price("fake-vlm", 0.0, 1000.0)          # $0.001 per completion token
    fake.configure(latency=0.05, replies={"What is shown": "Answer: A"})   # ~3 tokens
    outcome = launch(store, ids, setting="cot", samples=12, execution={
        "budget": 1.5, "concurrency": 4})            # the a-priori CoT reply: ~$0.5
    assert outcome.status == "done", outcome.message
    assert outcome.totals["cost"] < 0.1


def test_deadline_stops_dispatch(store, fake, items):
    ids = items(1)
    fake.configure(latency=0.2)
    started = time.monotonic()
    outcome = launch(store, ids, setting="direct", samples=20, execution={
        "deadline": 0.5, "concurrency": 1})
    assert outcome.status == "stopped" and "deadline" in outcome.message
    assert outcome.totals["done"] < 20 and time.monotonic() - started < 3


def test_a_resume_sends_the_items_as_planned_even_after_an_edit(store, fake, items):
    ids = items(1)
    plan = plan_run(store, RunConfig(endpoint="fake", ids=ids, setting="direct"),
                    Execution(**FAST))
    run_id = create_run(store, plan)
    item = store.get_item(ids[0])
    store.save_item({**item, "question": "An edited question?"}, item["version"], "ann")
    fake.configure(replies={"What is shown": "Answer: A", "edited": "Answer: B"})
    assert execute(store, run_id).status == "done"
    assert store.run_results(run_id)[0]["answer"] == "A"  # version 1's question was sent
    later = plan_run(store, RunConfig(endpoint="fake", ids=ids, setting="direct"))
    assert later.config_id != plan.config_id  # the edit is a different experiment


def test_a_budget_below_one_requests_projected_cost_is_said_before_launch(store, fake, items):
    """A $1 budget against a request projected at more stopped the run at once, with
    nothing sent and no word in the plan."""
    ids = items(1)
    store.set_price("fake-vlm", 0.0, 1000.0)          # ~$1 per a-priori CoT reply
    plan = plan_run(store, RunConfig(endpoint="fake", ids=ids, setting="cot"),
                    Execution(**{**FAST, "budget": 0.01}))
    assert any("the budget of $0.01 is below one request's estimated cost" in w
               for w in plan.warnings), plan.warnings
    plan = plan_run(store, RunConfig(endpoint="fake", ids=ids, setting="cot"),
                    Execution(**{**FAST, "budget": 100.0}))
    assert not any("budget" in w for w in plan.warnings)


def test_a_budget_below_the_whole_projection_is_said_before_launch(store, fake, items):
    """A budget that pays for some requests only stopped the run part way, with no word
    in the plan: it says how many it covers."""
    ids = items(4)
    store.set_price("fake-vlm", 0.0, 1000.0)
    config = RunConfig(endpoint="fake", ids=ids, setting="cot")
    # the budget's guard: the a-priori length while none is measured (the shown "cost" is
    # then the max_tokens bound)
    per = plan_run(store, config, Execution(**FAST)).projection["cost_guess"] / 4
    plan = plan_run(store, config, Execution(**{**FAST, "budget": round(per * 2.5, 6)}))
    [warning] = [w for w in plan.warnings if "budget" in w]
    assert "below the estimated cost" in warning and "covers about 2 of the 4 requests" \
        in warning, warning
    # the plan shows the max_tokens bound while no length is measured: the warning says
    # what its figure rests on and quotes that bound as well (it quoted a figure shown
    # nowhere else)
    bound = plan.projection["cost_max"]
    assert f"none measured yet for this model; at most ${bound:.4f} at max_tokens" \
        in warning, warning
