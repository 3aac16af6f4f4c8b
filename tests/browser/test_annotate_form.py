"""The Annotate page's form in real Chromium: the save bar never says "Saved" beside unsaved
edits, Tab walks past the answer type without opening its list, and the options table is
shown for multiple-choice items only."""
from playwright.sync_api import expect

from tests.browser.test_annotate_flow import open_item, show_list, type_into


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


def test_tab_from_the_question_moves_to_answer_type_without_opening_its_list(ui_server, page):
    open_item(page, ui_server.url, "ui/gamma")
    page.click("#item-question textarea")
    page.keyboard.press("Tab")
    answer_type = page.locator("#item-answer-type input")
    expect(answer_type).to_be_focused()
    page.wait_for_timeout(500)
    expect(page.locator("[data-testid='dropdown-option']")).to_have_count(0)
    expect(answer_type).to_have_attribute("aria-expanded", "false")
    expect(answer_type).to_have_value("multiple_choice")
    page.keyboard.press("Tab")                           # and on to the next field
    expect(answer_type).not_to_be_focused()
    # Domain and Subtask read their choices as they get the focus: the list they opened
    # when those arrived stayed open over the form (under load, after the one Escape)
    page.click("#item-gt-reasoning textarea")
    for field in ("#item-domain input", "#item-subtask input"):
        page.keyboard.press("Tab")
        expect(page.locator(field)).to_be_focused()
        page.wait_for_timeout(1500)
        expect(page.locator("[data-testid='dropdown-option']:visible")).to_have_count(0)
    answer_type.click()                                  # a click still opens the list
    expect(page.locator("[data-testid='dropdown-option']").first).to_be_visible()


def choose_type(page, answer_type):
    page.locator("#item-answer-type input").click()
    page.locator("[data-testid='dropdown-option']", has_text=answer_type).first.click()


def test_the_options_hide_when_the_type_is_not_multiple_choice_and_come_back(ui_server, page):
    open_item(page, ui_server.url, "ui/gamma")
    table = page.locator("#option-table")
    expect(table).to_contain_text("blue", timeout=20000)
    choose_type(page, "open")
    expect(table).to_be_hidden(timeout=15000)
    expect(page.get_by_text("options are set aside")).to_be_visible()
    choose_type(page, "multiple_choice")
    expect(table).to_be_visible(timeout=15000)
    expect(table).to_contain_text("blue")
    expect(table).to_contain_text("red")
    choose_type(page, "yes_no")
    expect(table).to_be_hidden(timeout=15000)
    page.locator("#item-answer-yes-no").get_by_label("Yes").check()
    page.click("#save-item")                             # a yes/no item has no options
    expect(page.locator("#save-message")).to_contain_text("version 2", timeout=15000)
    expect(table).to_be_hidden()


def test_text_set_in_one_go_is_kept_as_a_draft(ui_server, page):
    """A pasted question (no key pressed: Playwright's fill is paste-like) and text put in
    by an input method showed no "unsaved edits" and were lost on reload."""
    open_item(page, ui_server.url, "ui/beta")
    page.locator("#item-question textarea").fill("Pasted: is this a ferry pier?")
    expect(page.locator("#draft-state")).to_contain_text("draft kept", timeout=15000)
    page.locator("#item-gt-reasoning textarea").click()
    page.keyboard.press("Control+A")
    page.keyboard.insert_text("Put in by an input method")      # no key events at all
    page.wait_for_timeout(1500)
    page.reload()
    expect(page.locator("#item-notice")).to_contain_text("unsaved draft", timeout=20000)
    expect(page.locator("#item-question textarea")).to_have_value("Pasted: is this a ferry pier?")
    expect(page.locator("#item-gt-reasoning textarea")).to_have_value("Put in by an input method")


def list_row(page, item_id):
    return page.locator("#item-list [role=row], #item-list tr").filter(has_text=item_id).first


def test_the_item_list_shows_the_status_after_a_save(ui_server, page):
    """The list's status column kept the status from before the save (own or a colleague's)."""
    from store import Store
    open_item(page, ui_server.url, "ui/alpha")
    show_list(page)
    expect(list_row(page, "ui/gamma")).to_contain_text("draft", timeout=20000)
    colleague = Store.open(ui_server.db)
    gamma = colleague.get_item("ui/gamma")
    colleague.save_item({**gamma, "status": "in_review"}, gamma["version"], "bob")
    colleague.close()
    page.locator("#item-status input").click()
    page.get_by_role("option", name="candidate").click()
    page.click("#save-item")
    expect(page.locator("#save-message")).to_contain_text("version 2", timeout=15000)
    expect(list_row(page, "ui/alpha")).to_contain_text("candidate", timeout=15000)
    expect(list_row(page, "ui/gamma")).to_contain_text("in_review")


