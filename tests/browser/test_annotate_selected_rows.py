"""An annotator's review of the Annotate page (Chromium, 1400×900): Remove option removed
option C of the item opened because the unlabelled row box still held the C of the item
left; Remove clue asked about "the selected clue" when none was, and then removed the row
clicked before; a delete said nothing the next item showed; History's diff showed a field's
name and old text in the middle of a tall row, out of view."""
from playwright.sync_api import expect

from store import Store
from tests.browser.test_annotate_flow import open_item
from tests.browser.test_item_lifecycle_flow import open_menu

TOASTS = "[data-testid='toast-body']"
SELECTED = "#option-label input"


def at_1400(page):
    page.set_viewport_size({"width": 1400, "height": 900})


def change_store(db, change):
    store = Store.open(db)
    try:
        change(store)
    finally:
        store.close()


def toast_says(page, words):
    expect(page.locator(TOASTS, has_text=words).first).to_be_visible(timeout=15000)


def test_the_option_row_selected_goes_with_its_item(ui_server, page):
    change_store(ui_server.db, lambda s: s.duplicate_item("ui/gamma", "ui/gamma-copy", "fx"))
    at_1400(page)
    open_item(page, ui_server.url, "ui/gamma")
    table = page.locator("#option-table")
    expect(table).to_contain_text("red", timeout=20000)
    expect(page.get_by_label("Selected option")).to_be_visible()      # its label is shown
    label = page.locator("#option-label span[data-testid='block-info']")
    assert label.bounding_box()["width"] > 20, "the label is on screen, not screen-reader only"
    table.locator("[data-testid='cell-1-1']").click()
    expect(page.locator(SELECTED)).to_have_value("B", timeout=15000)
    page.keyboard.press("Escape")
    page.click("#next-item")
    expect(page.locator("#item-id input, #item-id textarea").first).to_have_value(
        "ui/gamma-copy", timeout=20000)
    expect(page.locator(SELECTED)).to_have_value("", timeout=15000)
    page.click("#remove-option")
    toast_says(page, "select an option row first")
    expect(table).to_contain_text("red")
    table.locator("[data-testid='cell-1-1']").click()
    expect(page.locator(SELECTED)).to_have_value("B", timeout=15000)
    page.keyboard.press("Escape")
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.click("#remove-option")          # asked first, as a clue's removal is (a review)
    toast_says(page, 'Removed option B "red". Not saved yet: Discard draft brings it back.')
    assert asked == ['Remove option B "red"? Discard draft brings it back until you save.']
    expect(table).not_to_contain_text("red")


def test_remove_clue_asks_only_about_a_row_it_shows_selected(ui_server, page):
    at_1400(page)
    open_item(page, ui_server.url, "ui/alpha")
    clues = page.locator("#clue-table")
    expect(clues).to_contain_text("EXIT 12", timeout=20000)
    asked = []
    page.on("dialog", lambda d: (asked.append(d.message), d.accept()))
    page.click("#remove-clue")                       # no row selected: said at once
    toast_says(page, "select a clue row first")
    assert asked == []
    clues.locator("[data-testid='cell-0-1']").click()
    page.keyboard.press("Escape")
    page.locator("#item-question textarea").click()  # the row's highlight goes
    page.click("#remove-clue")
    page.wait_for_timeout(1500)
    assert asked == []
    expect(clues).to_contain_text("EXIT 12")          # the row clicked before stays
    clues.locator("[data-testid='cell-0-1']").click()
    page.keyboard.press("Escape")
    page.click("#remove-clue")
    expect(clues).not_to_contain_text("EXIT 12", timeout=15000)
    assert asked == ['Remove clue 1 "The blue sign reads EXIT 12" with its reasoning and '
                     '0 boxes?'], asked


def test_a_delete_is_said_in_the_save_bar_of_the_item_that_opens(ui_server, page):
    """The next item opened with nothing in the save bar (the toast faded): its line says
    what was deleted and how to undo it, over the next item's own draft too."""
    def beta_drafted(store):
        item = store.get_item("ui/beta")
        store.save_draft("local", "ui/beta", item["version"], {**item, "question": "Mine?"})

    change_store(ui_server.db, beta_drafted)
    at_1400(page)
    open_item(page, ui_server.url, "ui/alpha")
    open_menu(page)
    page.once("dialog", lambda d: d.accept())
    page.click("#delete-item")
    expect(page.locator("#item-id input, #item-id textarea").first).to_have_value(
        "ui/beta", timeout=20000)
    line = page.locator("#save-message")
    expect(line).to_contain_text("Deleted ui/alpha", timeout=15000)
    expect(line).to_contain_text("Undo delete of ui/alpha")
    expect(page.locator("#draft-state")).to_contain_text("unsaved edits")
    page.wait_for_timeout(1500)
    expect(line).to_contain_text("Deleted ui/alpha")


def test_the_history_diff_shows_each_cell_from_the_top_of_its_row(ui_server, page):
    def long_question(store):
        item = store.get_item("ui/alpha")
        store.save_item({**item, "question": "Which exit is signposted here? " * 40},
                        item["version"], "fx")

    change_store(ui_server.db, long_question)
    at_1400(page)
    open_item(page, ui_server.url, "ui/alpha")
    page.locator("#history button.label-wrap").click()
    diff = page.locator("#history-diff-table")
    expect(diff).to_contain_text("question", timeout=20000)
    tops = page.evaluate("""() => [0, 1, 2].map((c) => {
        const cell = document.querySelector(`#history-diff-table [data-testid='cell-0-${c}']`);
        const text = cell.querySelector('span.text') || cell;
        return [cell.getBoundingClientRect().top, cell.getBoundingClientRect().height,
                text.getBoundingClientRect().top]; })""")
    assert tops[2][1] > 150, tops                                  # a tall row
    assert all(text - cell < 20 for cell, _, text in tops), tops   # each from its top
