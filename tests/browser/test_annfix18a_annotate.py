"""An annotator's review of the Annotate page (annfix18a, Chromium at 1400x900): a letter
pressed after Enter confirmed a clue's words was typed after them ("sun shadowc", kept in the
draft); a released item's Discard draft was disabled unless the page was reloaded on it; the
numeric gold's "Read as …" line came only after a save."""
import sqlite3

import pytest
from playwright.sync_api import expect

from store import Store
from tests.browser.test_annotate_flow import open_item, type_into, wait_for_draft
from tests.browser.test_annotate_workspace import mode
from tests.browser.workspace_fixtures import build_workspace_db
from tests.browser.test_annotate_annfix15 import released_over_a_draft
from tests.live_server import LiveServer

NUMBER = "#item-answer-number input, #item-answer-number textarea"


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    """build_workspace_db, plus ui/gone (released, with the local user's draft from before)
    and ui/price (numeric)."""
    directory = tmp_path_factory.mktemp("annfix18a")
    db = directory / "ws.db"
    build_workspace_db(db)
    store = Store.open(db)
    alpha = released_over_a_draft(store)
    store.create_item({"id": "ui/price", "question": "How heavy?", "images": alpha["images"],
                       "answer_type": "numeric", "answer": "12"}, "fixture")
    store.close()
    server = LiveServer(db, "--no-auth")
    server.db = db
    yield server
    server.stop()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    yield context.new_page()
    context.close()


def cell_texts(page):
    cells = page.locator("#clue-table [role=gridcell][data-col='1']").all_inner_texts()
    return [cell.split("\n")[0].strip() for cell in cells]      # not the cell menu's "⋮"


def test_a_letter_after_enter_does_not_go_into_the_clue_and_c_draws(srv, page):
    open_item(page, srv.url, "ui/wide")
    expect(page.locator("#clue-table")).to_contain_text("the wall", timeout=20000)
    page.click("#annotator button[aria-label='Drag boxes']")
    assert mode(page) == "drag"
    page.click("#add-clue")                       # the mouse stays over Add clue
    page.wait_for_timeout(800)
    page.keyboard.type("sun shadow")
    page.keyboard.press("Enter")
    expect(page.locator("#clue-table")).to_contain_text("sun shadow", timeout=20000)
    page.keyboard.press("c")                      # the draw key, the pointer not on the image
    page.wait_for_timeout(600)
    assert mode(page) == "create"
    page.keyboard.press("x")                      # nor any other letter
    page.keyboard.press("Backspace")              # nor a Backspace (it emptied the cell)
    page.wait_for_timeout(600)
    assert cell_texts(page) == ["the sign", "the wall", "sun shadow"]
    assert wait_for_draft(srv.db, "ui/wide", "sun shadow")
    with sqlite3.connect(srv.db) as con:
        draft = con.execute("SELECT data FROM drafts WHERE item_id = 'ui/wide'").fetchone()[0]
    assert "sun shadow\"" in draft and "sun shadowc" not in draft
    # editing on purpose still works: Enter on the selected cell opens it
    page.locator("#clue-table [role=gridcell]", has_text="sun shadow").click()
    page.wait_for_timeout(300)                    # the cell selected before its key
    page.keyboard.press("Enter")
    expect(page.locator("#clue-table textarea, #clue-table input").first).to_be_focused()
    page.keyboard.press("End")
    page.keyboard.type("s")
    page.keyboard.press("Enter")
    expect(page.locator("#clue-table")).to_contain_text("sun shadows", timeout=10000)


def test_a_released_items_draft_can_be_discarded_when_opened_by_its_id(srv, page):
    open_item(page, srv.url, "ui/alpha")
    discard = page.locator("#discard-draft")
    expect(discard).to_be_disabled(timeout=15000)       # nothing to discard on ui/alpha
    type_into(page, "#item-id input, #item-id textarea", "ui/gone")
    page.keyboard.press("Enter")
    notice = page.locator("#item-notice")
    expect(notice).to_contain_text("cannot be saved while it is released", timeout=20000)
    expect(discard).to_be_enabled(timeout=5000)


def test_the_numeric_golds_reading_shows_as_it_is_typed(srv, page):
    open_item(page, srv.url, "ui/price")
    field = page.locator(NUMBER)
    expect(field).to_have_value("12", timeout=20000)
    note = page.locator("#item-answer-note")
    type_into(page, NUMBER, "12,8 g")
    expect(note).to_contain_text("Read as 12.8 g", timeout=10000)
    type_into(page, NUMBER, "1,500 m")
    field.blur()
    expect(note).to_contain_text("Read as 1500 m", timeout=10000)
    type_into(page, NUMBER, "15")
    expect(note).not_to_contain_text("Read as", timeout=10000)


def test_a_letter_after_enter_does_not_go_into_the_option(srv, page):
    open_item(page, srv.url, "ui/gamma")                 # multiple choice
    expect(page.locator("#option-table")).to_contain_text("red", timeout=20000)
    page.click("#add-option")
    page.wait_for_timeout(800)
    page.keyboard.type("Lentils")
    page.keyboard.press("Enter")
    table = page.locator("#option-table")
    expect(table).to_contain_text("Lentils", timeout=20000)
    page.keyboard.type("xy")
    page.wait_for_timeout(600)
    texts = [cell.split("\n")[0].strip() for cell in
             table.locator("[role=gridcell][data-col='1']").all_inner_texts()]
    assert "Lentils" in texts and not any(t.startswith("Lentilsx") for t in texts), texts
