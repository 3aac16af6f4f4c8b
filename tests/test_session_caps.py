"""An account may have at most MAX_LIVE_SESSIONS sessions held by the server; its idle ones
are released first (ui/session_caps.py): against a real server under a login, whose idle
time is made short (CLUELAB_SESSION_IDLE_S) so a test can wait for it."""
from __future__ import annotations

import json
import time
import uuid

import pytest

from domain.limits import MAX_LIVE_SESSIONS
from tests.live_server import start_ui_server
from tests.queue_caller import QueueCaller
from tests import test_session_owners
from ui.session_caps import TOO_MANY, SessionCaps, Use
from ui.session_owners import NOT_HELD

PASSWORD = "session-caps-pw"
USERS = {"ann": "annotator", "ann2": "annotator", "ann3": "annotator", "ann4": "annotator",
         "ann5": "annotator"}
IDLE_S = 8
load_item = test_session_owners.load_item      # the fixture: an annotator's page's event
completed = test_session_owners.completed


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = start_ui_server(tmp_path_factory.mktemp("session-caps"), USERS, PASSWORD,
                          env={"CLUELAB_SESSION_IDLE_S": str(IDLE_S)})
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def people(server):
    return {name: QueueCaller(server.url, (name, PASSWORD)) for name in USERS}


def join(caller, load_item, session=None):
    dep, data = load_item
    return caller.http.post("/gradio_api/queue/join", json={
        "data": data, "fn_index": dep["id"], "session_hash": session or uuid.uuid4().hex,
        "event_data": None, "trigger_id": None})


def fill(caller, load_item, count=MAX_LIVE_SESSIONS) -> list[str]:
    """`count` fresh sessions, one event each (no heartbeat: what a script does)."""
    sessions = [uuid.uuid4().hex for _ in range(count)]
    for session in sessions:
        assert join(caller, load_item, session).status_code == 200
    return sessions


def refused(answer) -> bool:
    return answer.status_code == 429 and \
        answer.json() == {"detail": TOO_MANY.format(limit=MAX_LIVE_SESSIONS)}


def test_a_new_session_beyond_the_cap_is_refused_and_no_other_account_is(people, load_item):
    mine = fill(people["ann"], load_item)
    beyond = join(people["ann"], load_item)
    assert refused(beyond)
    assert f"at most {MAX_LIVE_SESSIONS}" in beyond.json()["detail"]
    assert "other tabs or windows" in beyond.json()["detail"]
    assert join(people["ann2"], load_item).status_code == 200      # another account
    assert join(people["ann"], load_item, mine[0]).status_code == 200   # a held session


def test_a_session_idle_for_its_time_is_released_and_frees_a_slot(people, load_item):
    caller = people["ann3"]
    sessions = fill(caller, load_item)
    assert refused(join(caller, load_item))
    time.sleep(IDLE_S + 1)
    assert join(caller, load_item).status_code == 200
    with caller.http.stream("GET", "/gradio_api/queue/data",        # its state is gone
                            params={"session_hash": sessions[0]}) as stream:
        assert any(line == f"data: {json.dumps(NOT_HELD)}"
                   for line in stream.iter_lines())


def test_a_page_with_its_heartbeat_open_keeps_its_session(people, load_item):
    caller = people["ann4"]
    page = uuid.uuid4().hex
    heartbeat = caller.http.send(caller.http.build_request(
        "GET", f"/gradio_api/heartbeat/{page}"), stream=True)
    try:
        alive = heartbeat.iter_lines()          # kept: a dropped iterator ends the stream
        assert next(alive) == "data: ALIVE"
        assert join(caller, load_item, page).status_code == 200
        fill(caller, load_item, MAX_LIVE_SESSIONS - 1)
        time.sleep(IDLE_S + 1)
        fill(caller, load_item, MAX_LIVE_SESSIONS - 1)    # the idle ones were released
        assert refused(join(caller, load_item))           # the page's was not
        event_id = join(caller, load_item, page).json()["event_id"]
        assert completed(caller, page, event_id)["success"] is True
    finally:
        heartbeat.close()


