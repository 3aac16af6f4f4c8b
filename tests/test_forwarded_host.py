"""Forwarded headers are believed from a trusted proxy only, and a login-free server answers
only to loopback names (ui/forwarded.py); the login page and /config are never cached.

`curl -H "X-Forwarded-Host: evil.test"` made the login page's root http://evil.test, /logout
redirected there, /config said so, and a POST with Origin http://evil.test was taken for one
of ClueLab's own pages (an attacker's review)."""
from __future__ import annotations

import httpx
import pytest

from tests.live_server import LiveServer, start_ui_server
from tests.queue_caller import QueueCaller
from ui.forwarded import NOT_LOOPBACK

PASSWORD = "forwarded-host-pw-1"
EVIL = {"X-Forwarded-Host": "evil.test", "X-Forwarded-Proto": "https",
        "Forwarded": "host=evil.test;proto=https"}


def auth_server(folder, env=None) -> LiveServer:
    return start_ui_server(folder, {"ann": "annotator"}, PASSWORD, env)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = auth_server(tmp_path_factory.mktemp("forwarded"))
    yield srv
    srv.stop()


def test_forwarded_headers_from_anyone_are_not_believed(server):
    login_page = httpx.get(server.url + "/", headers=EVIL)
    assert login_page.status_code == 200 and "evil.test" not in login_page.text
    assert login_page.headers["cache-control"] == "no-store"
    ann = QueueCaller(server.url, ("ann", PASSWORD))
    config = ann.http.get("/config", headers=EVIL)
    assert config.json()["root"] == server.url and "evil.test" not in config.text
    assert config.headers["cache-control"] == "no-store"
    forged = ann.http.post("/gradio_api/queue/join", json={}, headers={
        **EVIL, "Origin": "http://evil.test"})
    assert forged.status_code == 403
    logout = ann.http.get("/logout", headers=EVIL)
    assert "evil.test" not in logout.headers.get("location", "")


def test_a_trusted_proxy_is_believed(tmp_path):
    srv = auth_server(tmp_path, env={"FORWARDED_ALLOW_IPS": "127.0.0.1"})
    try:
        page = httpx.get(srv.url + "/", headers={"X-Forwarded-Host": "cluelab.example"})
        assert '"root":"http://cluelab.example"' in page.text.replace(" ", "")
    finally:
        srv.stop()


def test_a_login_free_server_answers_only_to_loopback_names(tmp_path):
    srv = start_ui_server(tmp_path)
    port = srv.url.rsplit(":", 1)[1]
    try:
        for host in (f"evil.test:{port}", "evil.test", f"127.0.0.1.evil.test:{port}"):
            got = httpx.get(srv.url + "/config", headers={"Host": host})
            assert (got.status_code, got.json()) == (403, NOT_LOOPBACK), host
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"):
            assert httpx.get(srv.url + "/config", headers={"Host": host}).status_code == 200
    finally:
        srv.stop()
