"""The documents Gradio builds outside the queue (/config, the API description, the pages)
cannot be used to make everyone wait (ui/document_cache.py, ui/access.py).

160 GET /config, 16 at a time, from a participant made an annotator's load_item take 22 s,
100 GET /gradio_api/info 7 s: each was built anew per request, outside the queue and its
per-account limit. Participants no longer get them (they have no page and no event), each
document is built once for what it depends on, and a user's requests the cache cannot
answer (a new query each time) are built one at a time. Gradio's /gradio_api/run/<event>
ran any queued event outside the queue; it is closed (api_open=False)."""
from __future__ import annotations

import pytest

from tests import flood
from tests.live_server import LiveServer, add_user, build_ui_db
from tests.queue_caller import QueueCaller

PASSWORD = "document-flood-pw-1"
DESCRIPTIONS = ("/config", "/gradio_api/info", "/gradio_api/openapi.json", "/openapi.json")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("document_flood") / "d.db"
    build_ui_db(db)
    for name, role in (("ada", "admin"), ("ann", "annotator"), ("rev", "annotator"),
                       ("pat", "participant")):
        add_user(db, name, role, PASSWORD)
    srv = LiveServer(db, "--auth")
    yield srv
    srv.stop()


def test_the_description_is_for_staff_and_each_gets_their_own(server):
    pat, ann, ada = (QueueCaller(server.url, (name, PASSWORD)) for name in ("pat", "ann", "ada"))
    for path in DESCRIPTIONS:
        assert pat.get(path).status_code == 403, path
        assert ann.get(path).status_code == 200, path
    for _ in range(2):                    # the second answer comes from the cache
        mine, hers = ann.config(), ada.config()
        assert (mine["username"], hers["username"]) == ("ann", "ada")
        shown = {name: [p[0] for p in config["pages"] if p[2]]
                 for name, config in (("ann", mine), ("ada", hers))}
        assert "results" not in shown["ann"] and "results" in shown["ada"]
    assert ann.get("/config?page=stats").json()["current_page"] == "stats"
    page = ann.get("/stats")
    assert page.status_code == 200 and ann.get("/stats").text == page.text
    assert ann.http.head("/stats").headers["content-length"] == str(len(page.content))


def test_a_queued_event_is_not_run_outside_the_queue(server):
    ann = QueueCaller(server.url, ("ann", PASSWORD))
    config = ann.config()
    dep = next(d for d in config["dependencies"] if d["api_name"] == "search_items")
    values = {c["id"]: c.get("props", {}).get("value") for c in config["components"]}
    body = {"data": [values.get(i) for i in dep["inputs"]]}
    for route in ("/gradio_api/run/search_items", "/gradio_api/api/search_items"):
        assert ann.http.post(route, json=body).status_code == 403, route   # closed


@pytest.mark.parametrize("who, paths", [
    ("pat", ("/config", "/gradio_api/info")),
    ("ann", ("/config", "/gradio_api/info", "/", "/config?page={i}")),
])
def test_a_flood_of_documents_leaves_other_users_calls_their_speed(server, who, paths):
    rev = QueueCaller(server.url, ("rev", PASSWORD))
    config = rev.config()

    def load_item():
        assert rev.answers(config, only={"load_item"})["load_item"] != "no answer"
    before = flood.timed(load_item)
    during, statuses = flood.calls_during(
        flood.start(server.url, "get", 160, 16, who, PASSWORD, *paths), load_item)
    # before: a mean of 1.3-1.4 s against 0.07-0.08 s (22 s at worst on a reviewer's machine)
    assert flood.kept_speed(before, during), (before, during)
    assert set(statuses) == ({403} if who == "pat" else {200}), statuses


def test_a_page_the_app_does_not_have_is_one_document_not_one_each():
    """Gradio answers /config?page=<a name it does not have> as /config: the cache kept one
    copy per value, so one account's /config?page=1, 2, 3, … pushed the others' documents
    out (150 values: another's /config took 25 times longer). Such a value is no part of
    the key now; a page the app has still is."""
    from types import SimpleNamespace

    from ui import access
    from ui.document_cache import document_key
    blocks = SimpleNamespace(config={"page": {"": {}, "results": {}}})
    app = SimpleNamespace(get_blocks=lambda: blocks)
    who = access.Caller("ann", frozenset({"annotator"}))

    def key(query: bytes):
        return document_key({"type": "http", "method": "GET", "path": "/config",
                             "query_string": query, "headers": [], "app": app}, "/config", who)
    assert key(b"page=zzz") == key(b"page=other") == key(b"")
    assert key(b"page=results") != key(b"")
