"""Keys that leave or save an item, in real Chromium (found by a context-free review):
- words typed into a clue's cell, its editor still open, were lost on Alt+→: Next was
  clicked with the table as it was before them (a click on Next closes the editor first);
- a tab asked which draft to keep (another tab of the same user changed the item's draft)
  left the item on Alt+→, its edits on the page only, lost; a toast said so with a raw time;
- after Ctrl+S the focus was on the page's body: the next keys went nowhere."""
from __future__ import annotations

import json
import sqlite3

import pytest
from playwright.sync_api import expect

from tests.browser.test_annotate_flow import open_item, show_list, type_into
from tests.live_server import start_ui_server


@pytest.fixture(scope="module")
def keys_server(tmp_path_factory):
    server = start_ui_server(tmp_path_factory.mktemp("navkeys"))
    yield server
    server.stop()


def draft_of(db, item_id):
    con = sqlite3.connect(db)
    try:
        found = con.execute("SELECT data FROM drafts WHERE item_id = ?", [item_id]).fetchone()
    finally:
        con.close()
    return json.loads(found[0]) if found else None


def item_id_box(page):
    return page.locator("#item-id textarea, #item-id input").first


def clue_texts(db, item_id):
    return [clue["text"] for clue in (draft_of(db, item_id) or {}).get("clues", [])]


def tab(browser, url, item_id):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    open_item(page, url, item_id)
    return context, page


def test_a_clue_cell_still_being_typed_in_goes_with_alt_right(keys_server, browser):
    context, page = tab(browser, keys_server.url, "ui/alpha")
    editor = page.locator("#clue-table textarea[aria-label='Edit cell']")
    expect(page.locator("#clue-table")).to_contain_text("clue 1", timeout=20000)
    page.locator("#clue-table [data-testid='cell-0-1']").dblclick()
    expect(editor).to_be_focused()
    editor.press("End")
    page.keyboard.type(" CELLFAST", delay=0)
    page.keyboard.press("Alt+ArrowRight")
    expect(item_id_box(page)).to_have_value("ui/beta", timeout=20000)
    assert clue_texts(keys_server.db, "ui/alpha") == ["The blue sign reads EXIT 12 CELLFAST"]
    page.keyboard.press("Alt+ArrowLeft")
    expect(item_id_box(page)).to_have_value("ui/alpha", timeout=20000)
    expect(page.locator("#clue-table [data-testid='cell-0-1']")).to_contain_text(
        "EXIT 12 CELLFAST", timeout=20000)

    page.click("#add-clue")            # the new row's text cell opens for typing
    expect(editor).to_be_focused(timeout=20000)
    page.keyboard.type("second clue typed fast", delay=0)
    page.keyboard.press("Alt+ArrowRight")
    expect(item_id_box(page)).to_have_value("ui/beta", timeout=20000)
    assert clue_texts(keys_server.db, "ui/alpha")[1:] == ["second clue typed fast"]
    page.keyboard.press("Alt+ArrowLeft")
    expect(item_id_box(page)).to_have_value("ui/alpha", timeout=20000)
    expect(page.locator("#clue-table [data-testid='cell-1-1']")).to_contain_text(
        "second clue typed fast", timeout=20000)
    context.close()


def test_next_waits_for_the_two_tab_choice(keys_server, browser):
    first, a = tab(browser, keys_server.url, "ui/gamma")
    second, b = tab(browser, keys_server.url, "ui/gamma")
    type_into(a, "#item-question textarea", "Asked in tab A?")
    expect(a.locator("#draft-state")).to_contain_text("draft kept", timeout=15000)
    type_into(b, "#item-question textarea", "Asked in tab B?")
    expect(b.locator("#draft-choice")).to_be_visible(timeout=15000)

    b.keyboard.press("Alt+ArrowLeft")
    note = b.locator("#draft-choice")
    expect(note).to_contain_text("Not opened", timeout=5000)
    b.click("#prev-item")
    show_list(b)
    b.locator("#item-list .virtual-row", has_text="ui/alpha").locator(".body-cell").first.click()
    b.wait_for_timeout(1500)          # any event sent would have opened another item by now
    expect(item_id_box(b)).to_have_value("ui/gamma")
    expect(b.locator("#item-question textarea")).to_have_value("Asked in tab B?")
    assert draft_of(keys_server.db, "ui/gamma")["question"] == "Asked in tab A?"

    b.once("dialog", lambda d: d.accept())    # "the other tab's edits are replaced"
    b.click("#draft-keep-mine")       # chosen: Previous goes on, the edits kept
    expect(b.locator("#draft-state")).to_contain_text("draft kept", timeout=15000)
    expect(b.locator("#draft-choice")).to_be_hidden()
    assert draft_of(keys_server.db, "ui/gamma")["question"] == "Asked in tab B?"
    b.keyboard.press("Alt+ArrowLeft")
    expect(item_id_box(b)).to_have_value("ui/beta", timeout=20000)
    first.close()
    second.close()
