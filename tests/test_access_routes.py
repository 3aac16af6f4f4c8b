"""Every HTTP route of the app, as anonymous, participant and annotator: one rule for the
answer of a refused route (ui/gradio_hooks.RouteAccess, the fixed bodies of
ui/route_answers.py).

- not logged in: 401 {"detail": "Not authenticated"} (a page: Gradio's login form);
- logged in, and the access table (ui/access.ROUTES) refuses the route: 403
  {"detail": "Forbidden"} (a page: assets/no_page.html, also a 403);
- logged in, and no route of the table has the path: 404 {"detail": "Not found"} (it
  answered 403 "Forbidden", as if there were something there);
- and the files the app really serves (an item's image, an export) answer that way too,
  while staff get them."""
from __future__ import annotations

import httpx
import pytest

from store import Store
from tests.live_server import start_ui_server
from tests.queue_caller import QueueCaller
from tests.test_access import _routes, app_routes  # noqa: F401 - the fixture
from ui import access, route_answers

PASSWORD = "route-sweep-pw"
USERS = {"ada": "admin", "pat": "participant", "ann": "annotator", "rita": "researcher"}
METHODS = ("GET", "POST", "HEAD")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = start_ui_server(tmp_path_factory.mktemp("route-sweep"), USERS, PASSWORD)
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def callers(server):
    return {"anonymous": QueueCaller(server.url),
            **{name: QueueCaller(server.url, (name, PASSWORD)) for name in ("pat", "ann")}}


def expected(who: str, path: str) -> int | None:
    """The refusal `who` gets at `path` (None: the route is theirs to reach)."""
    roles = access.route_roles(path)
    role = {"anonymous": "anonymous", "pat": "participant", "ann": "annotator"}[who]
    if role in roles:
        return None
    if role == "anonymous":
        return 401
    return 404 if access.route_entry(path) is None else 403


def check(answer: httpx.Response, status: int, method: str, page: bool) -> None:
    if page and status == 401:                  # Gradio's login form (/io/ redirects to /io)
        assert answer.status_code in (200, 301, 405)
        assert answer.status_code != 200 or method == "HEAD" or \
            '"auth_required":true' in answer.text
        return
    assert answer.status_code == status
    if method == "HEAD" or page:
        return
    body = route_answers.NOT_LOGGED_IN if status == 401 else route_answers.FIXED[status]
    assert answer.json() == body


@pytest.mark.parametrize("who", ["anonymous", "pat", "ann"])
def test_every_route_refuses_with_one_rule(callers, app_routes, who):  # noqa: F811
    caller = callers[who]
    wrong = {}
    for method, path in app_routes:
        status = expected(who, path)
        if method not in METHODS or status is None:
            continue
        page = access.route_entry(path) in access.PAGES
        try:
            check(caller.http.request(method, path, json={}), status, method, page)
        except AssertionError:
            wrong[f"{method} {path}"] = caller.http.request(method, path, json={}).status_code
    assert wrong == {}, who


def test_an_unknown_path_is_not_found_for_a_signed_in_user(callers):
    for path in ("/no/such/page", "/gradio_api/nothing-here"):
        check(callers["anonymous"].get(path), 401, "GET", False)
        for who in ("pat", "ann"):
            check(callers[who].get(path), 404, "GET", False)


def test_the_files_the_app_serves_follow_the_same_rule(server, callers):
    with Store.open(server.db) as store:
        image = store.get_item("ui/alpha")["images"][0]
        files = [str(store.image_path(image)), str(store.preview_path(image))]
    ann = callers["ann"]
    [export] = ann.answers(ann.config(), only={"export_file"}).values()
    files.append(export["output"]["data"][0]["path"])
    for path in files:
        for prefix in ("/gradio_api/file=", "/gradio_api/file/"):
            url = prefix + path
            check(callers["anonymous"].get(url), 401, "GET", False)
            check(callers["pat"].get(url), 403, "GET", False)
            for name in ("ann", "rita", "ada"):
                staff = callers.get(name) or QueueCaller(server.url, (name, PASSWORD))
                # a download is its own account's only (ui/downloads.py): the same fixed 403
                mine = path != files[-1] or name == "ann"
                got = staff.get(url)
                if mine:
                    assert got.status_code == 200, (name, url)
                else:
                    check(got, 403, "GET", False)


