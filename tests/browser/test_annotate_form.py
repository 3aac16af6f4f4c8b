"""The Annotate page's form in real Chromium: the save bar never says "Saved" beside unsaved
edits, Tab walks past the answer type without opening its list, and the options table is
shown for multiple-choice items only."""
from playwright.sync_api import expect

from tests.browser.test_annotate_flow import open_item, type_into


def test_an_edit_after_saving_takes_the_saved_line_away(ui_server, page):
    """"Saved … as version 2" stayed beside "unsaved edits (draft kept)" once the
    annotator typed again: two lines saying opposite things."""
    open_item(page, ui_server.url, "ui/beta")
    type_into(page, "#item-question textarea", "Is this a bus station?")
    expect(page.locator("#draft-state")).to_contain_text("draft kept", timeout=15000)
    page.click("#save-item")
    expect(page.locator("#save-message")).to_contain_text("version 2", timeout=15000)
    expect(page.locator("#draft-state")).to_have_text("", timeout=15000)
    type_into(page, "#item-question textarea", "Is this a train station?")
    expect(page.locator("#draft-state")).to_contain_text("draft kept", timeout=15000)
    expect(page.locator("#save-message")).to_have_text("", timeout=5000)
    expect(page.locator("#item-header")).to_contain_text("version 2")    # still said there
    # undoing the edit drops the draft: nothing unsaved, and no stale line either
    type_into(page, "#item-question textarea", "Is this a bus station?")
    expect(page.locator("#draft-state")).to_have_text("", timeout=15000)
