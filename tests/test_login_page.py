"""What a caller who is not logged in can read: the login page and what it is made of, and
nothing about the app's events, components or files.

Gradio's login page embedded the whole API description (every documented event, its
parameters, code to call it: 130 KB), the annotator's preload links and a script comment
naming ClueLab's files (ui/login_throttle.py, ui/workarounds.py)."""
from __future__ import annotations

import re

import httpx
import pytest

from tests.live_server import start_ui_server
from ui import access

PASSWORD = "login-page-pw-1"
ASKED = ["/", "/login", "/config", "/info", "/gradio_api/info", "/gradio_api/openapi.json",
         "/openapi.json", "/?view=api", "/?view=api&all_endpoints=true", "/manifest.json",
         "/robots.txt", "/gradio_api/startup-events", "/gradio_api/login_check",
         *access.PAGES, *(page + "?view=api" for page in access.PAGES)]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = start_ui_server(tmp_path_factory.mktemp("login-page"), {"ada": "admin"}, PASSWORD)
    yield srv
    srv.stop()


def revealed(text: str, db) -> list[str]:
    """What of the app `text` names: events, API terms, ClueLab's files and folders."""
    events = [name for name in access.GROUP_OF_EVENT if "_" in name and name in text]
    terms = [t for t in ("api_name", "named_endpoints\":{\"", "parameter_name", "fn_index",
                         "custom_component", "gradio_image_annotation", "Image_annotator",
                         "elem_id", "login_throttle", "workarounds", "login_lock", "cluelab.css",
                         str(db.parent), "-media")
             if t in text]
    files = re.findall(r"\b(?:ui|store|assets|cli|runner)/\w+\.(?:py|js|css)", text)
    return events + terms + files


@pytest.mark.parametrize("path", ASKED)
def test_an_anonymous_caller_learns_nothing_about_the_app(server, path):
    got = httpx.get(server.url + path, timeout=30, follow_redirects=True)
    assert got.status_code in (200, 401), path
    assert revealed(got.text, server.db) == [], path


def test_the_login_page_still_logs_in_and_says_why_it_refused(server):
    page = httpx.get(server.url + "/", timeout=30).text
    assert '"auth_required":true' in page and "cluelab-login-lock" in page
    assert "window.gradio_api_info" in page and "/search_items" not in page
    session = httpx.Client(base_url=server.url, timeout=30)
    assert session.post("/login", data={"username": "ada", "password": PASSWORD}).status_code \
        == 200
    signed_in = session.get("/").text          # a logged-in page keeps its API description
    assert "/search_items" in signed_in and "api_name" in signed_in
