"""Defects a context-free annotator review found on the Annotate page (Chromium, 1400×900):
the item menu's Deleted items list and Reason after a delete or restore, the draft line after
a reload, the "?" key, a click on the read-only item list, the Mark resolved button and the
screen reader's status words."""
from playwright.sync_api import expect

from store import Store
from tests.browser.test_annotate_flow import open_item, show_list, type_into
from tests.browser.test_item_lifecycle_flow import open_menu

NOT_FOUND = "image file not found: image 1 (a file at that path inside the image folder)"


def deleted_choices(page) -> list[str]:
    page.locator("#deleted-items input").click()
    options = page.locator("[data-testid='dropdown-option']")
    names = [o.strip() for o in options.all_inner_texts()]
    page.keyboard.press("Escape")
    return names


def test_delete_and_restore_refresh_the_deleted_list_and_empty_the_reason(ui_server, page):
    """An item deleted in this session was not listed; a restored one stayed listed and
    picked; the Reason kept its text for the next action."""
    page.set_viewport_size({"width": 1400, "height": 900})
    open_item(page, ui_server.url, "ui/beta")
    open_menu(page)
    assert "ui/beta" not in deleted_choices(page)
    type_into(page, "#lifecycle-reason input", "wrong image")
    page.once("dialog", lambda d: d.accept())
    page.click("#delete-item")
    expect(page.locator("#item-id textarea, #item-id input").first).not_to_have_value(
        "ui/beta", timeout=20000)
    open_menu(page)                        # closed as the next item opened
    expect(page.locator("#lifecycle-reason input")).to_have_value("", timeout=15000)
    assert "ui/beta" in deleted_choices(page)
    page.locator("#deleted-items input").click()
    page.keyboard.type("ui/beta")
    page.keyboard.press("Enter")
    expect(page.locator("#deleted-items input")).to_have_value("ui/beta", timeout=5000)
    type_into(page, "#lifecycle-reason input", "deleted by mistake")
    said = []
    page.once("dialog", lambda d: (said.append(d.message), d.accept()))  # Restore asks first
    page.click("#restore-deleted")
    expect(page.locator("#item-id textarea, #item-id input").first).to_have_value(
        "ui/beta", timeout=20000)
    expect(page.locator("#save-message")).to_contain_text("Restored ui/beta (version",
                                                          timeout=15000)
    open_menu(page)                  # closed once the restore succeeded (annfix25)
    expect(page.locator("#lifecycle-reason input")).to_have_value("", timeout=15000)
    expect(page.locator("#deleted-items input")).to_have_value("")
    assert "ui/beta" not in deleted_choices(page)
    assert said and "Restore deleted item ui/beta?" in said[0], said
    expect(page.locator("#save-message")).to_contain_text("Restored ui/beta (version")
    page.screenshot(path="/tmp/wt-h12-ui-review-menu.png")


def test_a_restored_draft_says_unsaved_edits_until_saved(ui_server, page):
    open_item(page, ui_server.url, "ui/gamma")
    type_into(page, "#item-question textarea", "A draft to come back to?")
    expect(page.locator("#draft-state")).to_contain_text("draft kept", timeout=15000)
    page.reload()
    expect(page.locator("#item-notice")).to_contain_text("unsaved draft", timeout=20000)
    expect(page.locator("#draft-state")).to_contain_text("unsaved edits of question (draft kept)",
                                                         timeout=15000)
    page.click("#save-item")
    expect(page.locator("#save-message")).to_contain_text("version 2", timeout=15000)
    expect(page.locator("#draft-state")).to_have_text("", timeout=15000)


def test_the_question_mark_key_opens_and_closes_the_key_help(ui_server, page):
    open_item(page, ui_server.url, "ui/alpha")
    help_text = page.locator("#annotator-help details > div")
    expect(help_text).to_be_hidden()
    page.locator("#item-header").click()          # no text field has the focus
    page.keyboard.press("?")
    expect(help_text).to_be_visible(timeout=5000)
    page.keyboard.press("?")
    expect(help_text).to_be_hidden(timeout=5000)
    page.keyboard.press("?")
    expect(help_text).to_be_visible(timeout=5000)
    page.keyboard.press("Escape")                 # closes it too, as it closes popups
    expect(help_text).to_be_hidden(timeout=5000)
    type_into(page, "#item-question textarea", "Why?")  # typed, not a shortcut
    expect(help_text).to_be_hidden()
    expect(page.locator("#item-question textarea")).to_have_value("Why?")


def test_a_click_on_the_item_list_frames_no_cell(ui_server, page):
    page.set_viewport_size({"width": 1400, "height": 900})
    open_item(page, ui_server.url, "ui/alpha")
    show_list(page)
    page.locator("#item-list .virtual-row .body-cell").nth(4).click()
    expect(page.locator("#item-id textarea, #item-id input").first).not_to_have_value(
        "ui/alpha", timeout=20000)
    page.wait_for_timeout(500)
    framed = page.evaluate("""() => [...document.querySelectorAll(
          '#item-list .cell-selected, #item-list .cell-selected *')]
        .filter((e) => e.checkVisibility() && (getComputedStyle(e).boxShadow !== 'none' ||
          e.matches('.selection-button, .cell-menu-button'))).map((e) => e.className)""")
    assert framed == []


def test_mark_resolved_is_a_button_of_its_own_height(ui_server, page):
    store = Store.open(ui_server.db)
    item = store.get_item("ui/gamma")
    store.save_item({**item, "problems": [NOT_FOUND, "no options: a multiple-choice item "
                                                     "with none"]}, item["version"], "bob")
    store.close()
    page.set_viewport_size({"width": 1400, "height": 900})
    open_item(page, ui_server.url, "ui/gamma")
    page.locator("#problems-resolve").get_by_text("Mark import problems resolved").click()
    button = page.locator("#problems-resolve-button")
    expect(button).to_be_visible(timeout=15000)
    assert button.bounding_box()["height"] <= 45
    # nothing lies over it: the click lands on the button
    box = button.bounding_box()
    assert page.evaluate("([x, y]) => document.elementFromPoint(x, y)?.closest("
                         "'#problems-resolve-button') !== null",
                         [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])


def test_the_screen_reader_status_says_done_not_an_i18n_key(ui_server, page):
    open_item(page, ui_server.url, "ui/alpha")
    said = []
    page.expose_function("cluelabSaid", lambda text: said.append(text))
    page.evaluate("""() => new MutationObserver(() => document.querySelectorAll(
        '[role=status].sr-only').forEach((e) => e.innerText.trim() &&
        window.cluelabSaid(e.innerText.trim()))).observe(document.body,
        {childList: true, subtree: true, characterData: true})""")
    page.click("#next-item")
    page.wait_for_timeout(7000)          # the tracker speaks at most once per 5 s
    assert said and not any("common." in text for text in said), said
    assert "Done" in said, said