def test_a_refused_discard_offers_the_two_choices_it_names(ui_server, browser):
    """"Not discarded: another tab … open it or keep this tab's edits first" was shown with
    neither button on the page (the other tab had been closed)."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    a, b = context.new_page(), context.new_page()
    for tab in (a, b):
        open_item(tab, ui_server.url, "ui/alpha")
    type_into(a, "#item-question textarea", "Asked in tab A?")
    expect(a.locator("#draft-state")).to_contain_text("draft kept", timeout=15000)
    a.close()
    # Discard is disabled in a tab with nothing of its own to discard: tab B edits too
    type_into(b, "#item-gt-reasoning textarea", "Reasoned in tab B")
    b.once("dialog", lambda d: d.accept())
    b.click("#discard-draft")
    expect(b.locator(".toast-body, [data-testid='toast-body']").first).to_contain_text(
        "Not discarded", timeout=15000)
    expect(b.locator("#draft-choice")).to_be_visible()
    expect(b.locator("#draft-open-other")).to_be_visible()
    expect(b.locator("#draft-keep-mine")).to_be_visible()
    expect(b.locator("#draft-state")).to_contain_text("Open it or keep this tab's edits")
    b.once("dialog", lambda d: d.accept())
    b.click("#draft-open-other")
    expect(b.locator("#item-question textarea")).to_have_value("Asked in tab A?", timeout=15000)
    context.close()


def test_the_list_highlights_the_item_opened_from_the_id_box(ui_server, page):
    """After an item was opened from the id box, the list still highlighted the row clicked
    before."""
    open_item(page, ui_server.url, "ui/alpha")
    show_list(page)
    rows = page.locator("#item-list .virtual-row")
    expect(rows.filter(has_text="ui/alpha")).to_have_attribute("data-cl-open", "",
                                                               timeout=15000)
    rows.filter(has_text="ui/beta").locator(".body-cell").first.click()
    expect(page.locator("#item-question textarea")).to_have_value("Is this a station?",
                                                                  timeout=15000)
    expect(rows.filter(has_text="ui/beta")).to_have_attribute("data-cl-open", "")
    id_box = page.locator("#item-id textarea, #item-id input").first
    id_box.fill("ui/gamma")
    id_box.press("Enter")
    expect(page.locator("#item-question textarea")).to_have_value(
        "Pick the colour of the sign.", timeout=15000)
    expect(rows.filter(has_text="ui/gamma")).to_have_attribute("data-cl-open", "")
    expect(page.locator("#item-list .virtual-row[data-cl-open]")).to_have_count(1)
    clicked = rows.filter(has_text="ui/beta").locator(".body-cell").first
    assert clicked.evaluate("(c) => getComputedStyle(c).boxShadow") == "none"
    opened = rows.filter(has_text="ui/gamma").locator(".body-cell").first
    assert opened.evaluate("(c) => getComputedStyle(c).backgroundColor") != \
        clicked.evaluate("(c) => getComputedStyle(c).backgroundColor")


PLACEHOLDER_CUT = """(selector) => [...document.querySelectorAll(selector)]
  .filter((e) => e.offsetParent && e.placeholder)
  .filter((e) => { const style = getComputedStyle(e);
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = e.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return ctx.measureText(e.placeholder).width > room + 1; })
  .map((e) => e.placeholder)"""


def test_the_option_row_is_one_compact_line_and_the_item_menu_fits(ui_server, page):
    """The option label box was narrow with a tall label beside two huge, mostly empty
    buttons; in Item ▾ the New id placeholder was cut and "New item from images…" wrapped."""
    page.set_viewport_size({"width": 1400, "height": 900})
    open_item(page, ui_server.url, "ui/gamma")
    expect(page.locator("#option-table")).to_contain_text("blue", timeout=20000)
    row = page.evaluate("""() => ['#option-label', '#add-option', '#remove-option'].map((s) => {
        const r = document.querySelector(s).getBoundingClientRect();
        return [r.top, r.bottom, r.right]; })""")
    panel = page.locator("#options-panel").bounding_box()
    assert all(abs(top - row[0][0]) <= 2 for top, _, _ in row), row      # one line
    assert all(bottom - top <= 48 for top, bottom, _ in row), row        # no tall label
    assert all(right <= panel["x"] + panel["width"] + 1 for _, _, right in row), (row, panel)
    assert page.evaluate(PLACEHOLDER_CUT, "#option-label input") == []
    page.locator("#item-menu button.label-wrap").click()
    expect(page.locator("#new-item-id")).to_be_visible(timeout=15000)
    page.wait_for_timeout(500)
    assert page.evaluate(PLACEHOLDER_CUT, "#item-menu-body input") == []
    button = page.locator("#create-item").evaluate(
        "e => [e.getBoundingClientRect().height, parseFloat(getComputedStyle(e).lineHeight)]")
    assert button[0] < 2 * button[1] + 8, button                           # one line of text
    wrapped = page.evaluate("""() => [...document.querySelectorAll('#item-menu-body button')]
        .filter((b) => b.offsetParent && b.scrollWidth > b.clientWidth + 1)
        .map((b) => b.innerText)""")
    assert wrapped == []
