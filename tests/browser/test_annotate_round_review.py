"""Defects an annotator's review found on the Annotate page and its History (Chromium,
1400×900): a refusal shown twice and unframed over the page, and kept after its cause was
fixed; a review with no verdict; History's diff empty after a review; a reload back on
image 1; Delete silent about colleagues' drafts; a box removed with Del that only Discard
draft brought back."""
import re
import sqlite3

from playwright.sync_api import expect

from store import Store
from tests.browser.test_annotate_flow import draw_box, open_item, type_into
from tests.browser.test_annotate_workspace import hover_image, wait_for_counts
from tests.browser.test_item_lifecycle_flow import open_menu

TOASTS = "[data-testid='toast-body']"


def at_1400(page):
    page.set_viewport_size({"width": 1400, "height": 900})


def test_a_refusal_is_one_framed_message_in_the_bar_and_goes_once_fixed(ui_server, page):
    """The save bar's line overflowed above the bar on the page's own colour, with the same
    words again in a toast over it; and it stayed after the gold was typed."""
    at_1400(page)
    open_item(page, ui_server.url, "ui/alpha")
    page.locator("#item-status input").click()
    page.locator("#item-status [data-testid='dropdown-option']", has_text="in_review").click()
    type_into(page, "#item-answer input", "")
    page.keyboard.press("Delete")
    page.click("#save-item")
    message = page.locator("#save-message")
    expect(message).to_contain_text("Not saved: Gold answer: empty", timeout=15000)
    page.wait_for_timeout(1500)                      # a toast would have shown by now
    expect(page.locator(TOASTS)).to_have_count(0)
    look = message.evaluate("""e => { const s = getComputedStyle(e);
        const r = e.getBoundingClientRect();
        return {bg: s.backgroundColor, border: s.borderTopWidth, top: r.top,
                bottom: r.bottom, whole: e.scrollHeight <= e.clientHeight + 1}; }""")
    assert look["bg"] not in ("rgba(0, 0, 0, 0)", "transparent"), look
    assert look["border"] != "0px", look
    assert look["top"] >= 0 and look["bottom"] <= 900 and look["whole"], look
    page.screenshot(path="/tmp/annot-refusal-framed.png")
    type_into(page, "#item-question textarea", "Which exit is it?")   # no fix: it stays
    expect(page.locator("#draft-state")).to_contain_text("draft kept", timeout=15000)
    page.wait_for_timeout(1000)
    expect(message).to_contain_text("Not saved: Gold answer: empty")
    type_into(page, "#item-answer input", "12")       # the cause fixed: the refusal goes
    expect(message).not_to_contain_text("Not saved", timeout=15000)
    expect(page.locator("#draft-state")).to_contain_text("draft kept")


def test_a_review_asks_for_its_verdict_and_shows_the_diff_it_made(ui_server, page):
    at_1400(page)
    open_item(page, ui_server.url, "ui/gamma")
    page.locator("#history button.label-wrap").click()
    page.click("#review-submit")
    reviews = page.locator("#review-list")
    expect(reviews).to_contain_text("pick a verdict first (approve, revise or reject)",
                                    timeout=15000)
    expect(reviews).not_to_contain_text("open an item")
    page.locator("#review-verdict label", has_text="approve").click()
    page.click("#review-submit")
    expect(reviews).to_contain_text("Reviewed version 1: approve", timeout=15000)
    diff = page.locator("#history-diff-table")
    expect(diff).to_contain_text("status", timeout=15000)     # without pressing Diff
    expect(diff).to_contain_text("verified")
    expect(page.get_by_label("Version B")).to_have_value("2")
    page.screenshot(path="/tmp/annot-review-diff.png")


def test_a_reload_reopens_the_image_that_was_open(ui_server, page):
    at_1400(page)
    open_item(page, ui_server.url, "ui/alpha")
    page.get_by_role("button", name=re.compile(r"^image 2")).click()
    info = page.locator("#image-info")
    expect(info).to_contain_text("Image 2 of 2", timeout=15000)
    expect(page).to_have_url(re.compile(r"[?&]image=2\b"), timeout=5000)
    page.reload()
    expect(info).to_contain_text("Image 2 of 2", timeout=30000)
    page.get_by_role("button", name=re.compile(r"^image 1")).click()
    expect(info).to_contain_text("Image 1 of 2", timeout=15000)
    expect(page).not_to_have_url(re.compile(r"image="), timeout=5000)


