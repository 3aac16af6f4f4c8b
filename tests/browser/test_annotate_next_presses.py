"""Next pressed several times quickly, in real Chromium (found by a context-free review):
three quick Alt+→ moved one item, the presses made while the next item opened dropped."""
from playwright.sync_api import expect

from tests.browser.test_annotate_list import id_box, long_list, opened  # noqa: F401


def test_three_quick_alt_right_move_three_items(long_list, browser):  # noqa: F811
    context, page = opened(browser, long_list.url, "ui/row-010")
    page.locator("#image-info").click()                   # no text field has the focus
    for _ in range(3):
        page.keyboard.press("Alt+ArrowRight")            # as fast as the keyboard goes
    expect(id_box(page)).to_have_value("ui/row-013", timeout=15000)
    page.wait_for_timeout(1500)
    expect(id_box(page)).to_have_value("ui/row-013")     # and no further
    for _ in range(2):
        page.click("#prev-item")                         # the buttons count alike
    expect(id_box(page)).to_have_value("ui/row-011", timeout=15000)
    page.keyboard.press("Alt+ArrowRight")                # one press is one item
    expect(id_box(page)).to_have_value("ui/row-012", timeout=15000)
    context.close()
