"""Switching the answer type through every path, in real Chromium against a real server and
SQLite: after each switch the draft holds what the page shows, a reload shows it again, and a
walk that comes back to the starting type leaves nothing to save.

The walk's draft used to be written from the widgets as they were *before* the switch: a
location item switched to numeric and back showed its three aliases, but the draft (and so
the page after a reload, and the next Save) had none; a multiple-choice item's gold went the
same way (ui/annotate_drafts.py)."""
from __future__ import annotations

import json
import sqlite3
import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.browser.test_annotate_flow import open_item
from tests.browser.test_answer_controls import pick
from tests.live_server import LiveServer, open_ui_store
from ui import answer_form as af
from ui.editor_handlers import EditorHandlers

TYPES = ("location", "numeric", "open", "yes_no", "multiple_choice")
ALIASES = ["$germany,bavaria$", "$germany,bayern$", "$deutschland,bayern$"]


@pytest.fixture
def switch_server(tmp_path):
    """The UI test database with a location item (three aliases) and a numeric one."""

    db = tmp_path / "ui.db"
    store = open_ui_store(db)
    image = store.item_ids() and store.get_item("ui/alpha")["images"][0]
    base = {"dataset": "ui", "images": [image], "clues": [], "options": [], "gt_reasoning": "",
            "status": "draft", "problems": [], "metadata": {}}
    store.create_item({**base, "id": "ui/munich", "question": "Where is this street?",
                       "answer_type": "location", "answer": "$germany,bavaria/bayern$",
                       "aliases": ALIASES}, "fixture")
    store.create_item({**base, "id": "ui/wait", "question": "How long is the wait?",
                       "answer_type": "numeric", "answer": "8",
                       "aliases": ["8 minutes", "8 min"]}, "fixture")
    store.close()
    server = LiveServer(db, "--no-auth")
    server.db = db
    yield server
    server.stop()


def every_transition(start: str) -> list[str]:
    """The types to switch to, in order, so that every switch from one type to another is
    made once and the walk ends on `start` (an Euler circuit of the complete directed
    graph on the five types)."""
    left = {t: [u for u in TYPES if u != t] for t in TYPES}
    stack, circuit = [start], []
    while stack:
        here = stack[-1]
        if left[here]:
            stack.append(left[here].pop())
        else:
            circuit.append(stack.pop())
    circuit.reverse()
    assert len(circuit) == 21 and circuit[0] == circuit[-1] == start
    return circuit[1:]


def stored(db, item_id: str) -> tuple[dict, int]:
    """(the draft's item, or the saved one when there is no draft; the saved version)."""
    con = sqlite3.connect(db)
    try:
        draft = con.execute("SELECT data FROM drafts WHERE item_id = ?", (item_id,)).fetchone()
        version = con.execute("SELECT version FROM items WHERE id = ?", (item_id,)).fetchone()[0]
    finally:
        con.close()
    if draft:
        return json.loads(draft[0]), version
    from store import Store
    with Store.open(db) as store:
        return store.get_item(item_id), version


def expected_page(item: dict) -> dict:
    """What the page shows for `item`: the visible answer controls and their values."""
    form = EditorHandlers.form_values(item)
    panels = af.panels(item.get("answer_type"), item)
    shown = {"type": item.get("answer_type")}
    if panels["answer_text_panel"]:
        shown["answer"] = form["answer"]
    if panels["yes_no_panel"]:
        shown["yes_no"] = form["answer_yes_no"]
    if panels["number_panel"]:
        shown["number"] = form["answer_number"]
    if panels["location_panel"]:
        # the Country list shows the name ("Germany") of the value the gold writes
        names = {value: label for label, value in af.country_choices()}
        shown["location"] = (names.get(form["loc_country"], form["loc_country"]),
                             form["loc_region"], form["loc_aliases"])
    if panels["aliases_panel"]:
        shown["aliases"] = form["aliases"]
    if panels["options_panel"]:
        shown["options"] = [o.get("text") for o in item.get("options") or []]
    return shown


def page_shows(page) -> dict:
    """The visible answer controls and their values (None for a control that is being
    redrawn: the caller reads again)."""
    def value(selector):
        try:
            return page.locator(selector).first.input_value(timeout=2000)
        except PlaywrightTimeout:
            return None

    def visible(selector):
        return page.locator(selector).first.is_visible()

    shown = {"type": value("#item-answer-type input")}
    if visible("#answer-text-panel"):
        shown["answer"] = value("#item-answer input, #item-answer textarea")
    if visible("#answer-yes-no-panel"):
        checked = page.locator("#item-answer-yes-no input:checked")
        shown["yes_no"] = checked.first.get_attribute("value") if checked.count() else None
    if visible("#answer-number-panel"):
        shown["number"] = value("#item-answer-number input, #item-answer-number textarea")
    if visible("#answer-location-panel"):
        shown["location"] = (value("#item-loc-country input"),
                             value("#item-loc-region input, #item-loc-region textarea"),
                             value("#item-loc-aliases input, #item-loc-aliases textarea"))
    if visible("#answer-aliases-panel"):
        shown["aliases"] = value("#item-aliases textarea")
    if visible("#options-panel"):            # the text column of each row
        cells = page.locator("#option-table [data-testid^='cell-'][data-testid$='-1']")
        # read at once: a table re-drawn between a count and a cell's read left nth(i)
        # waiting 30 s for a cell no longer there (under load)
        shown["options"] = [text.strip() for text in cells.all_inner_texts()]
    return shown


def eventually(page, want, timeout: float = 15.0) -> None:
    """Wait until `want()` (what the page should show) is what it shows: the draft is
    written by the switch's own event a moment after the page changed, and a reloaded page
    fills its form after the first image."""
    deadline = time.monotonic() + timeout
    while True:
        expected, got = want(), page_shows(page)
        if expected == got:
            return
        if time.monotonic() > deadline:
            assert got == expected, f"the page shows {got}, not {expected}"
        page.wait_for_timeout(250)


def draft_matches_page(page, db, item_id: str) -> None:
    eventually(page, lambda: expected_page(stored(db, item_id)[0]))


def switch_to(page, answer_type: str) -> None:
    pick(page, "#item-answer-type", answer_type)
    expect(page.locator("#item-answer-type input")).to_have_value(answer_type)


@pytest.mark.parametrize("item_id, start", [("ui/munich", "location"),
                                            ("ui/gamma", "multiple_choice")])
def test_every_type_switch_keeps_the_draft_the_page_shows(switch_server, page, item_id,
                                                          start):
    db = switch_server.db
    saved, version = stored(db, item_id)
    open_item(page, switch_server.url, item_id)
    for step, answer_type in enumerate(every_transition(start), start=1):
        switch_to(page, answer_type)
        draft_matches_page(page, db, item_id)
        if step % 4 == 3:               # a reload shows the draft, set-aside parts kept
            before = page_shows(page)
            open_item(page, switch_server.url, item_id)
            expect(page.locator("#item-notice")).to_contain_text("Restored your unsaved draft",
                                                                 timeout=15000)
            eventually(page, lambda: before)
            draft_matches_page(page, db, item_id)
    # back on the starting type: the gold, aliases and options are the saved ones
    eventually(page, lambda: expected_page(saved))
    page.click("#save-item")
    expect(page.locator("#save-message")).to_contain_text("Nothing to save", timeout=15000)
    assert stored(db, item_id)[1] == version
