"""An annotator's reloads on the Annotate page (annfix20a, Chromium): the revision comment
typed beside Save came back empty (the draft brought the GT reasoning back, unsaid that the
comment was gone); a reload with a new box's clue picker open brought the box back as a
black box labelled "(pick a clue)". Handlers: tests/test_annfix20a_drafts.py."""
import sqlite3
import time

from playwright.sync_api import expect

from tests.browser.test_annotate_dialogs import drag_box
from tests.browser.test_annotate_flow import open_item, type_into, wait_for_draft

COMMENT_BOX = "#save-comment input, #save-comment textarea"
COMMENT = "my long careful comment"


def draft_comment(db, item_id: str, text: str, seconds: float = 20) -> str | None:
    """The comment kept with the item's draft once it is `text` (within `seconds`), else
    the last one seen; None when there is no such column (the comment was not kept)."""
    con = sqlite3.connect(db)
    try:
        deadline, row = time.monotonic() + seconds, None
        while time.monotonic() < deadline:
            try:
                row = con.execute("SELECT comment FROM drafts WHERE item_id = ?",
                                  [item_id]).fetchone()
            except sqlite3.OperationalError:
                return None
            if row and row[0] == text:
                break
            time.sleep(0.2)
        return row[0] if row else None
    finally:
        con.close()


def test_the_revision_comment_comes_back_with_the_draft_and_is_saved(ui_server, page):
    open_item(page, ui_server.url, "ui/alpha")
    type_into(page, "#item-gt-reasoning textarea", "The sign over the door reads EXIT 12.")
    type_into(page, COMMENT_BOX, COMMENT)
    assert wait_for_draft(ui_server.db, "ui/alpha", "EXIT 12.")
    assert draft_comment(ui_server.db, "ui/alpha", COMMENT) == COMMENT
    page.reload()
    expect(page.locator("#item-gt-reasoning textarea")).to_have_value(
        "The sign over the door reads EXIT 12.", timeout=20000)
    expect(page.locator("#item-notice")).to_contain_text(
        "Restored your unsaved draft and its revision comment")
    expect(page.locator(COMMENT_BOX)).to_have_value(COMMENT)
    page.click("#save-item")
    expect(page.locator("#save-message")).to_contain_text("version 2", timeout=15000)
    expect(page.locator(COMMENT_BOX)).to_have_value("")
    con = sqlite3.connect(ui_server.db)
    try:
        assert con.execute("SELECT comment FROM revisions WHERE item_id = 'ui/alpha' "
                           "AND version = 2").fetchone() == (COMMENT,)
        assert con.execute("SELECT count(*) FROM drafts").fetchone() == (0,)
    finally:
        con.close()


def test_a_reload_with_the_clue_picker_open_brings_back_no_box(ui_server, page):
    open_item(page, ui_server.url, "ui/alpha")
    type_into(page, "#item-question textarea", "Which exit is nearest?")
    assert wait_for_draft(ui_server.db, "ui/alpha", "Which exit is nearest?")
    page.wait_for_timeout(1000)
    drag_box(page, 0.55, 0.55, 0.8, 0.8)          # the picker open over the new box
    page.wait_for_timeout(3000)                   # the draft's autosave has run
    page.reload()
    expect(page.locator("#item-question textarea")).to_have_value("Which exit is nearest?",
                                                                  timeout=20000)
    line = page.locator("#draft-state")
    expect(line).to_contain_text("unsaved edits of question (draft kept)", timeout=15000)
    expect(line).not_to_contain_text("box")
    con = sqlite3.connect(ui_server.db)
    try:
        data = con.execute("SELECT data FROM drafts WHERE item_id = 'ui/alpha'").fetchone()[0]
    finally:
        con.close()
    assert '"_unassigned": []' in data and "(pick a clue)" not in data, data
    # the page shows the item's own boxes only: none labelled "(pick a clue)"
    labels = page.evaluate("""() => [...document.querySelectorAll('#annotator *')]
        .map((e) => e.textContent).filter((t) => t && t.includes('(pick a clue)')).length""")
    assert labels == 0
