"""The form's schema tables and per-type answer controls, in real Chromium against a real
server and SQLite: no column can be added to the clue table, a wrong gold is refused with
its message on screen, each type's control saves its answer."""
import sqlite3

from playwright.sync_api import expect

from tests.browser.test_annotate_flow import open_item, type_into


def stored(server, item_id):
    con = sqlite3.connect(server.db)
    try:
        return con.execute("SELECT answer_type, answer, version FROM items WHERE id = ?",
                           (item_id,)).fetchone()
    finally:
        con.close()


def pick(page, selector, choice):
    expect(page.locator(selector)).to_be_visible(timeout=20000)
    page.locator(f"{selector} input").click()
    page.keyboard.press("Control+A")
    page.keyboard.type(choice)  # filters the list (a long one shows its first options only)
    page.locator("[data-testid='dropdown-option']", has_text=choice).first.click()


def save_and_expect(page, text):
    page.click("#save-item")
    expect(page.locator("#save-message")).to_contain_text(text, timeout=15000)


def test_the_clue_tables_menu_offers_rows_not_columns(ui_server, page):
    open_item(page, ui_server.url, "ui/alpha")
    table = page.locator("#clue-table")
    expect(table).to_contain_text("signs name exits", timeout=20000)
    cell = table.locator("[data-testid='cell-0-1']")
    cell.click()
    cell.get_by_label("Open cell menu").click()
    menu = page.get_by_text("Add row below")
    expect(menu).to_be_visible()
    expect(page.get_by_text("Add column to the right")).to_have_count(0)
    expect(page.get_by_text("Add column to the left")).to_have_count(0)
    menu.click()  # a new, empty row: saving keeps every clue's reasoning
    expect(table.locator(".virtual-row")).to_have_count(2)
    save_and_expect(page, "is as saved (version 1)")   # an empty row is no clue
    con = sqlite3.connect(ui_server.db)
    assert con.execute("SELECT text, reasoning FROM clues WHERE item_id = 'ui/alpha'").fetchall() \
        == [("The blue sign reads EXIT 12", "signs name exits")]


def test_multiple_choice_gold_that_is_no_option_is_refused_on_screen(ui_server, page):
    open_item(page, ui_server.url, "ui/gamma")
    expect(page.locator("#option-table")).to_contain_text("blue", timeout=20000)
    type_into(page, "#item-answer input, #item-answer textarea", "Z")
    save_and_expect(page, "gold answer has no option: 'Z' (options A, B)")
    assert stored(ui_server, "ui/gamma") == ("multiple_choice", "A", 1)
    page.click("#add-option")
    expect(page.locator("#option-table")).to_contain_text("C")
    expect(page.locator("#option-label input, #option-label textarea")).to_have_value("C")
    type_into(page, "#item-answer input, #item-answer textarea", "C")
    # an option with neither text nor image is refused, by name (it saved as version 2,
    # exported as {"label": "C", "text": ""})
    save_and_expect(page, "option C has no text or image")
    assert stored(ui_server, "ui/gamma") == ("multiple_choice", "A", 1)


def test_add_option_opens_the_new_options_text_for_typing(ui_server, page):
    """Add option left the focus on its button: the text typed went nowhere and each Space
    added another empty option (assets/new_row.js)."""
    open_item(page, ui_server.url, "ui/gamma")
    table = page.locator("#option-table")
    expect(table).to_contain_text("blue", timeout=20000)
    rows = table.locator(".virtual-row").count()
    page.click("#add-option")
    expect(table.locator("textarea[aria-label='Edit cell']")).to_be_focused(timeout=15000)
    page.keyboard.type("every 10 min")
    page.keyboard.press("Enter")
    expect(table.locator(f"[data-testid='cell-{rows}-1']")).to_contain_text("every 10 min")
    expect(table.locator(".virtual-row")).to_have_count(rows + 1)


def test_yes_no_is_a_choice_and_saves(ui_server, page):
    open_item(page, ui_server.url, "ui/beta")
    choice = page.locator("#item-answer-yes-no")
    expect(choice).to_be_visible(timeout=20000)
    expect(page.locator("#item-answer")).to_be_hidden()
    expect(page.locator("#option-table")).to_be_hidden()
    choice.get_by_label("No").check()
    save_and_expect(page, "version 2")
    assert stored(ui_server, "ui/beta") == ("yes_no", "No", 2)


def test_switching_to_location_and_building_the_gold(ui_server, page):
    open_item(page, ui_server.url, "ui/alpha")
    pick(page, "#item-answer-type", "location")
    expect(page.locator("#item-loc-region")).to_be_visible()
    expect(page.locator("#item-answer")).to_be_hidden()
    # the old gold '12' is no location: it is set aside, with a note, never kept hidden
    expect(page.get_by_text("The gold answer '12' is not a valid location answer: it is set "
                            "aside")).to_be_visible(timeout=15000)
    assert stored(ui_server, "ui/alpha") == ("open", "12", 1)       # nothing saved yet
    pick(page, "#item-loc-country", "italy")
    type_into(page, "#item-loc-region input, #item-loc-region textarea", "lazio")
    type_into(page, "#item-loc-aliases input, #item-loc-aliases textarea", "latium")
    save_and_expect(page, "version 2")
    assert stored(ui_server, "ui/alpha") == ("location", "$italy,lazio/latium$", 2)


def test_aliases_the_new_type_does_not_take_leave_the_box_and_come_back(ui_server, page):
    """Switched to numeric, the aliases box still held the old type's aliases, and they were
    saved with the numeric item."""
    open_item(page, ui_server.url, "ui/alpha")                   # open, gold '12'
    aliases = page.locator("#item-aliases textarea")
    type_into(page, "#item-aliases textarea", "bayern")
    pick(page, "#item-answer-type", "numeric")
    expect(page.get_by_text("1 accepted alias is not valid for a numeric answer")
           ).to_be_visible(timeout=15000)
    expect(aliases).to_have_value("")
    pick(page, "#item-answer-type", "open")
    expect(aliases).to_have_value("bayern", timeout=15000)
