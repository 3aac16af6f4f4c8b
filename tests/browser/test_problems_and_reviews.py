"""Import problems and the review workflow as an annotator meets them, in real Chromium
against a real server and SQLite: problems clear when fixed (or once marked resolved) and the
flag follows; a review sets the item's status; a verified item changed goes back to review;
History says what a save did."""
from __future__ import annotations

from playwright.sync_api import expect

from store import Store
from tests.browser.test_annotate_flow import open_item, show_list, type_into

NOT_FOUND = ("duplicate id in file: imported as 'ui/gamma' (another entry of the file had "
             "this id)")
"""A problem no rule can check on the item (an image lost at import clears once the item has
that many images: judges/lost_parts.py)."""
NO_OPTION = "gold answer has no option: it is none of the 2 option labels"


def colleague(server, item_id: str, **changes) -> None:
    """bob saves the item with `changes`, as another user does from another browser."""
    store = Store.open(server.db)
    try:
        item = store.get_item(item_id)
        store.save_item({**item, **changes}, item["version"], "bob", "bob's edit")
    finally:
        store.close()


def history_rows(page) -> str:
    if not page.locator("#history-table").is_visible():
        page.locator("#history button.label-wrap").click()
    table = page.locator("#history-table")
    expect(table).to_be_visible(timeout=15000)
    return table


def test_import_problems_clear_when_fixed_or_marked_resolved(ui_server, page):
    """dailyclue/mc2: fixed (images, multiple choice, gold A) and saved, it stayed flagged
    with its three problems listed."""
    colleague(ui_server, "ui/gamma", answer="Z", problems=[NO_OPTION, NOT_FOUND])
    open_item(page, ui_server.url, "ui/gamma")
    notice = page.locator("#item-notice")
    expect(notice).to_contain_text(NO_OPTION, timeout=15000)
    expect(page.locator("#item-header")).to_contain_text("flagged")
    # the list opens in the page: over it, it covered the row that marks problems resolved
    page.click("#item-notice summary")
    page.locator("#problems-resolve").get_by_text("Mark import problems resolved").click(
        timeout=5000)
    expect(page.locator("#problems-pick")).to_be_visible(timeout=15000)
    page.locator("#problems-resolve").get_by_text("Mark import problems resolved").click()
    page.click("#item-notice summary")
    type_into(page, "#item-answer input, #item-answer textarea", "A")
    page.click("#save-item")
    expect(page.locator("#save-message")).to_contain_text("version 3", timeout=15000)
    # the problem no rule can check again stays, and the save says how it goes
    expect(page.locator("#save-message")).to_contain_text(
        "1 import problem stays until you mark it resolved")
    expect(notice).not_to_contain_text(NO_OPTION)               # checked again: fixed
    expect(notice).to_contain_text(NOT_FOUND)                   # no rule can tell
    expect(history_rows(page)).to_contain_text("import problems fixed: " + NO_OPTION)
    # marked resolved: struck through until the save records it
    page.locator("#problems-resolve").get_by_text("Mark import problems resolved").click()
    pick = page.locator("#problems-pick")        # in a closed accordion: one line until asked
    pick.get_by_label(NOT_FOUND).check()
    page.click("#problems-resolve-button")
    expect(notice.locator("s")).to_have_text(NOT_FOUND, timeout=15000)
    expect(page.locator("#draft-state")).to_contain_text("draft", timeout=15000)
    page.click("#save-item")
    expect(page.locator("#save-message")).to_contain_text("version 4", timeout=15000)
    expect(notice).not_to_contain_text(NOT_FOUND)
    expect(page.locator("#problems-resolve")).to_be_hidden()
    expect(page.locator("#item-header")).not_to_contain_text("flagged")
    expect(history_rows(page)).to_contain_text("import problems marked resolved: " + NOT_FOUND)
    show_list(page)                               # the item list may be hidden (its toggle)
    page.locator("#filter-flagged label", has_text="flagged").first.click()   # the to-do list
    expect(page.locator("#browser-count")).to_contain_text("0 of 3 items match", timeout=15000)


def test_a_review_sets_the_status_and_a_change_to_a_verified_item_asks_for_review(
        ui_server, page):
    """A reject left the item a candidate; a box edit saved on a verified item kept it
    verified."""
    colleague(ui_server, "ui/beta", status="candidate")
    open_item(page, ui_server.url, "ui/beta")
    history_rows(page)
    page.locator("#review-verdict label", has_text="approve").click()
    page.click("#review-submit")
    expect(page.locator("#review-list")).to_contain_text("The item is now verified (version 3)",
                                                         timeout=15000)
    expect(page.locator("#item-status input")).to_have_value("verified")
    expect(history_rows(page)).to_contain_text("review: approve")
    type_into(page, "#item-question textarea", "Is this a railway station?")
    page.click("#save-item")
    expect(page.locator("#save-message")).to_contain_text(
        "Your changes put the verified item back in review (status in_review).", timeout=15000)
    expect(page.locator("#item-status input")).to_have_value("in_review")
    # the version just saved is local's own: a review of it is refused, and says why
    page.locator("#review-verdict label", has_text="reject").click()
    page.click("#review-submit")
    expect(page.locator("#review-list")).to_contain_text(
        "ask someone who did not write it", timeout=15000)
    expect(page.locator("#item-status input")).to_have_value("in_review")
