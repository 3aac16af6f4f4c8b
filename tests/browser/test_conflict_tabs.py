"""Two tabs of one account editing one item: the second save opens the conflict panel (it
must not silently write over the first tab's save). And a released item's structure buttons
(Add clue, Up, Down, Remove clue, the image buttons) show disabled, enabled again on an
editable item: they looked enabled and each press was refused."""
import pytest
from playwright.sync_api import expect

from store import Store
from tests.browser.test_annotate_flow import open_item, type_into

BUTTONS = ["#add-clue", "#clue-up", "#clue-down", "#remove-clue", "#add-image",
           "#image-left", "#image-right", "#remove-image"]


@pytest.fixture
def server(module_ui_server):
    return module_ui_server


def test_the_second_tab_s_save_opens_the_conflict_panel(server, browser):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    one, two = context.new_page(), context.new_page()
    for page in (one, two):
        open_item(page, server.url, "ui/alpha")
    type_into(one, "#item-question textarea", "From tab one?")
    type_into(two, "#item-gt-reasoning textarea", "from tab two")
    one.wait_for_timeout(800)                       # the autosaves reach the server
    one.click("#save-item")
    expect(one.locator("#save-message")).to_contain_text("version 2", timeout=15000)
    two.click("#save-item")
    expect(two.locator("#conflict-panel")).to_be_visible(timeout=15000)
    expect(two.locator("#conflict-message")).to_contain_text("another tab or window")
    expect(two.locator("#save-message")).to_contain_text("waiting for your choice")
    store = Store.open(server.db)
    item = store.get_item("ui/alpha")
    store.close()
    assert (item["version"], item["question"], item["gt_reasoning"]) == (
        2, "From tab one?", "")
    two.click("#conflict-overwrite")                 # Save merged: both tabs' edits
    expect(two.locator("#save-message")).to_contain_text("version 3", timeout=15000)
    store = Store.open(server.db)
    item = store.get_item("ui/alpha")
    store.close()
    assert (item["question"], item["gt_reasoning"]) == ("From tab one?", "from tab two")
    context.close()


def _disabled(page) -> list[bool]:
    return [page.locator(selector).first.is_disabled() for selector in BUTTONS]


def test_a_released_item_shows_its_structure_buttons_disabled(server, page):
    """A released item of two images (Move ▶ is the page's to enable on image 1:
    assets/image_moves.js keeps it disabled while the item is read-only)."""
    store = Store.open(server.db)
    store.duplicate_item("ui/alpha", "ui/frozen", "fixture")
    frozen = store.get_item("ui/frozen")
    store.save_item({**frozen, "status": "released"}, frozen["version"], "admin",
                    may_release=True)
    store.close()
    page.set_viewport_size({"width": 1400, "height": 900})
    open_item(page, server.url, "ui/frozen")
    expect(page.locator("#item-notice .cl-read-only")).to_be_visible(timeout=15000)
    page.wait_for_function("document.querySelector('#add-clue')?.disabled", timeout=15000)
    page.wait_for_timeout(500)
    assert _disabled(page) == [True] * len(BUTTONS)
    box = page.locator("#item-id textarea, #item-id input").first
    box.fill("ui/beta")                               # editable, one image
    box.press("Enter")
    expect(page.locator("#item-notice .cl-read-only")).to_have_count(0, timeout=15000)
    page.wait_for_function("document.querySelector('#add-clue')?.disabled === false",
                           timeout=15000)
    page.wait_for_timeout(500)
    # ◀ Move and Move ▶ stay disabled on the only image (nowhere to move it)
    assert _disabled(page) == [False] * 5 + [True, True, False]
