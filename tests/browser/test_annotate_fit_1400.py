"""The Annotate page at 1400x900 with the item list open (an annotator's review), in real
Chromium: a save bar message of three lines ran down off the screen (the message box at
y 856, its text 68 px tall in a 900 px window); the image's line read "Ima…" and "Image lost at import (see its problems): Add image ad…"; the list's
floating ↑ covered its last row; a chosen subtask filter ran under its arrow; the gold
answer's hint was cut."""
import pytest
from playwright.sync_api import expect

from tests.live_server import LiveServer, make_scene, open_ui_store

LOST = ["image file not found: image 1 (a file at that path inside the image folder)"]


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory):
    directory = tmp_path_factory.mktemp("fit1400")
    db = directory / "fit.db"
    store = open_ui_store(db)
    base = store.get_item("ui/alpha")
    photo = store.add_image(make_scene(directory / "photo.png", size=(1600, 1100),
                                       sign=(200, 200, 360, 260)), "photo.png").sha256
    for k in range(30):
        store.create_item({**base, "id": f"dc/plan-{k:02d}", "subtask": "Planning and Consumption",
                           "images": [] if k == 0 else [photo, base["images"][0]],
                           "problems": LOST if k == 0 else [], "answer": ""}, "fixture")
    store.close()
    server = LiveServer(db, "--no-auth")
    yield server
    server.stop()


@pytest.fixture
def page_1400(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    yield context.new_page()
    context.close()


def opened_with_list(page, url, item_id):
    page.goto(f"{url}/?item={item_id}")
    expect(page.locator("#save-item")).to_be_visible(timeout=20000)
    toggle = page.locator(".cl-list-toggle")
    expect(toggle).to_be_visible(timeout=10000)
    if toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    expect(page.locator("#item-list .virtual-row").first).to_be_visible(timeout=15000)
    page.wait_for_timeout(800)


CUT = """(selector) => [...document.querySelectorAll(selector)].filter(e => e.offsetParent)
  .filter(e => e.scrollWidth > e.clientWidth + 1 || getComputedStyle(e).textOverflow
    === 'ellipsis' && e.scrollWidth > e.clientWidth).map(e => e.textContent.trim())"""

PLACEHOLDER_CUT = """(selector) => {
  const e = document.querySelector(selector);
  const style = getComputedStyle(e, '::placeholder');
  const measure = document.createElement('canvas').getContext('2d');
  measure.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const room = e.clientWidth - parseFloat(getComputedStyle(e).paddingLeft)
    - parseFloat(getComputedStyle(e).paddingRight);
  return measure.measureText(e.placeholder).width > room + 1;
}"""


def test_the_lines_around_the_image_and_the_filters_read_whole(reviewed, page_1400):
    page = page_1400
    opened_with_list(page, reviewed.url, "dc/plan-01")
    assert page.evaluate(CUT, "#image-info, #image-info .prose") == []
    assert not page.evaluate(PLACEHOLDER_CUT, "#item-answer input, #item-answer textarea")
    opened_with_list(page, reviewed.url, "dc/plan-00")      # the lost image's line
    expect(page.locator("#image-info")).to_contain_text("Image lost at import")
    assert page.evaluate(CUT, "#image-info, #image-info .prose") == []


def test_the_list_scroll_button_covers_no_row(reviewed, page_1400):
    page = page_1400
    opened_with_list(page, reviewed.url, "dc/plan-25")
    viewport = page.locator("#item-list .virtual-table-viewport")
    viewport.evaluate("v => { v.scrollTop = v.scrollHeight; v.dispatchEvent(new Event('scroll')); }")
    button = page.locator("#item-list .scroll-top-button")
    expect(button).to_be_visible(timeout=5000)
    at = button.bounding_box()
    head = page.locator("#item-list .header-cell").first.bounding_box()
    view = viewport.bounding_box()
    shown = [r for r in (row.bounding_box() for row in
                         page.locator("#item-list .virtual-row").all())
             if r and r["y"] >= head["y"] + head["height"] - 1
             and r["y"] < view["y"] + view["height"] - 1]            # rows in view
    assert shown
    for r in shown:
        assert at["y"] >= r["y"] + r["height"] - 1 or at["y"] + at["height"] <= r["y"] + 1, \
            (at, r)


def test_a_three_line_message_grows_upwards_fully_in_view(reviewed, page_1400):
    page = page_1400
    opened_with_list(page, reviewed.url, "dc/plan-03")
    page.locator("#item-status input").click()
    page.locator("#item-status [data-testid='dropdown-option']", has_text="in_review").click()
    page.click("#save-item")
    message = page.locator("#save-message")
    expect(message).to_contain_text("keep it a draft until it has one", timeout=15000)
    page.wait_for_timeout(500)
    box, status = message.bounding_box(), page.locator("#save-status").bounding_box()
    assert box["height"] > status["height"]                      # three lines, over two
    assert box["y"] >= 0 and box["y"] + box["height"] <= status["y"] + status["height"] + 1
    assert box["y"] + box["height"] <= 900, box                   # it ran off at 924
    assert message.evaluate("e => e.scrollHeight <= e.clientHeight + 1")      # whole
    expect(page.locator("[data-testid='toast-body']")).to_have_count(0)     # said once


def test_the_image_stays_in_view_while_the_form_scrolls(reviewed, page_1400):
    """A review: scrolled down to the options and GT reasoning, the left half of the page
    was empty, the image (and the clue being written about) out of sight."""
    page = page_1400
    page.goto(f"{reviewed.url}/?item=dc/plan-01")
    expect(page.locator("#save-item")).to_be_visible(timeout=20000)
    page.locator("#item-gt-reasoning textarea").scroll_into_view_if_needed()
    page.evaluate("window.scrollBy(0, 400)")
    page.wait_for_timeout(500)
    box = page.locator("#image-column").bounding_box()
    assert page.evaluate("window.scrollY") > 300
    assert 0 <= box["y"] < 40 and box["y"] + box["height"] <= 900 + 1, box


def test_the_image_keeps_its_size_when_a_fit_runs_scrolled(reviewed, page_1400):
    """The image column is sticky: a fit made with the page scrolled (Add option scrolls to
    the new row, which redraws the form) took the column's top on screen plus the scroll for
    its top on the page, and shrank the image to about half (611 -> 352 px wide)."""
    page = page_1400
    page.goto(f"{reviewed.url}/?item=dc/plan-02")
    expect(page.locator("#save-item")).to_be_visible(timeout=20000)
    page.wait_for_timeout(800)
    canvas = page.locator("#annotator .canvas-container")
    before = canvas.bounding_box()
    page.locator("#item-gt-reasoning textarea").scroll_into_view_if_needed()
    page.evaluate("window.scrollBy(0, 400)")
    page.wait_for_timeout(300)
    assert page.evaluate("window.scrollY") > 300
    page.evaluate("window.dispatchEvent(new Event('resize'))")      # a fit, scrolled
    page.locator("#item-gt-reasoning textarea").fill("Edited while scrolled.")
    page.wait_for_timeout(800)
    after = canvas.bounding_box()
    assert abs(after["width"] - before["width"]) <= 2, (before, after)
