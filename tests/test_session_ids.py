"""The ids a request names for the queue (session hashes, event ids) are what Gradio makes,
and name something the server holds (ui/session_owners.py): against a real server under a
login, as an attacker's review found them.

- a 60,000-character session hash or event id, repeated, grew the server's memory ~60 KB a
  request (the owners table kept each): now a 400 saying what an id is, kept nowhere;
- GET /gradio_api/call/<api>/<id> of an event the server does not hold answered a 200 with
  an error event and logged a failure, and re-reading one's own finished event waited for
  good: now a 404 "No such event", no log line."""
from __future__ import annotations

import time
import uuid
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest

from tests.queue_caller import QueueCaller
from tests.test_access_routes import PASSWORD, server  # noqa: F401 - the fixture
from ui.session_owners import MAX_ID, NO_SUCH_EVENT, NOT_AN_ID, unheld_event


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def read_within(client, path: str, seconds: float):
    """A GET read whole within `seconds` in all (a stream's heartbeats reset the client's own
    timeout, so a stream that never ends would hang the suite): fails instead."""
    deadline = time.monotonic() + seconds
    chunks = []
    with client.stream("GET", path, timeout=seconds) as answer:
        for chunk in answer.iter_bytes():
            chunks.append(chunk)
            assert time.monotonic() < deadline, f"{path} still streaming after {seconds} s"
    return httpx.Response(answer.status_code, content=b"".join(chunks))


def queue_scope(event_id: str, held: dict, pending: dict) -> dict:
    """The scope of a GET /gradio_api/call/load_item/<event_id> to an app whose queue keeps
    the events `held` and the pending ids `pending` (what unheld_event reads of Gradio)."""
    queue = SimpleNamespace(event_ids_to_events=held, pending_event_ids_session=pending)
    blocks = SimpleNamespace(_queue=queue)
    return {"type": "http", "method": "GET", "path": f"/gradio_api/call/load_item/{event_id}",
            "app": SimpleNamespace(get_blocks=lambda: blocks)}


def test_a_result_already_read_is_not_held_while_the_queue_still_keeps_its_event():
    """The queue keeps a finished event in its table until its worker is done with it, after
    the result went out: a second read then found it there and waited for good (a CI run hung
    on it). Only an id still among its session's pending ids is waiting to be read."""
    event = SimpleNamespace(session_hash="s1")
    assert unheld_event(queue_scope("e1", {"e1": event}, {"s1": set()}))      # read already
    assert not unheld_event(queue_scope("e1", {"e1": event}, {"s1": {"e1"}}))  # not yet read
    assert not unheld_event(queue_scope("e1", {}, {"s1": {"e1"}}))      # finished, not read
    assert unheld_event(queue_scope("e2", {}, {"s1": {"e1"}}))                 # no such event


@pytest.fixture(scope="module")
def ann(server):  # noqa: F811 - the fixture
    return QueueCaller(server.url, ("ann", PASSWORD)).http


def test_an_id_gradio_never_makes_is_refused_and_kept_nowhere(server, ann):  # noqa: F811
    long_id = "a" * 60_000

    def hostile(i: int):
        value = f"{i}{long_id}"                  # a new value each time: nothing shared
        if i % 2:
            return ann.get("/gradio_api/queue/data", params={"session_hash": value})
        return ann.get(f"/gradio_api/call/load_item/{value}")
    for i in range(40):                           # the server's own first allocations
        hostile(i)
    before = rss_kb(server.proc.pid)
    answers = [hostile(i) for i in range(40, 340)]
    grown_mb = (rss_kb(server.proc.pid) - before) / 1024
    assert {a.status_code for a in answers} == {400}
    assert answers[0].json() == answers[1].json() == {"detail": NOT_AN_ID}
    assert grown_mb < 6, f"{grown_mb:.1f} MB for 300 requests (18 MB when each was kept)"
    for path, params in ((f"/gradio_api/heartbeat/{'b' * (MAX_ID + 1)}", None),
                         ("/gradio_api/queue/data", {"session_hash": "a\u202eb"}),
                         ("/gradio_api/queue/data", [("session_hash", "ok"),
                                                     ("session_hash", "x" * 70)])):
        got = ann.get(path, params=params)
        assert (got.status_code, got.json()) == (400, {"detail": NOT_AN_ID}), path
    cancel = ann.post("/gradio_api/cancel", json={"session_hash": "s" * 65,
                                                  "fn_index": 0, "event_id": "e"})
    assert (cancel.status_code, cancel.json()) == (400, {"detail": NOT_AN_ID})
    config = QueueCaller(server.url, ("ann", PASSWORD)).config()
    dep = next(d for d in config["dependencies"] if d["api_name"] == "load_item")
    joined = ann.post("/gradio_api/queue/join", json={
        "data": [None] * len(dep["inputs"]), "fn_index": dep["id"],
        "session_hash": "s" * 60_000, "event_data": None, "trigger_id": None})
    assert (joined.status_code, joined.json()) == (400, {"detail": NOT_AN_ID})


def test_an_event_the_server_does_not_hold_is_not_found_at_once(server, ann):  # noqa: F811
    for path in (f"/gradio_api/call/load_item/{uuid.uuid4().hex}",
                 f"/gradio_api/call/v2/load_item/{uuid.uuid4().hex}"):
        got = ann.get(path, timeout=20)
        assert (got.status_code, got.json()) == (404, NO_SUCH_EVENT), path
    called = ann.post("/gradio_api/call/load_item", json={"data": ["ui/alpha"]})
    event_id = called.json()["event_id"]
    first = read_within(ann, f"/gradio_api/call/load_item/{event_id}", 60)
    assert first.status_code == 200 and "event: " in first.text      # finished, read
    again = read_within(ann, f"/gradio_api/call/load_item/{event_id}", 20)  # waited for good
    assert (again.status_code, again.json()) == (404, NO_SUCH_EVENT)
    assert "request to /gradio_api/call/* failed" not in server.log.read_text()


def test_an_empty_session_hash_is_refused_like_any_other_bad_id(server, ann):  # noqa: F811
    """An empty id joined the queue (200, an event nobody owns, whose reads then failed and
    were logged as a server error): it is no id Gradio makes."""
    config = QueueCaller(server.url, ("ann", PASSWORD)).config()
    dep = next(d for d in config["dependencies"] if d["api_name"] == "load_item")
    for route, body in (("/gradio_api/queue/join", {
            "data": [None] * len(dep["inputs"]), "fn_index": dep["id"], "session_hash": "",
            "event_data": None, "trigger_id": None}),
            ("/gradio_api/call/load_item", {"data": ["ui/alpha"], "session_hash": ""}),
            ("/gradio_api/cancel", {"session_hash": "", "fn_index": 0, "event_id": "e"})):
        joined = ann.post(route, json=body)
        assert (joined.status_code, joined.json()) == (400, {"detail": NOT_AN_ID}), route
    for params in ({"session_hash": ""}, [("session_hash", "ok"), ("session_hash", "")]):
        got = ann.get("/gradio_api/queue/data", params=params)
        assert (got.status_code, got.json()) == (400, {"detail": NOT_AN_ID}), params
    assert "failed (RuntimeError)" not in server.log.read_text()
