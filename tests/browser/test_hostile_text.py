"""Hostile text on every page, in real Chromium against a real server and SQLite.

A payload (a form with a password input, a link, an image fetching a beacon server started
here, a script) is put in URL parameters (`?item=`, `?response=`), item fields (id,
question, clue text and reasoning, answer, options, domain), a model id, file names and file
contents. On every page: no element of the payload exists in the DOM, the beacon gets no
request, no script ran, and the text is shown literally (toasts included: Gradio renders a
toast's message as HTML, so ui/messages escapes every one).
"""
from __future__ import annotations

import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from scoring.score_run import score_run
from tests.browser.test_annotate_flow import show_list
from tests.live_server import LiveServer, open_ui_store, free_port
from tests.scoring_helpers import make_run, write_legacy_names

TOAST = "[data-testid='toast-text']"
SHOTS = os.environ.get("CLUELAB_SCREENSHOTS")   # a folder: save screenshots to look at


class Beacon:
    """A local HTTP server that records every request: a payload that reached the DOM as
    markup (an <img>, a followed link or a submitted form) calls it."""

    def __init__(self):
        hits = self.hits = []

        class Record(BaseHTTPRequestHandler):
            def do_GET(self):
                hits.append(self.path)
                self.send_response(204)
                self.end_headers()

            do_POST = do_GET

            def log_message(self, *args):
                pass

        self.port = free_port()
        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Record)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def payload(self, tag: str) -> str:
        """Markup that, if rendered, shows a password form, a live link, fetches the beacon
        and runs a script; `tag` says where it was planted."""
        base = f"http://127.0.0.1:{self.port}/{tag}"
        return (f'<form action="{base}-form"><input type="password" name="pw"></form>'
                f'<a href="{base}-link">{tag} link</a><img src="{base}-img">'
                f'<script>window.__pwned="{tag}"</script> {tag} https://evil.example/{tag}')

    def compact(self, tag: str) -> str:
        """The payload's form, image and script in under 200 characters (the item id's
        limit, domain/limits.py)."""
        base = f"http://127.0.0.1:{self.port}/{tag}"
        return (f'<form action="{base}-form"><input type="password"></form>'
                f'<img src="{base}-img"><script>window.__pwned="{tag}"</script>')

    def short(self, tag: str) -> str:
        """A payload short enough for messages that cut what they quote (60 characters)."""
        return f"<img src=http://127.0.0.1:{self.port}/{tag}>"

    def stop(self):
        self.server.shutdown()


def assert_inert(page, beacon: Beacon) -> None:
    """No element from a payload, no request to the beacon, no script run, no auto-link."""
    page.wait_for_timeout(300)          # an <img> made from a payload would have fetched by now
    found = page.evaluate("""(port) => {
        const at = `127.0.0.1:${port}`;
        // (our own links may carry a payload percent-encoded in their query: not matched)
        const sel = `[src*="${at}"], [href^="http://${at}"], [action*="${at}"],
                     input[type=password], a[href*="//evil.example"]`;
        return {elements: [...document.querySelectorAll(sel)].map(e => e.outerHTML.slice(0, 200)),
                pwned: window.__pwned ?? null};
    }""", beacon.port)
    assert found == {"elements": [], "pwned": None}
    assert beacon.hits == []


def toast_says(page, text: str) -> None:
    expect(page.locator(TOAST).filter(has_text=text).first).to_be_visible(timeout=30000)


@pytest.fixture(scope="module")
def beacon_server():
    b = Beacon()
    yield b
    b.stop()


@pytest.fixture
def beacon(beacon_server):
    """The module's beacon with no hits yet: each test answers for its own page."""
    beacon_server.hits.clear()
    return beacon_server


@pytest.fixture(scope="module")
def hostile(tmp_path_factory, beacon_server):
    """A server on a database whose items, run and model carry payloads."""
    beacon = beacon_server
    db = tmp_path_factory.mktemp("hostile") / "hostile.db"
    store = open_ui_store(db)
    alpha = store.get_item("ui/alpha")
    item_id = "ui/" + beacon.compact("id")
    store.create_item({**alpha, "id": item_id, "question": beacon.payload("question"),
                       "answer": beacon.payload("answer"),
                       "gt_reasoning": beacon.payload("gt"),
                       "clues": [{"text": beacon.payload("clue"),
                                  "reasoning": beacon.payload("reasoning"), "boxes": []}]},
                      "fixture")
    write_legacy_names(store, item_id, {"domain": beacon.compact("domain")})
    gamma = store.get_item("ui/gamma")
    store.create_item({**gamma, "id": "ui/options", "options": [
        {"label": "A", "text": beacon.payload("option"), "image": None},
        {"label": "B", "text": "red", "image": None}]}, "fixture")
    make_run(store, "run-x", {item_id: beacon.payload("output"), "ui/options": "Answer: A"},
             model=beacon.payload("model"))
    score_run(store, "run-x")
    work_id = store.scoring_responses("run-x")[0]["work_id"]
    store.close()
    server = LiveServer(db, "--no-auth")
    server.item_id, server.work_id = item_id, work_id
    yield server
    server.stop()


