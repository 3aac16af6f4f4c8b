"""Under a login, a file in Gradio's upload folder is served only to the account that
uploaded it or whose page was handed it (ui/upload_owners.py): the app's own pages still
work with that. An annotator makes an item from an image it uploads, in real Chromium: the
image shows, and no request of the page is refused."""
from __future__ import annotations

import hashlib

import pytest
from playwright.sync_api import expect

from tests.browser.test_annotate_flow import show_list, type_into
from tests.browser.test_item_lifecycle_flow import ITEM_ID, open_menu
from tests.browser.test_refusals_flow import PASSWORD, logged_in
from tests.live_server import LiveServer, add_user, build_ui_db, make_scene


@pytest.fixture(scope="module")
def auth_server(tmp_path_factory):
    db = tmp_path_factory.mktemp("own-uploads") / "own.db"
    build_ui_db(db)
    add_user(db, "ann", "annotator", PASSWORD)
    server = LiveServer(db, "--auth")
    yield server
    server.stop()


def test_an_annotators_own_upload_makes_an_item_whose_image_shows(auth_server, browser,
                                                                    tmp_path):
    page = logged_in(browser, auth_server.url, "ann", "/?item=ui/alpha")
    answers = []
    page.on("response", lambda r: answers.append((r.status, r.url)))
    expect(page.locator(ITEM_ID).first).to_have_value("ui/alpha", timeout=20000)
    show_list(page)
    open_menu(page)
    type_into(page, "#new-item-id input", "street-7")
    type_into(page, "#new-item-question input", "Which street is this?")
    expect(page.locator("#lifecycle-message")).to_contain_text("New item ui/street-7",
                                                               timeout=15000)
    scene = make_scene(tmp_path / "street.png", color="#aabbcc")
    sha = hashlib.sha256(scene.read_bytes()).hexdigest()
    with page.expect_file_chooser() as chooser:
        page.click("#create-item")
    chooser.value.set_files(str(scene))
    expect(page.locator(ITEM_ID).first).to_have_value("ui/street-7", timeout=20000)
    page.wait_for_selector("#annotator canvas")
    page.wait_for_function("(sha) => performance.getEntriesByType('resource')"
                           ".some(e => e.name.includes(sha))", arg=sha[:16], timeout=20000)
    page.wait_for_timeout(1000)
    shown = [(status, url) for status, url in answers if sha[:16] in url]
    assert shown and all(status == 200 for status, _ in shown), shown
    uploads = [(status, url) for status, url in answers if "/gradio_api/upload" in url]
    assert uploads and all(status == 200 for status, _ in uploads), uploads
    refused = [(status, url) for status, url in answers if status >= 400]
    assert refused == [], refused
