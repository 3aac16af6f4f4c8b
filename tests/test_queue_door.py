"""A call the access table refuses is refused at the queue's door (ui/queue_door.py), and a
flood of them neither slows anyone else down nor fills the log (ui/quiet_log.py).

A participant (who may call no event) kept 32 calls waiting, each refused by role inside the
queue: an annotator's calls went from 0.08 s to 2-6 s, and 600 joins at once gave 503s,
16 s waits and one log line each (an attacker's review)."""
from __future__ import annotations

import pytest

from tests import flood
from tests.live_server import add_user_named_before_the_rule, start_ui_server
from tests.queue_caller import QueueCaller
from ui.access import NOT_ALLOWED

PASSWORD = "queue-door-pw-1"
FORGER = "mallory\r\n2026-01-01 INFO cluelab: FORGED LINE"
"""A name `user add` now refuses (domain/user_names.py), as an older database may hold."""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = start_ui_server(tmp_path_factory.mktemp("queue_door"),
                          {"anna": "annotator", "pat": "participant"}, PASSWORD)
    add_user_named_before_the_rule(srv.db, FORGER, "participant", PASSWORD)
    yield srv
    srv.stop()


def test_a_refused_call_is_refused_before_it_joins_the_queue(server):
    pat = QueueCaller(server.url, ("pat", PASSWORD)).http
    config = QueueCaller(server.url, ("anna", PASSWORD)).config()
    dep = next(d for d in config["dependencies"] if d["api_name"] == "load_item")
    joined = pat.post("/gradio_api/queue/join", json={
        "data": [None, None], "fn_index": dep["id"], "session_hash": "pats0session",
        "event_data": None, "trigger_id": None})
    called = pat.post("/gradio_api/call/load_item", json={"data": ["ui/alpha", None]})
    # the event's number as text, a float or a key given twice (the last one read): Gradio's
    # request model takes each as the number, so the door does too (they joined unchecked)
    sneaked = [pat.post("/gradio_api/queue/join", json={
        "data": [None, None], "fn_index": number, "session_hash": f"pats{k}session",
        "event_data": None, "trigger_id": None})
        for k, number in enumerate((str(dep["id"]), f" {dep['id']} ", float(dep["id"])))]
    twice = pat.post("/gradio_api/queue/join", headers={"content-type": "application/json"},
                     content=('{"data": [null, null], "fn_index": 0, "fn_index": "%d", '
                              '"session_hash": "patstwice", "event_data": null, '
                              '"trigger_id": null}' % dep["id"]).encode())
    for reply in (joined, called, *sneaked, twice):
        assert reply.status_code == 403, reply.text
        assert reply.json()["detail"].startswith("pat may not annotate items: " + NOT_ALLOWED)


def test_a_flood_of_refused_calls_leaves_other_users_calls_their_speed(server):
    anna = QueueCaller(server.url, ("anna", PASSWORD))
    config = anna.config()
    fn_index = next(d["id"] for d in config["dependencies"] if d["api_name"] == "load_item")

    def load_item():
        assert anna.answers(config, only={"load_item"})["load_item"] != "no answer"
    before = flood.timed(load_item)
    lines_before = server.log.read_text().count("pat")
    proc = flood.start(server.url, "join", 600, 16, "pat", PASSWORD, str(fn_index))
    during, statuses = flood.calls_during(proc, load_item)
    # before: 2-6 s against 0.08 s (32 calls waiting), 503s once the cap was met
    assert flood.kept_speed(before, during), (before, during)
    assert statuses == {403: 600}, statuses
    assert server.log.read_text().count("pat") - lines_before <= 2     # 600 lines before


def test_a_name_in_a_log_line_cannot_forge_lines(server):
    mallory = QueueCaller(server.url, (FORGER, PASSWORD)).http
    assert mallory.post("/gradio_api/call/load_item", json={"data": []}).status_code == 403
    log = server.log.read_text()
    assert "\n2026-01-01 INFO cluelab: FORGED LINE" not in log
    assert "mallory\\u000d\\u000a2026-01-01 INFO cluelab: FORGED LINE" in log


def test_json_nested_too_deep_is_a_400_not_a_server_error(server):
    """A join body nested 100,000 deep (200 KB) and a cancel body nested 20,000 deep made
    the JSON readers raise RecursionError: a 500 and a traceback per request from any
    signed-in account, the participant's too."""
    pat = QueueCaller(server.url, ("pat", PASSWORD)).http
    joined = pat.post("/gradio_api/queue/join", headers={"content-type": "application/json"},
                      content=b'{"data": ' + b"[" * 100_000 + b"]" * 100_000 +
                      b', "fn_index": 0, "session_hash": "deepnest2"}')
    cancel = pat.post("/gradio_api/cancel", headers={"content-type": "application/json"},
                      content=b"[" * 20_000 + b"]" * 20_000)
    for answer in (joined, cancel):
        assert (answer.status_code, answer.json()) == (
            400, {"detail": "The request's JSON is nested too deep to read."})
    assert "RecursionError" not in server.log.read_text()
