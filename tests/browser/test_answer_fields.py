"""The numeric gold's text field, the warning beside a yes/no gold that is neither, and the
save bar's messages, in real Chromium against a real server and SQLite."""
import sqlite3

from playwright.sync_api import expect

from store import Store
from tests.browser.test_annotate_flow import open_item, type_into
from tests.browser.test_answer_controls import save_and_expect, stored

NUMBER = "#item-answer-number input, #item-answer-number textarea"


def add_item(server, item):
    with Store.open(server.db) as store:     # on ui/alpha's image: the page opens on one
        images = store.get_item("ui/alpha")["images"]
        store.create_item({"question": "q?", "images": images, **item}, "import")


def test_the_numeric_gold_is_text_saved_as_typed_and_the_wheel_changes_nothing(ui_server, page):
    """The gold was a browser number field: the wheel or arrow keys changed it (12.8 became
    9 and was saved), decimals were rounded, "5.30 €" could not be entered."""
    add_item(ui_server, {"id": "ui/price", "answer_type": "numeric", "answer": "12.8"})
    open_item(page, ui_server.url, "ui/price")
    field = page.locator(NUMBER)
    expect(field).to_have_value("12.8", timeout=20000)
    field.click()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    field.hover()
    page.mouse.wheel(0, 300)
    expect(field).to_have_value("12.8")
    type_into(page, NUMBER, "5,30 €")
    save_and_expect(page, "version 2")
    assert stored(ui_server, "ui/price") == ("numeric", "5,30 €", 2)
    expect(field).to_have_value("5,30 €")
    type_into(page, NUMBER, "€5.30")
    save_and_expect(page, "version 3")
    assert stored(ui_server, "ui/price") == ("numeric", "€5.30", 3)


def test_a_numeric_gold_without_a_number_is_refused_naming_the_field(ui_server, page):
    add_item(ui_server, {"id": "ui/price", "answer_type": "numeric", "answer": "12.8"})
    open_item(page, ui_server.url, "ui/price")
    expect(page.locator(NUMBER)).to_have_value("12.8", timeout=20000)
    type_into(page, NUMBER, "about twelve euros")
    save_and_expect(page, "Not saved: the gold answer 'about twelve euros' is no number the scorer can read")
    assert stored(ui_server, "ui/price") == ("numeric", "12.8", 1)


def test_a_yes_no_gold_that_is_neither_is_shown_beside_the_choice_until_replaced(ui_server,
                                                                                  page):
    """An imported yes/no item with gold "Maybe" showed nothing in the Yes/No choice."""
    add_item(ui_server, {"id": "ui/maybe", "answer_type": "yes_no", "answer": "Maybe"})
    open_item(page, ui_server.url, "ui/maybe")
    warning = page.locator("#item-answer-yes-no-warning")
    expect(warning).to_be_visible(timeout=20000)
    expect(warning).to_contain_text("The stored gold answer is 'Maybe', which is not Yes or No")
    # saving something else keeps it (the save is refused, saying why), never overwrites it
    type_into(page, "#item-question textarea, #item-question input", "Is it open?")
    save_and_expect(page, "gold answer is not Yes or No: 'Maybe'")
    assert stored(ui_server, "ui/maybe") == ("yes_no", "Maybe", 1)
    page.locator("#item-answer-yes-no").get_by_label("No").check()
    save_and_expect(page, "version 2")
    assert stored(ui_server, "ui/maybe") == ("yes_no", "No", 2)
    expect(warning).not_to_contain_text("Maybe")


def test_a_location_gold_the_builder_cannot_show_is_shown_under_it(ui_server, page):
    """An imported location gold "12345" left Country and Region empty, and the save refused
    a value the annotator could not see."""
    add_item(ui_server, {"id": "ui/where", "answer_type": "location", "answer": "12345"})
    open_item(page, ui_server.url, "ui/where")
    warning = page.locator("#item-answer-location-warning")
    expect(warning).to_be_visible(timeout=20000)
    expect(warning).to_contain_text("The stored gold answer is '12345', which is not "
                                    "$country,region$")
    assert stored(ui_server, "ui/where") == ("location", "12345", 1)


def test_a_save_clears_the_old_messages_and_the_latest_shows_first(ui_server, page):
    """The save bar's box appended messages: the latest was out of view below, and the
    stale errors stayed (Ctrl+S never cleared them)."""
    open_item(page, ui_server.url, "ui/gamma")
    expect(page.locator("#option-table")).to_contain_text("blue", timeout=20000)
    said = page.locator("#save-message")      # a refused save says why there, once
    type_into(page, "#item-answer input, #item-answer textarea", "Z")
    page.keyboard.press("Control+s")
    expect(said).to_contain_text("'Z'", timeout=15000)
    type_into(page, "#item-answer input, #item-answer textarea", "Y")
    page.keyboard.press("Control+s")
    expect(said).to_contain_text("'Y'", timeout=15000)
    expect(page.get_by_text("gold answer has no option: 'Z'")).to_have_count(0)
    # two refusals of one kind in a row, no save between: the latest is the first line
    for label in ("Q", "R"):
        type_into(page, "#option-label input, #option-label textarea", label)
        page.click("#remove-option")
        expect(page.get_by_text(f"there is no option {label}")).to_be_visible(timeout=15000)
    lines = page.locator("[data-testid='toast-body'] .toast-message-item")
    first = min(range(lines.count()), key=lambda i: lines.nth(i).bounding_box()["y"])
    expect(lines.nth(first)).to_contain_text("there is no option R")
    con = sqlite3.connect(ui_server.db)
    assert con.execute("SELECT answer FROM items WHERE id = 'ui/gamma'").fetchone() == ("A",)
