"""An annotator's review of the Annotate page, in real Chromium at 1400x900: typing into the
answer type changed its value letter by letter ("multiple_chopeoice")."""
import pytest
from playwright.sync_api import expect

from tests.browser.test_annotate_flow import open_item
from tests.live_server import start_ui_server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = start_ui_server(tmp_path_factory.mktemp("annfix"))
    yield server
    server.stop()


@pytest.fixture
def page(page):
    page.set_viewport_size({"width": 1400, "height": 900})
    return page


def test_typing_into_the_answer_type_replaces_it_and_never_leaves_a_non_type(server, page):
    """Keys typed into the answer type went into its value at the cursor, and Enter kept
    "multiple_chopeoice" on screen as the type (assets/type_choice.js)."""
    open_item(page, server.url, "ui/gamma")
    answer_type = page.locator("#item-answer-type input")
    expect(answer_type).to_have_value("multiple_choice", timeout=20000)
    answer_type.click()
    page.keyboard.press("End")
    for _ in range(4):
        page.keyboard.press("ArrowLeft")
    page.keyboard.type("xyz")                   # the typed text replaces the type shown
    expect(answer_type).to_have_value("xyz")
    page.keyboard.press("Enter")                # it names no type: the type held is back
    expect(answer_type).to_have_value("multiple_choice", timeout=5000)
    expect(page.locator("#option-table")).to_be_visible()
    answer_type.click()
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    page.keyboard.type("ope")                   # a type typed, then Enter, is chosen
    expect(answer_type).to_have_value("ope")
    page.keyboard.press("Enter")
    expect(answer_type).to_have_value("open", timeout=5000)
    expect(page.locator("#option-table")).to_be_hidden(timeout=15000)


def test_the_restored_draft_line_goes_when_the_draft_does(server, page):
    """"Restored your unsaved draft" stayed after the edit was undone and saved: the save
    said "Nothing to save", the line still said a draft was there."""
    open_item(page, server.url, "ui/beta")
    question = page.locator("#item-question textarea")
    question.click()
    page.keyboard.press("End")
    page.keyboard.type("!")
    expect(page.locator("#draft-state")).to_contain_text("draft kept", timeout=15000)
    open_item(page, server.url, "ui/beta")
    notice = page.locator("#item-notice")
    expect(notice).to_contain_text("Restored your unsaved draft", timeout=15000)
    question.click()
    page.keyboard.press("End")
    page.keyboard.press("Backspace")
    expect(page.locator("#draft-state")).to_have_text("", timeout=15000)
    page.click("#save-item")
    expect(page.locator("#save-message")).to_contain_text("Nothing to save", timeout=15000)
    expect(notice).not_to_contain_text("Restored your unsaved draft", timeout=5000)