def test_annotate_url_parameter_and_item_fields(hostile, beacon, page):
    # the link's id is not quoted (the address bar shows it): a crafted link put its own
    # words in the toast ("No item with id 'session expired, log in at …'")
    page.goto(hostile.url + "/?item=" + quote(beacon.compact("url-item"), safe=""))
    toast_says(page, "No item has the id in this page's address")
    assert page.locator(TOAST).filter(has_text="url-item").count() == 0
    assert_inert(page, beacon)
    if SHOTS:
        page.set_viewport_size({"width": 1400, "height": 900})
        page.screenshot(path=f"{SHOTS}/hostile-item-toast.png")

    page.goto(hostile.url + "/?item=" + quote(hostile.item_id, safe=""))
    expect(page.locator("#item-header")).to_contain_text('<form action="', timeout=20000)
    show_list(page)
    expect(page.locator("#item-list")).to_contain_text("<script>", timeout=20000)
    expect(page.locator("#clue-table")).to_be_visible(timeout=20000)
    assert_inert(page, beacon)
    page.click("#save-item")            # unchanged: the message names the id all the same
    expect(page.locator("#save-message")).to_contain_text(
        f"Nothing to save: {hostile.item_id} is as saved", timeout=20000)
    assert_inert(page, beacon)

    page.goto(hostile.url + "/?item=ui/options")
    expect(page.locator("#item-header")).to_contain_text("ui/options", timeout=20000)
    assert_inert(page, beacon)


def test_inspect_url_parameter_and_response(hostile, beacon, page):
    for route in ("/inspect?response=", "/?response="):
        page.goto(hostile.url + route + quote(beacon.payload("url-response"), safe=""))
        toast_says(page, "the response in this page's address is not a response number")
        assert page.locator(TOAST).filter(has_text="<form").count() == 0
        assert_inert(page, beacon)

    page.goto(f"{hostile.url}/inspect?response={hostile.work_id}")
    gold = page.locator("#inspect-gold")
    expect(gold).to_contain_text('<form action="http://127.0.0.1:', timeout=20000)
    expect(gold).to_contain_text("https://evil.example/gt")   # shown, not a link
    expect(page.locator("#inspect-header")).to_contain_text("<img src=")
    assert_inert(page, beacon)


def test_import_file_name_and_content(hostile, beacon, page, tmp_path):
    bad = tmp_path / (beacon.short("file").replace("/", "_") + ".tsv")
    bad.write_text(beacon.payload("header") + "\n1\t2\n", encoding="utf-8")
    page.goto(hostile.url + "/io")
    page.locator("#import-format input").first.click()
    page.locator("[data-testid='dropdown-option']", has_text="vlmevalkit").first.click()
    page.set_input_files("#import-file input[type=file]", str(bad))
    page.wait_for_timeout(1000)
    page.click("#import-start")
    expect(page.locator(TOAST).first).to_be_visible(timeout=20000)
    assert_inert(page, beacon)


def test_results_model_id_and_human_baseline_ids(hostile, beacon, page, tmp_path):
    page.goto(hostile.url + "/results")
    page.locator("#results-runs input").first.click()
    page.locator("[data-testid='dropdown-option']", has_text="run-x").first.click()
    page.keyboard.press("Escape")
    page.click("#results-show")
    expect(page.locator("#results-table")).to_contain_text("<script>", timeout=20000)
    assert_inert(page, beacon)
    human = tmp_path / "human.json"
    human.write_text(json.dumps({"label": "people", "results": {beacon.short("human"): True}}))
    page.set_input_files("#results-human-file input[type=file]", str(human))
    toast_says(page, f"<img src=http://127.0.0.1:{beacon.port}/human>")
    assert_inert(page, beacon)


def test_experiments_and_statistics_pages(hostile, beacon, page):
    page.goto(hostile.url + "/experiments")
    expect(page.locator("#runs-list")).to_contain_text("run-x", timeout=20000)
    assert_inert(page, beacon)
    page.goto(hostile.url + "/stats")
    expect(page.locator("#stats-text")).to_contain_text('<form action="', timeout=20000)
    assert_inert(page, beacon)