def test_an_oversized_request_is_refused_before_it_is_read(server, callers):
    """A signed-in user's 300 MB search text was taken into the queue (the server held it
    in memory); any request but an upload is now at most MAX_EVENT_BODY."""
    ann = callers["ann"]
    dep = next(d for d in ann.config()["dependencies"] if d["api_name"] == "search_items")

    def join(text: str, **kwargs) -> httpx.Response:
        body = {"data": ["(all)", "(all)", "(all)", "(all)", "all", text, 1],
                "fn_index": dep["id"], "session_hash": "s" * 10, "event_data": None,
                "trigger_id": None}
        return ann.http.post("/gradio_api/queue/join", json=body, **kwargs)
    big = "x" * (route_answers.MAX_EVENT_BODY + 1)
    refused = join(big)
    assert (refused.status_code, refused.json()) == (413, route_answers.TOO_LARGE)
    assert join("x" * 1_000_000).status_code == 200

    def chunks():                                   # no Content-Length: counted as read
        for _ in range(17):
            yield b"x" * (1024 * 1024)
    streamed = ann.http.post("/gradio_api/queue/join", content=chunks(),
                             headers={"content-type": "application/json"})
    assert (streamed.status_code, streamed.json()) == (413, route_answers.TOO_LARGE)
    upload = ann.http.post("/gradio_api/upload", files={"files": ("big.bin", big.encode())})
    assert upload.status_code == 200
    assert callers["anonymous"].http.post("/gradio_api/queue/join",
                                          content=big.encode()).status_code == 401


def test_another_sites_page_cannot_log_a_user_out(server):
    """An <img src=".../logout"> on another site's page ended the user's session."""
    ann = QueueCaller(server.url, ("ann", PASSWORD))
    for site in ("cross-site", "same-site"):          # same-site: another port of this host
        got = ann.http.get("/logout", headers={"sec-fetch-site": site})
        assert got.status_code == 403
        assert ann.get("/gradio_api/user").status_code == 200, site   # still logged in
    own = ann.http.get("/logout", headers={"sec-fetch-site": "same-origin"})
    assert own.status_code in (200, 302, 303, 307)
    assert ann.get("/gradio_api/user").status_code == 401


def test_a_path_with_line_breaks_is_not_found_and_never_logged(server, callers):
    """Gradio printed a custom-component file name into the server's log: %0d%0a in it
    forged a line of the caller's choosing."""
    path = "/gradio_api/custom_component/2/client/js/a%20b%0d%0aFORGED-LINE.js"
    got = callers["pat"].get(path)
    assert (got.status_code, got.json()) == (404, route_answers.FIXED[404])
    assert "FORGED-LINE" not in server.log.read_text()


def test_gradios_broken_call_v2_post_is_refused_not_a_server_error(server):
    ann = QueueCaller(server.url, ("ann", PASSWORD))     # (the logout test ended the others)
    got = ann.http.post("/gradio_api/call/v2/load_item", json={"data": []})
    assert (got.status_code, got.json()) == (400, route_answers.NO_SUCH_EVENT)


def test_gradios_direct_calls_are_closed_whatever_they_name(server):
    """POST /gradio_api/run/<name> and /api/<name> answered 404 for an event and 500 (with
    FnIndexInferError in the log) for any other name: closed to everyone, they answer alike."""
    rita = QueueCaller(server.url, ("rita", PASSWORD)).http
    for route in ("run", "api"):
        for name in ("load_item", "show_history", "predict", "no_such_event"):
            for body in ({"data": []}, {"data": [], "fn_index": 0}):
                got = rita.post(f"/gradio_api/{route}/{name}", json=body)
                assert (got.status_code, got.json()) == (403, route_answers.FIXED[403]), name
    log = server.log.read_text()
    assert "FnIndexInferError" not in log and "Traceback" not in log
