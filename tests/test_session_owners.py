"""A session of the queue and its events are the account's that opened them (ui/session_owners.py),
and every answer says no other site may frame it (ui/route_answers.SAFETY_HEADERS): against a
real server under a login, with an annotator's events and a participant (and a researcher)
who learnt their ids."""
from __future__ import annotations

import json
import socket
import uuid

import pytest

from tests.queue_caller import QueueCaller
from tests.test_access_routes import PASSWORD, server  # noqa: F401 - the fixture
from ui import route_answers
from ui.access import NOT_ALLOWED
from ui.session_owners import ANOTHER_ACCOUNTS, ANOTHER_ACCOUNTS_UPLOAD, SessionOwners

FORBIDDEN = {"detail": ANOTHER_ACCOUNTS}   # every refusal of another account's session
UPLOAD_FORBIDDEN = {"detail": ANOTHER_ACCOUNTS_UPLOAD}


@pytest.fixture(scope="module")
def people(server):  # noqa: F811 - the fixture
    """An annotator, a participant and a researcher, each logged in."""
    return {name: QueueCaller(server.url, (name, PASSWORD)) for name in ("ann", "pat", "rita")}


@pytest.fixture(scope="module")
def load_item(people):
    """The page's load_item event and its inputs for the first item (what an annotator's
    page sends when it opens ui/alpha: the answer is the item, gold answer included)."""
    config = people["ann"].config()
    dep = next(d for d in config["dependencies"] if d["api_name"] == "load_item")
    values = {c["id"]: c.get("props", {}).get("value") for c in config["components"]}
    data = [values.get(i) for i in dep["inputs"]]
    data[0] = "ui/alpha"
    return dep, data


def join(caller, dep, data, session):
    return caller.http.post("/gradio_api/queue/join", json={
        "data": data, "fn_index": dep["id"], "session_hash": session,
        "event_data": None, "trigger_id": None})


def completed(caller, session, event_id) -> dict:
    with caller.http.stream("GET", "/gradio_api/queue/data",
                            params={"session_hash": session}, timeout=60) as stream:
        for line in stream.iter_lines():
            if line.startswith("data:"):
                message = json.loads(line[5:])
                if message.get("event_id") == event_id and \
                        message.get("msg") == "process_completed":
                    return message
    raise AssertionError("no completion")


def test_nobody_else_reads_joins_ends_or_cancels_a_session(people, load_item):
    dep, data = load_item
    session = uuid.uuid4().hex
    joined = join(people["ann"], dep, data, session)
    assert joined.status_code == 200
    event_id = joined.json()["event_id"]
    for name in ("pat", "rita"):            # a participant, and a researcher (staff) too
        other = people[name].http
        mine = uuid.uuid4().hex                 # Gradio reads the last of two session_hash
        for path, params in (("/gradio_api/queue/data", {"session_hash": session}),
                             ("/gradio_api/queue/data", [("session_hash", mine),
                                                         ("session_hash", session)]),
                             (f"/gradio_api/call/load_item/{event_id}", None),
                             (f"/gradio_api/call/v2/load_item/{event_id}", None),
                             (f"/gradio_api/heartbeat/{session}", None)):
            got = other.get(path, params=params)
            assert (got.status_code, got.json()) == (403, FORBIDDEN), (name, path)
        cancel = other.post("/gradio_api/cancel", json={
            "session_hash": session, "fn_index": dep["id"], "event_id": event_id})
        assert (cancel.status_code, cancel.json()) == (403, FORBIDDEN)
        joined_in = join(people[name], dep, data, session)
        if name == "pat":             # who may not call it is refused by role first
            assert joined_in.status_code == 403 and NOT_ALLOWED in joined_in.json()["detail"]
            continue
        assert (joined_in.status_code, joined_in.json()) == (403, FORBIDDEN)
    message = completed(people["ann"], session, event_id)      # the owner still gets it
    assert message["success"] is True
    assert "ui/alpha" in json.dumps(message["output"])


def test_an_events_result_by_its_id_is_its_callers_only(people, load_item):
    """POST /gradio_api/call/<api> names no session: the event's id is its session."""
    dep, data = load_item
    called = people["ann"].http.post("/gradio_api/call/load_item", json={"data": data})
    assert called.status_code == 200
    event_id = called.json()["event_id"]
    stolen = people["pat"].http.get(f"/gradio_api/call/load_item/{event_id}")
    assert (stolen.status_code, stolen.json()) == (403, FORBIDDEN)
    own = people["ann"].http.get(f"/gradio_api/call/load_item/{event_id}", timeout=60)
    assert own.status_code == 200 and "event: complete" in own.text and "ui/alpha" in own.text


def test_an_own_new_session_is_used_as_before(people, load_item):
    dep, data = load_item
    session = uuid.uuid4().hex
    event_id = join(people["rita"], {"id": dep["id"]}, data, session).json()["event_id"]
    assert completed(people["rita"], session, event_id)["success"] is True
    assert people["ann"].http.get("/gradio_api/queue/data",
                                  params={"session_hash": session}).status_code == 403
    # a call refused by role is refused at the queue's door (ui/queue_door.py): the
    # session it named stays nobody's
    assert join(people["pat"], {"id": dep["id"]}, data, session).status_code == 403


