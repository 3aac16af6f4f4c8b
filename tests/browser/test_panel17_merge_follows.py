"""Save merged of edits changed since the conflict panel was shown (panel17): bob's
question only, then typed over a question only the colleague had changed ("theirs kept",
no checkbox), was saved over theirs unasked. Now the panel is shown again, the question a
choice, and nothing is saved until Save merged of what it shows."""
from playwright.sync_api import expect

from store import Store
from tests.browser.test_annotate_flow import open_item, type_into


def test_a_question_typed_after_the_panel_opened_is_asked_not_saved_over(ui_server, browser):
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    open_item(page, ui_server.url, "ui/beta")
    colleague = Store.open(ui_server.db)
    beta = colleague.get_item("ui/beta")
    colleague.save_item({**beta, "question": "Their question?"}, beta["version"], "bob")
    type_into(page, "#item-gt-reasoning textarea", "My reasoning")
    page.click("#save-item")
    diff = page.locator("#conflict-diff")
    expect(diff).to_contain_text("them (theirs kept)", timeout=15000)
    expect(page.locator("#conflict-take-saved")).to_be_hidden()     # nothing to choose
    type_into(page, "#item-question textarea", "My question?")
    page.wait_for_timeout(800)
    page.click("#conflict-overwrite")
    expect(page.locator("#conflict-message")).to_contain_text(
        "Your edits changed since the comparison: check it again, then Save merged",
        timeout=15000)
    choice = page.locator("#conflict-take-saved label", has_text="question")
    expect(choice).to_be_visible()
    expect(diff).to_contain_text("both (you choose)")
    expect(diff).to_contain_text("My question?")
    saved = colleague.get_item("ui/beta")
    assert (saved["version"], saved["question"]) == (2, "Their question?"), saved
    assert colleague.get_draft("local", "ui/beta")["data"]["question"] == "My question?"
    # asked now: theirs taken for the question, my reasoning saved with it
    choice.click()
    page.click("#conflict-overwrite")
    expect(page.locator("#save-message")).to_contain_text("version 3", timeout=15000)
    saved = colleague.get_item("ui/beta")
    assert (saved["question"], saved["gt_reasoning"]) == ("Their question?", "My reasoning")
    colleague.close()
    page.close()