def alices_draft(db):
    """A draft of ui/beta by the colleague alice."""
    store = Store.open(db)
    try:
        item = store.get_item("ui/beta")
        store.save_draft("alice", "ui/beta", item["version"], {**item, "question": "Mine?"})
    finally:
        store.close()


def test_delete_asks_naming_the_colleagues_drafts(ui_server, page):
    alices_draft(ui_server.db)
    at_1400(page)
    open_item(page, ui_server.url, "ui/beta")
    open_menu(page)
    asked = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.click("#delete-item")
    expect(page.locator("#item-id input, #item-id textarea").first).to_have_value("ui/beta")
    assert asked and "1 colleague (alice) has an unsaved draft of it" in asked[0], asked


def test_ctrl_z_undoes_the_last_box_change(ui_server, page):
    """A box removed with Del came back only with Discard draft, every other edit gone too."""
    at_1400(page)
    open_item(page, ui_server.url, "ui/alpha")
    wait_for_counts(page, ["0"])
    type_into(page, "#item-question textarea", "Which exit is signposted here?")
    draw_box(page, 0.30, 0.30, 0.45, 0.42, "clue 1")     # drawn and labelled: one change
    wait_for_counts(page, ["1 (img 1)"])
    hover_image(page)
    page.keyboard.press("Delete")
    wait_for_counts(page, ["0"])
    page.keyboard.press("Control+z")                    # the box is back, with its clue
    wait_for_counts(page, ["1 (img 1)"])
    expect(page.locator("#draft-state")).to_contain_text("draft kept", timeout=15000)
    page.screenshot(path="/tmp/annot-box-undo.png")
    page.keyboard.press("Control+z")                    # and before it was drawn
    wait_for_counts(page, ["0"])
    page.keyboard.press("Control+z")                    # nothing more to undo: no change
    page.wait_for_timeout(1000)
    wait_for_counts(page, ["0"])
    expect(page.locator("#item-question textarea")).to_have_value(
        "Which exit is signposted here?")               # the other edits stay
    page.locator("#item-question textarea").click()     # in a text field, its own undo
    page.keyboard.press("Control+z")
    page.wait_for_timeout(800)
    wait_for_counts(page, ["0"])


def test_the_history_opens_with_the_diff_of_its_versions_shown(ui_server, page):
    """It opened with Version A and B filled in over an empty table until Diff A → B."""
    store = Store.open(ui_server.db)
    try:
        item = store.get_item("ui/alpha")
        store.save_item({**item, "question": "Which platform is it, now?"}, item["version"],
                        "alice", "edit")
    finally:
        store.close()
    at_1400(page)
    open_item(page, ui_server.url, "ui/alpha")
    page.locator("#history button.label-wrap").click()
    expect(page.get_by_label("Version B")).to_have_value("2", timeout=15000)
    expect(page.locator("#history-diff-table")).to_contain_text("Which platform is it, now?",
                                                                timeout=15000)


def test_a_colleagues_draft_started_after_the_page_opened_stops_the_delete_once(
        ui_server, page):
    """The question named the drafts of when the item opened: a colleague's draft started a
    moment before Delete went unsaid. Now the delete stops once, naming it; a second Delete
    (the colleague now known) goes through."""
    at_1400(page)
    open_item(page, ui_server.url, "ui/beta")
    open_menu(page)
    alices_draft(ui_server.db)
    page.once("dialog", lambda d: d.accept())
    page.click("#delete-item")
    message = page.locator("#lifecycle-message")
    expect(message).to_contain_text("Not deleted", timeout=15000)
    expect(message).to_contain_text("alice")
    con = sqlite3.connect(ui_server.db)
    assert con.execute("SELECT deleted_at FROM items WHERE id = 'ui/beta'").fetchone() == (None,)
    page.once("dialog", lambda d: d.accept())
    page.click("#delete-item")
    expect(page.locator("#item-id input, #item-id textarea").first).not_to_have_value(
        "ui/beta", timeout=20000)
    assert con.execute("SELECT deleted_at FROM items WHERE id = 'ui/beta'").fetchone()[0]
