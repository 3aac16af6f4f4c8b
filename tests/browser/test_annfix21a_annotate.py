"""annfix21a, in Chromium: an annotator's round-21 findings on the Annotate page.

1. Two tabs of one account: tab 2 offered the two-tab choice, tab 1 saved, then "Open the
   other tab's draft" in tab 2 showed the saved version and tab 2's typed GT reasoning was
   gone. It is kept now, and the line says the other draft is gone.
2. A revision comment typed on its own was lost at a reload (no draft was written).
3. A clue cell's words typed without Enter came back after a reload with no "Restored your
   unsaved draft" notice.
Handlers: tests/test_annfix21a_drafts.py."""
import sqlite3

from playwright.sync_api import expect

from tests.browser.test_annfix20a_reload import COMMENT_BOX, draft_comment
from tests.browser.test_annotate_flow import (open_item, type_into,
                                              type_into_clue_cell_and_reload, wait_for_draft)

REASONING = "Typed in tab two: the sign over the door reads EXIT 12."


def test_opening_the_other_tabs_draft_after_it_was_saved_keeps_this_tabs_edits(
        ui_server, browser):
    context = browser.new_context(viewport={"width": 1600, "height": 1000})
    a, b = context.new_page(), context.new_page()
    for tab in (a, b):
        open_item(tab, ui_server.url, "ui/alpha")
        expect(tab.locator("#save-item")).to_be_visible(timeout=20000)
    a.bring_to_front()
    type_into(a, "#item-question textarea", "Which exit is nearest, tab one?")
    expect(a.locator("#draft-state")).to_contain_text("draft kept", timeout=15000)
    assert wait_for_draft(ui_server.db, "ui/alpha", "tab one?")
    b.bring_to_front()
    type_into(b, "#item-gt-reasoning textarea", REASONING)
    expect(b.locator("#draft-state")).to_contain_text("Not kept as a draft", timeout=15000)
    expect(b.locator("#draft-choice")).to_be_visible()
    a.bring_to_front()
    a.click("#save-item")
    expect(a.locator("#save-message")).to_contain_text("version 2", timeout=15000)
    b.bring_to_front()
    b.wait_for_timeout(1500)          # a return to the tab may recheck the choice first
    if b.locator("#draft-choice").is_visible():
        b.once("dialog", lambda d: d.accept())
        b.click("#draft-open-other")
    line = b.locator("#draft-state")
    expect(line).to_contain_text("The other tab's draft is gone (version 2 was saved by you",
                                 timeout=15000)
    expect(line).to_contain_text("(draft kept)")
    expect(b.locator("#draft-choice")).to_be_hidden()
    expect(b.locator("#item-gt-reasoning textarea")).to_have_value(REASONING)
    assert wait_for_draft(ui_server.db, "ui/alpha", "Typed in tab two")
    # a Save now shows the conflict panel, as for any edits of an older version
    b.click("#save-item")
    expect(b.locator("#conflict-message")).to_contain_text("version 2", timeout=15000)
    context.close()


def test_a_revision_comment_typed_alone_comes_back_after_a_reload(ui_server, page):
    open_item(page, ui_server.url, "ui/alpha")
    type_into(page, COMMENT_BOX, "checked the sign against the map")
    expect(page.locator("#draft-state")).to_contain_text("a revision comment (draft kept)",
                                                         timeout=15000)
    assert draft_comment(ui_server.db, "ui/alpha", "checked the sign against the map") == \
        "checked the sign against the map"
    page.reload()
    expect(page.locator(COMMENT_BOX)).to_have_value("checked the sign against the map",
                                                    timeout=20000)
    expect(page.locator("#item-notice")).to_contain_text("Restored your unsaved draft")
    expect(page.locator("#draft-state")).to_contain_text("a revision comment (draft kept)")
    page.click("#save-item")
    expect(page.locator("#save-message")).to_contain_text("Nothing to save", timeout=15000)
    expect(page.locator("#draft-state")).to_have_text("", timeout=15000)
    con = sqlite3.connect(ui_server.db)
    try:
        assert con.execute("SELECT count(*) FROM drafts").fetchone() == (0,)
    finally:
        con.close()


def test_a_clue_cell_given_back_after_a_reload_is_said_restored(ui_server, page):
    type_into_clue_cell_and_reload(page, ui_server.url, " and a half-typed thought")
    expect(page.locator("#clue-table [data-testid='cell-0-2']")).to_contain_text(
        "and a half-typed thought", timeout=30000)
    expect(page.locator("#draft-state")).to_contain_text("unsaved edits of clue 1",
                                                         timeout=15000)
    expect(page.locator("#item-notice")).to_contain_text("Restored your unsaved draft")
    assert wait_for_draft(ui_server.db, "ui/alpha", "and a half-typed thought")
    # gone once another item is open
    page.click("#next-item")
    expect(page.locator("#item-id textarea, #item-id input").first).not_to_have_value(
        "ui/alpha", timeout=20000)
    expect(page.locator("#item-notice")).not_to_contain_text("the words typed into clue",
                                                             timeout=5000)