def test_calls_whose_results_were_read_never_meet_the_cap(people, load_item):
    """POST /gradio_api/call/<api> makes a session for its one event: once its result was
    read, nothing uses it again; the cap still holds for sessions in use."""
    caller = people["ann5"]
    for _ in range(MAX_LIVE_SESSIONS + 5):
        called = caller.http.post("/gradio_api/call/load_item", json={"data": load_item[1]})
        assert called.status_code == 200, called.text
        result = caller.http.get(f"/gradio_api/call/load_item/{called.json()['event_id']}",
                                 timeout=60)
        assert "event: complete" in result.text
    fill(caller, load_item)
    assert refused(join(caller, load_item))


def test_components_server_functions_are_closed(people):
    """No component of the app has one; Gradio made a session's state for each call."""
    got = people["ann"].http.post("/gradio_api/component_server", json={
        "session_hash": uuid.uuid4().hex, "component_id": 1, "fn_name": "x", "data": None})
    assert got.status_code == 403


class FakeGradio:
    def __init__(self):
        self.held_ids, self.running_ids, self.released = set(), set(), []
        self.unread_ids = set()

    def held(self, session):
        return session in self.held_ids

    def running(self, session):
        return session in self.running_ids

    def unread(self, session):
        return session in self.unread_ids

    def release(self, session):
        self.held_ids.discard(session)
        self.released.append(session)


def test_only_idle_sessions_are_released_at_the_cap():
    gradio, now = FakeGradio(), [0.0]
    caps = SessionCaps(gradio, limit=3, idle_s=60, clock=lambda: now[0])
    caps.uses["ann"] = {s: Use(0.0, call=False) for s in ("page", "busy", "old")}
    gradio.held_ids |= {"page", "busy", "old"}
    gradio.unread_ids.add("old")                # a client that never read its result
    gradio.running_ids.add("busy")
    caps.heartbeats["page"] = 1
    now[0] = 59
    caps.release_idle("ann")
    assert gradio.released == [] and caps.live("ann") == 3
    now[0] = 61
    caps.release_idle("ann")
    assert gradio.released == ["old"] and caps.live("ann") == 2


def test_closed_pages_are_released_at_the_cap_within_seconds():
    """A reloaded or closed tab (its heartbeat ended, its results read) counted for
    SESSION_IDLE_S: ~30 page loads in 3 minutes locked its user out (a review)."""
    gradio, now = FakeGradio(), [0.0]
    caps = SessionCaps(gradio, limit=2, idle_s=180, clock=lambda: now[0])
    caps.uses["ann"] = {s: Use(0.0, call=False) for s in ("closed", "open")}
    gradio.held_ids |= {"closed", "open"}
    caps.heartbeats["open"] = 1
    now[0] = 1
    caps.release_idle("ann")
    assert gradio.released == []                        # a reload's grace
    now[0] = 3
    caps.release_idle("ann")
    assert gradio.released == ["closed"] and caps.live("ann") == 1


def test_page_loads_one_after_another_never_meet_the_cap(people, load_item):
    """What a browser does on each page load: a heartbeat, an event whose result it reads,
    the heartbeat ended by the next page. Twice the cap of them in a row are all served."""
    caller = people["ann2"]
    for _ in range(2 * MAX_LIVE_SESSIONS):
        page = uuid.uuid4().hex
        heartbeat = caller.http.send(caller.http.build_request(
            "GET", f"/gradio_api/heartbeat/{page}"), stream=True)
        try:
            assert next(heartbeat.iter_lines()) == "data: ALIVE"
            joined = join(caller, load_item, page)
            assert joined.status_code == 200, joined.text
            assert completed(caller, page, joined.json()["event_id"])["success"] is True
        finally:
            heartbeat.close()
        time.sleep(0.1)
