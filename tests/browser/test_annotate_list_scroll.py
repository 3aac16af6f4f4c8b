"""The item list's scrolling at 1400x900, in real Chromium (found by a context-free review):
a new search or page showed its rows from the old scroll position (the middle of the new
results), and the rows scrolled under the list's header showed their text beside it, over
the list's top, since the header ended short of the rows."""
from playwright.sync_api import expect

from tests.browser.test_annotate_list import (TOTAL, id_box, long_list,  # noqa: F401
                                              opened, searched)

VIEW = "#item-list .virtual-table-viewport"


def scrolled(page, top: int) -> int:
    """Scroll the list to `top` (as far as it goes); the scroll position it took."""
    page.eval_on_selector(VIEW, "(v, top) => { v.scrollTop = top; }", top)
    page.wait_for_timeout(400)
    return page.eval_on_selector(VIEW, "(v) => v.scrollTop")


def first_row_shown(page) -> str:
    """The id of the row right under the header."""
    return page.evaluate("""() => {
      const view = document.querySelector('#item-list .virtual-table-viewport');
      const head = view.querySelector('.header-table').getBoundingClientRect();
      const rows = [...view.querySelectorAll('.virtual-row')]
        .filter((r) => r.getBoundingClientRect().bottom > head.bottom + 2)
        .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
      return rows.length ? rows[0].querySelector('.body-cell').innerText.trim() : null;
    }""")


def expect_at_the_top(page, first_id):
    page.wait_for_function(f"document.querySelector('{VIEW}').scrollTop === 0",
                           timeout=15000)
    expect(page.locator(VIEW)).to_contain_text(first_id)
    assert first_row_shown(page) == first_id


def test_a_new_search_or_page_is_shown_from_its_top(long_list, browser):  # noqa: F811
    context, page = opened(browser, long_list.url, "ui/alpha")
    assert scrolled(page, 1500) > 1000
    searched(page, "row-0", 100)                    # ui/alpha is not among them
    expect_at_the_top(page, "ui/row-000")
    assert scrolled(page, 1200) > 1000
    count = searched(page, "row", 120)              # 120 rows: two pages
    expect(count).to_contain_text("(page 1 of 2)")
    expect_at_the_top(page, "ui/row-000")
    assert scrolled(page, 1200) > 1000
    page.click("#list-next-page")
    expect(count).to_contain_text("(page 2 of 2)", timeout=15000)
    expect_at_the_top(page, "ui/row-100")
    assert scrolled(page, 300) > 100
    page.click("#list-prev-page")
    expect(count).to_contain_text("(page 1 of 2)", timeout=15000)
    expect_at_the_top(page, "ui/row-000")
    # a listing that holds the open item shows its row, as before
    id_box(page).fill("ui/row-050")
    id_box(page).press("Enter")
    expect(id_box(page)).to_have_value("ui/row-050", timeout=15000)
    page.wait_for_function("""() => {
      const row = document.querySelector('#item-list .virtual-row[data-cl-open]');
      const view = document.querySelector('#item-list .virtual-table-viewport');
      if (!row) return false;
      const r = row.getBoundingClientRect(), v = view.getBoundingClientRect();
      return r.top >= v.top && r.bottom <= v.bottom; }""", timeout=15000)
    context.close()


def test_no_row_shows_over_the_lists_header(long_list, browser):  # noqa: F811
    context, page = opened(browser, long_list.url, "ui/alpha")
    assert scrolled(page, 700) > 500
    page.wait_for_timeout(300)
    found = page.evaluate("""() => {
      const view = document.querySelector('#item-list .virtual-table-viewport');
      const head = view.querySelector('.header-table');
      const h = head.getBoundingClientRect(), v = view.getBoundingClientRect();
      const row = view.querySelector('.virtual-row').getBoundingClientRect();
      const y = h.top + h.height / 2;
      const stray = [];
      for (let x = v.left + 2; x < Math.min(v.right, row.right) - 2; x += 4) {
        const at = document.elementFromPoint(x, y);
        if (at && at.closest('.virtual-row')) stray.push(Math.round(x - v.left));
      }
      return {stray, headRight: h.right, rowRight: row.right};
    }""")
    assert found["stray"] == [], found                 # were the question column's rows
    assert found["headRight"] >= found["rowRight"] - 1, found
    context.close()
