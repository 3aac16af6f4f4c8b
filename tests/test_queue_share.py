"""One account cannot fill the queue (ui/queue_share.py): under a login, a user's calls beyond
WAITING_PER_USER waiting ones are refused at once with a message, and another user's call is
still taken. Before, an annotator's 150 searches sent at once all queued, and a participant's
one call waited 16.9 s behind them."""
from __future__ import annotations

import inspect
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.live_server import LiveServer, add_user, build_ui_db
from tests.queue_caller import QueueCaller
from ui import queue_share

PASSWORD = "queue-share-pw-1"
LIMIT = 3     # low, so that a burst is sure to meet it


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("queue_share") / "q.db"
    build_ui_db(db)
    for name, role in (("ann", "annotator"), ("rev", "annotator")):
        add_user(db, name, role, PASSWORD)
    srv = LiveServer(db, "--auth", env={"CLUELAB_WAITING_PER_USER": str(LIMIT)})
    yield srv
    srv.stop()


def join(caller, config, api_name: str, n: int) -> list:
    """`n` calls of `api_name`, sent at once from 16 threads."""
    values = {c["id"]: c.get("props", {}).get("value") for c in config["components"]}
    dep = next(d for d in config["dependencies"] if d["api_name"] == api_name)
    session = uuid.uuid4().hex
    body = {"data": [values.get(i) for i in dep["inputs"]], "fn_index": dep["id"],
            "session_hash": session, "event_data": None, "trigger_id": None}
    with ThreadPoolExecutor(16) as pool:
        return list(pool.map(lambda _: caller.http.post("/gradio_api/queue/join", json=body),
                             range(n)))


def test_one_users_flood_is_cut_and_another_user_is_still_served(server):
    ann = QueueCaller(server.url, ("ann", PASSWORD))
    config = ann.config()
    replies = join(ann, config, "search_items", 200)
    refused = [r for r in replies if r.status_code != 200]
    assert refused, "no call was refused"
    assert {r.status_code for r in refused} == {503}
    assert refused[0].json()["detail"] == queue_share.TOO_MANY.format(limit=LIMIT)
    taken = join(QueueCaller(server.url, ("rev", PASSWORD)), config, "search_items", 1)
    assert taken[0].status_code == 200


def test_the_gradio_internals_the_cap_relies_on_are_still_there():
    from gradio import queueing, routes
    assert list(inspect.signature(queueing.Queue.push).parameters) == \
        ["self", "body", "request", "username"]
    assert "self.queue: list[Event] = []" in inspect.getsource(queueing.EventQueue.__init__)
    assert "self.username = username" in inspect.getsource(queueing.Event.__init__)
    assert "event_queue_per_concurrency_id" in inspect.getsource(queueing.Queue.__init__)
    assert '"queue_full": status.HTTP_503_SERVICE_UNAVAILABLE' in inspect.getsource(routes)
