"""History and review in Chromium: a refused Diff empties the diff table (the old diff stayed
under the new numbers); a review note of many lines shows its lines in the review list, the
rest folded; History's comment cell is the comment's first line, wrapped, "…" after it."""
from playwright.sync_api import expect

from domain.limits import SHOWN_NOTE_LINES
from store import Store
from tests.browser.test_annotate_flow import open_item

NOTE = "\n".join(f"Line {n} of the note, <b>kept</b> as text" for n in range(1, 16))
FIRST = ("Box the sign by the exit and the clock above it, then say why " * 2
         + "and which way the arrows point to")


def test_a_refused_diff_empties_the_table(ui_server, page):
    store = Store.open(ui_server.db)
    for words in ("Which exit, one?", "Which exit, two?"):
        item = store.get_item("ui/alpha")
        store.save_item({**item, "question": words}, item["version"], "carol", "edit")
    store.close()
    page.set_viewport_size({"width": 1400, "height": 900})
    open_item(page, ui_server.url, "ui/alpha")
    page.locator("#history button.label-wrap").click()
    diff = page.locator("#history-diff-table")
    expect(diff).to_contain_text("Which exit, two?", timeout=20000)     # 2 → 3, on opening
    page.locator("#history-version-a input").fill("7")
    page.click("#history-diff")
    expect(page.locator(".toast-body")).to_contain_text("there is no version 7",
                                                         timeout=15000)
    expect(diff).not_to_contain_text("Which exit", timeout=15000)
    page.locator("#history-version-a input").fill("2")
    page.click("#history-diff")
    expect(diff).to_contain_text("Which exit, two?", timeout=15000)     # a diff again


def test_a_notes_lines_show_in_the_review_list_and_history_shortens_it(ui_server, page):
    page.set_viewport_size({"width": 1400, "height": 900})
    open_item(page, ui_server.url, "ui/gamma")
    page.locator("#history button.label-wrap").click()
    page.locator("#review-verdict label", has_text="revise").click()
    page.locator("#review-note textarea").fill(NOTE)
    page.click("#review-submit")
    reviews = page.locator("#review-list")
    expect(reviews).to_contain_text("Reviewed version 1: revise", timeout=15000)
    item = reviews.locator("li").first
    expect(item).to_contain_text(f"Line {SHOWN_NOTE_LINES} of the note")
    text = item.inner_text()
    assert "Line 1 of the note, <b>kept</b> as text\nLine 2 of" in text, text
    assert f"… ({15 - SHOWN_NOTE_LINES} more lines)" in text, text
    assert "Line 15" not in text, text                      # folded
    item.locator("summary").click()
    expect(item).to_contain_text("Line 15 of the note, <b>kept</b> as text")
    assert "Line 13 of the note, <b>kept</b> as text\nLine 14" in item.inner_text()
    cell = page.locator("#history-table [data-testid='cell-0-3'] span").first
    expect(cell).to_have_text("review: revise (Line 1 of the note, <b>kept</b> as text …",
                              timeout=15000)
    page.screenshot(path="/tmp/annfix24a-reviews.png", full_page=True)


def test_a_long_comment_wraps_in_historys_table(ui_server, page):
    """A long first line ran on past the comment cell's edge, cut there mid-word."""
    page.set_viewport_size({"width": 1400, "height": 900})
    open_item(page, ui_server.url, "ui/gamma")
    page.locator("#history button.label-wrap").click()
    page.locator("#review-verdict label", has_text="revise").click()
    page.locator("#review-note textarea").fill(FIRST.strip() + "\nsecond line")
    page.click("#review-submit")
    cell = page.locator("#history-table [data-testid='cell-0-3'] span").first
    expect(cell).to_have_text(f"review: revise ({FIRST.strip()} …", timeout=15000)
    one_line = page.locator("#history-table [data-testid='cell-1-3'] span").first
    expect(one_line).to_have_text("import")
    box, table = cell.bounding_box(), page.locator("#history-table").bounding_box()
    assert box["height"] > 1.5 * one_line.bounding_box()["height"], box    # wrapped
    assert box["x"] + box["width"] <= table["x"] + table["width"] + 1, (box, table)
    page.locator("#history-table").screenshot(path="/tmp/annfix24a-history-table.png")