def test_an_event_the_app_does_not_have_is_named_not_a_server_error(people):
    got = people["ann"].http.post("/gradio_api/queue/join", json={
        "data": [], "fn_index": 99999, "session_hash": uuid.uuid4().hex})
    assert got.status_code == 400 and "no event number 99999" in got.json()["detail"]
    for name in ("nonexistent", "load_itemX"):               # Gradio: a 500
        got = people["ann"].http.post(f"/gradio_api/call/{name}", json={"data": []})
        assert (got.status_code, got.json()) == (400, route_answers.NO_SUCH_EVENT)
    unread = people["ann"].http.post("/gradio_api/queue/join", json={   # pydantic quoted "x"
        "data": [], "fn_index": "<b>x</b>", "session_hash": uuid.uuid4().hex})
    assert (unread.status_code, unread.json()) == (422, route_answers.NOT_UNDERSTOOD)


def test_oversized_logins_and_cancels_are_refused_naming_the_limit(server, people):  # noqa: F811
    big = b"x" * (route_answers.MAX_CANCEL_BODY + 1)
    anonymous = QueueCaller(server.url).http
    for caller, path in ((anonymous, "/login"), (people["ann"].http, "/gradio_api/cancel")):
        got = caller.post(path, content=big,
                          headers={"content-type": "application/x-www-form-urlencoded"})
        assert (got.status_code, got.json()) == (413, route_answers.SMALL_TOO_LARGE), path
        assert "64 KB" in got.json()["detail"]

    def chunks():                                   # no Content-Length: counted as read
        for _ in range(20):
            yield b"x" * (1024 * 1024)
    chunked = people["ann"].http.post("/gradio_api/cancel", content=chunks())
    assert (chunked.status_code, chunked.json()) == (413, route_answers.SMALL_TOO_LARGE)
    host, port = server.url.split("//")[1].rstrip("/").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as raw:   # says 1 GB
        raw.sendall(b"POST /login HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000\r\n"
                    b"Content-Type: application/x-www-form-urlencoded\r\n\r\nusername=a")
        assert raw.recv(200).startswith(b"HTTP/1.1 413")
    assert "16 MB" in route_answers.TOO_LARGE["detail"]


@pytest.mark.parametrize("who, path", [
    (None, "/"), (None, "/gradio_api/queue/data"), ("ann", "/"), ("ann", "/config"),
    ("pat", "/"), ("pat", "/no/such/page"), ("ann", "/assets/index.js")])
def test_every_answer_forbids_framing_by_another_site(server, people, who, path):  # noqa: F811
    caller = people[who].http if who else QueueCaller(server.url).http
    got = caller.get(path)
    assert got.headers["x-frame-options"] == "SAMEORIGIN", (who, path, got.status_code)
    assert got.headers["content-security-policy"] == "frame-ancestors 'self'"
    assert got.headers["x-content-type-options"] == "nosniff"


def test_an_owner_is_kept_while_gradio_holds_the_session():
    live = {"held"}
    owners = SessionOwners(live=lambda s: s in live, limit=10)
    assert owners.claim("held", "ann") and not owners.claim("held", "pat")
    for i in range(20):
        assert owners.claim(f"s{i}", "ann")
    assert len(owners.owners) <= 10 + 1
    assert not owners.claim("held", "pat")               # the oldest, still held: kept
    assert owners.claim("s19", "ann") and not owners.claim("s19", "pat")


def test_an_uploads_progress_is_its_uploaders_only(people):
    """Gradio gave any account the progress stream of another's upload (`?upload_id=`): the
    file's name as it came in, and the updates the owner's bar then missed (an attacker's
    review). The first account to name an upload id owns it, as a session's."""
    upload_id = uuid.uuid4().hex[:12]
    sent = people["ann"].http.post("/gradio_api/upload", params={"upload_id": upload_id},
                                   files={"files": ("patient-042.png", b"\x89PNG" * 10)})
    assert sent.status_code == 200, sent.text
    theirs = people["rita"].http.get("/gradio_api/upload_progress",
                                     params={"upload_id": upload_id})
    assert (theirs.status_code, theirs.json()) == (403, UPLOAD_FORBIDDEN)
    assert "patient-042" not in theirs.text
    own = people["ann"].http.get("/gradio_api/upload_progress", params={"upload_id": upload_id})
    assert own.status_code != 403          # Gradio's answer (its tracking of it has ended)
    # an id someone else named first is not another account's to upload under
    taken = uuid.uuid4().hex[:12]
    people["rita"].http.get("/gradio_api/upload_progress", params={"upload_id": taken})
    refused = people["ann"].http.post("/gradio_api/upload", params={"upload_id": taken},
                                      files={"files": ("a.png", b"\x89PNG")})
    assert (refused.status_code, refused.json()) == (403, UPLOAD_FORBIDDEN)
    # a heartbeat under an upload's id (a participant may send one) does not claim it: upload
    # ids are kept apart from sessions (it blocked the annotator's upload; a review)
    heartbeat_id = uuid.uuid4().hex[:12]
    with people["pat"].http.stream("GET", f"/gradio_api/heartbeat/{heartbeat_id}") as beat:
        assert beat.status_code == 200
    own = people["ann"].http.post("/gradio_api/upload", params={"upload_id": heartbeat_id},
                                  files={"files": ("a.png", b"\x89PNG")})
    assert own.status_code == 200, own.text
    # an id Gradio never makes is refused before anything keeps it
    odd = people["ann"].http.get("/gradio_api/upload_progress", params={"upload_id": "x" * 500})
    assert odd.status_code == 400
