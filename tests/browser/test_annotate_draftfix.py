"""An annotator's review of the Annotate page (Chromium, 1400×900): removing the option the
gold answer names asked only "Remove option A …?", and the save was refused afterwards
("gold answer has no option")."""
from playwright.sync_api import expect

from tests.browser.test_annotate_flow import open_item
from tests.browser.test_annotate_selected_rows import SELECTED, at_1400, toast_says


def test_removing_the_option_the_gold_answer_names_says_so_first(ui_server, page):
    at_1400(page)
    open_item(page, ui_server.url, "ui/gamma")               # multiple choice, gold A
    table = page.locator("#option-table")
    expect(table).to_contain_text("red", timeout=20000)
    table.locator("[data-testid='cell-0-1']").click()
    expect(page.locator(SELECTED)).to_have_value("A", timeout=15000)
    page.keyboard.press("Escape")
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.click("#remove-option")
    page.wait_for_timeout(500)
    assert len(asked) == 1 and asked[0].startswith("Remove option A "), asked
    assert "The gold answer names it: a save is refused until the gold answer names an " \
           "option that is there." in asked[0], asked
    # another option: the question as before
    table.locator("[data-testid='cell-1-1']").click()
    expect(page.locator(SELECTED)).to_have_value("B", timeout=15000)
    page.keyboard.press("Escape")
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.click("#remove-option")
    toast_says(page, 'Removed option B "red".')
    assert asked[1] == 'Remove option B "red"? Discard draft brings it back until you save.'
