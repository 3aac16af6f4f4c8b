"""Two tabs of one account on one item (annfix17): tab 1 saves, which drops the draft tab
2 restored; tab 2's line said "(draft kept)" until its next edit. Back in tab 2 it says the
draft is gone."""
import sqlite3

from playwright.sync_api import expect

from tests.browser.test_annotate_flow import open_item, type_into, wait_for_draft


def test_back_in_the_other_tab_the_draft_line_says_the_draft_is_gone(ui_server, browser):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    a = context.new_page()
    open_item(a, ui_server.url, "ui/alpha")
    type_into(a, "#item-question textarea", "Asked in tab A?")
    expect(a.locator("#draft-state")).to_contain_text("draft kept", timeout=15000)
    assert wait_for_draft(ui_server.db, "ui/alpha", "Asked in tab A?")
    b = context.new_page()
    open_item(b, ui_server.url, "ui/alpha")
    expect(b.locator("#draft-state")).to_contain_text("(draft kept)", timeout=15000)
    a.bring_to_front()
    a.click("#save-item")
    expect(a.locator("#save-message")).to_contain_text("version 2", timeout=15000)
    con = sqlite3.connect(ui_server.db)
    assert con.execute("SELECT count(*) FROM drafts WHERE item_id = 'ui/alpha'").fetchone() \
        == (0,)
    b.bring_to_front()
    b.evaluate("() => window.dispatchEvent(new Event('focus'))")   # back in tab B
    line = b.locator("#draft-state")
    expect(line).to_contain_text("the draft is gone (version 2 was saved by you, in another "
                                 "tab or window", timeout=15000)
    expect(line).not_to_contain_text("draft kept")
    expect(b.locator("#item-question textarea")).to_have_value("Asked in tab A?")
    context.close()
