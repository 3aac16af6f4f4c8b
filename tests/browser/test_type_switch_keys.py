"""The Answer type chosen with the keys, in real Chromium against a real server and SQLite:
typing a type then Enter, the arrows then Enter, each switches the form as a mouse pick
does, and the draft holds what the page shows; typing then Tab chooses nothing (the list
shows its type again), and the form stays as it was.

The switch listened to the list's `select`, which Gradio sends for a mouse pick only: typed
"yes" and Enter, the list said yes_no while the form stayed the open answer's (gold box,
aliases, "the options wait aside… saved as open"), the draft said open, and Ctrl+S saved
yes_no with the gold dropped."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.test_annotate_flow import open_item
from tests.browser.test_type_switch_drafts import (draft_matches_page, page_shows,  # noqa: F401
                                                   stored, switch_server)

TYPE_BOX = "#item-answer-type input"


def typed_type(page, text: str, then: str = "Enter") -> None:
    page.locator(TYPE_BOX).click()
    page.keyboard.press("Control+A")
    page.keyboard.type(text)
    page.keyboard.press(then)


def settled(page, db, item_id: str, answer_type: str) -> None:
    """The list shows `answer_type`, the draft has it, and the form is the draft's."""
    expect(page.locator(TYPE_BOX)).to_have_value(answer_type, timeout=15000)
    draft_matches_page(page, db, item_id)
    assert stored(db, item_id)[0]["answer_type"] == answer_type


def test_a_type_chosen_with_the_keys_switches_the_form(switch_server, page):
    db, item_id = switch_server.db, "ui/gamma"        # multiple choice, gold A (blue)
    open_item(page, switch_server.url, item_id)
    expect(page.locator("#option-table")).to_contain_text("blue", timeout=20000)

    typed_type(page, "open")
    settled(page, db, item_id, "open")
    assert page_shows(page)["answer"] == "blue"       # option A's text, options aside
    expect(page.locator("#item-answer-note")).to_contain_text("options wait aside")

    typed_type(page, "yes")                           # the reviewer's keys: yes_no
    settled(page, db, item_id, "yes_no")
    expect(page.locator("#answer-text-panel")).to_be_hidden()
    expect(page.locator("#answer-yes-no-panel")).to_be_visible()

    page.locator(TYPE_BOX).click()                    # the arrows, then Enter
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    expect(page.locator(TYPE_BOX)).not_to_have_value("yes_no", timeout=15000)
    settled(page, db, item_id, page.locator(TYPE_BOX).input_value())

    # typed, then away with Tab: Gradio's list takes no typed text on Tab (it shows the
    # type it holds again), so the list and the form still agree, on the type before
    before = page.locator(TYPE_BOX).input_value()
    typed_type(page, "numeric", then="Tab")
    settled(page, db, item_id, before)

    typed_type(page, "numeric")
    settled(page, db, item_id, "numeric")
    expect(page.locator("#answer-number-panel")).to_be_visible()
    expect(page.locator("#options-panel")).to_be_hidden()

    typed_type(page, "multiple")                      # back: nothing to save
    settled(page, db, item_id, "multiple_choice")
    assert page_shows(page)["options"] == ["blue", "red"]
    page.click("#save-item")
    expect(page.locator("#save-message")).to_contain_text("Nothing to save", timeout=15000)
    assert stored(db, item_id)[1] == 1
