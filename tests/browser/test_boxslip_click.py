"""A click in the drawing mode that slips a pixel or two makes no box (assets/box_slip.js):
the box annotator kept any box of a canvas pixel or more, so a 2 px slip made a 1x1 px box
and opened the clue picker for it. A real drag still draws its box."""
import sqlite3

from playwright.sync_api import expect

from tests.browser.test_annotate_flow import open_item


def press_and_release(page, dx, dy):
    page.click("#annotator button[aria-label='Create box']")
    box = page.locator("#annotator canvas").bounding_box()
    x, y = box["x"] + box["width"] * 0.5, box["y"] + box["height"] * 0.5
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + dx, y + dy, steps=3)
    page.mouse.up()


def saved_boxes(db):
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT COUNT(*) FROM boxes b JOIN clues c ON c.id = b.clue_id "
                           "WHERE c.item_id = 'ui/alpha'").fetchone()[0]
    finally:
        con.close()


def test_a_slipped_click_draws_nothing_a_drag_draws_a_box(module_ui_server, page):
    open_item(page, module_ui_server.url, "ui/alpha")
    before = saved_boxes(module_ui_server.db)
    for dx, dy in ((2, 1), (-3, 3), (0, -2)):
        press_and_release(page, dx, dy)
        page.wait_for_timeout(600)
        expect(page.locator("#model-box-edit")).to_have_count(0)

    press_and_release(page, 40, 30)                       # a box drawn on purpose
    expect(page.locator("#model-box-edit")).to_be_visible(timeout=5000)
    page.locator("#model-box-edit button", has_text="Cancel").click()
    expect(page.locator("#model-box-edit")).to_have_count(0)
    assert saved_boxes(module_ui_server.db) == before
