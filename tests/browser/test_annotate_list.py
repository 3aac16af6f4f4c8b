"""The Annotate page's item list and image strip as an annotator curating hundreds of items
uses them, at 1400x900 with the list open, in real Chromium.

Found by a review: beside the list, thumbnails 3 and 4 of a four-image item were hidden
under the image's buttons; after Next onto an item of the list's next page the list stayed
on the old page (the open row nowhere); the filters and search were reset by a reload; a
search box cleared and left kept its filter; a table's header could be renamed by clicking
it (the clue table's "text")."""
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from tests.browser.test_annotate_flow import show_list
from tests.live_server import LiveServer, open_ui_store, make_scene

ROWS = 120        # ui/row-000 … ui/row-119 after build_ui_db's three and ui/frames
FRAMES = 6        # images of ui/frames
TOTAL = 3 + 1 + ROWS
LAST_OF_PAGE_1 = "ui/row-095"      # ui/alpha, beta, frames, gamma, then 96 rows: 100


@pytest.fixture(scope="module")
def long_list(tmp_path_factory):
    directory = tmp_path_factory.mktemp("list")
    db = directory / "list.db"
    store = open_ui_store(db)
    base = store.get_item("ui/alpha")
    frames = [store.add_image(make_scene(directory / f"f{n}.png", size=(640, 480),
                                         color=f"#{40 * n:02x}c0e0"), f"f{n}.png").sha256
              for n in range(FRAMES)]
    store.create_item({**base, "id": "ui/frames", "images": frames}, "fixture")
    for n in range(ROWS):
        store.create_item({**base, "id": f"ui/row-{n:03d}", "question": f"Row {n}?",
                           "images": frames[:1], "clues": []}, "fixture")
    store.close()
    server = LiveServer(db, "--no-auth")
    yield server
    server.stop()


def opened(browser, url, item_id):
    """A new browser (its own storage) at 1400x900 on `item_id`, the list shown."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    page.goto(f"{url}/?item={quote(item_id, safe='')}")
    expect(id_box(page)).to_have_value(item_id, timeout=20000)
    show_list(page)
    expect(page.locator("#browser-count")).to_contain_text(f"of {TOTAL} items match",
                                                           timeout=20000)
    return context, page


def id_box(page):
    return page.locator("#item-id textarea, #item-id input").first


def search_box(page):
    return page.locator("#browser-search textarea, #browser-search input").first


def searched(page, text, matches):
    """The list after `text` typed into the search box and Enter."""
    search_box(page).fill(text)
    search_box(page).press("Enter")
    count = page.locator("#browser-count")
    expect(count).to_contain_text(f"{matches} of {TOTAL} items match", timeout=15000)
    return count


OPEN_ROW_SEEN = """(id) => {
  const row = document.querySelector('#item-list .virtual-row[data-cl-open]');
  if (!row || !row.textContent.includes(id)) return false;
  const r = row.getBoundingClientRect();
  const view = document.querySelector('#item-list .virtual-table-viewport');
  const head = view.querySelector('.header-table').getBoundingClientRect();
  return r.top >= head.bottom - 1 && r.bottom <= view.getBoundingClientRect().bottom + 1
    && r.top >= 0 && r.bottom <= window.innerHeight;
}"""


def expect_open_row_in_view(page, item_id):
    """The open item's row is marked, in the list's view and on the screen."""
    page.wait_for_function(OPEN_ROW_SEEN, arg=item_id, timeout=30000)   # a loaded machine


def test_every_image_of_the_strip_shows_beside_the_list(long_list, browser):
    context, page = opened(browser, long_list.url, "ui/frames")
    thumbs = page.locator("#image-strip button.cl-thumb")
    expect(thumbs).to_have_count(FRAMES)
    page.wait_for_timeout(300)
    hidden = page.evaluate("""() => [...document.querySelectorAll('#image-strip .cl-thumb')]
      .filter((t) => { const r = t.getBoundingClientRect();
        const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return r.right > window.innerWidth || !at || !t.contains(at); })
      .map((t) => t.dataset.label)""")
    assert hidden == []                                 # were 3 and 4 (of 4), under Move
    for button in ("#add-image", "#image-left", "#image-right", "#remove-image"):
        expect(page.locator(button)).to_be_in_viewport()
    thumbs.nth(FRAMES - 1).click()
    expect(page.locator("#image-info")).to_contain_text(f"Image {FRAMES} of {FRAMES}",
                                                        timeout=15000)
    context.close()


def test_the_list_shows_the_page_holding_the_open_item(long_list, browser):
    context, page = opened(browser, long_list.url, LAST_OF_PAGE_1)
    count = page.locator("#browser-count")
    expect(count).to_contain_text("(page 1 of 2)")
    expect_open_row_in_view(page, LAST_OF_PAGE_1)       # the page's last row, in view
    page.click("#next-item")
    expect(id_box(page)).to_have_value("ui/row-096", timeout=15000)
    expect(count).to_contain_text("(page 2 of 2)", timeout=15000)    # stayed on page 1
    expect_open_row_in_view(page, "ui/row-096")
    for n in range(97, 109):                             # a dozen Next: still in view
        page.click("#next-item")
        expect(id_box(page)).to_have_value(f"ui/row-{n:03d}", timeout=15000)
    expect_open_row_in_view(page, "ui/row-108")
    page.click("#list-prev-page")                        # turned by hand: page 1 stays
    expect(count).to_contain_text("(page 1 of 2)", timeout=15000)
    page.click("#save-item")                             # a save shows the item's page
    expect(page.locator("#save-message")).to_contain_text("Nothing to save", timeout=15000)
    expect(count).to_contain_text("(page 2 of 2)", timeout=15000)
    expect_open_row_in_view(page, "ui/row-108")
    page.reload()                                        # and so does a reload
    expect(count).to_contain_text("(page 2 of 2)", timeout=20000)
    expect_open_row_in_view(page, "ui/row-108")
    context.close()


def test_the_filters_and_search_survive_a_reload(long_list, browser):
    context, page = opened(browser, long_list.url, "ui/row-110")
    count = searched(page, "row-11", 10)
    page.locator("#filter-flagged").get_by_text("not flagged").click()
    expect(count).to_contain_text(f"10 of {TOTAL} items match", timeout=15000)
    page.locator("#filter-dataset input").click()           # a choice of a dropdown too
    page.locator("[data-testid='dropdown-option']", has_text="ui").first.click()
    expect(page.locator("#filter-dataset input")).to_have_value("ui", timeout=15000)
    page.wait_for_timeout(500)
    page.reload()
    expect(count).to_contain_text(f"10 of {TOTAL} items match", timeout=20000)
    # the list and the form came up: a kept dropdown choice was refused before the list
    # offered it, and the page stayed without either
    expect(page.locator("#filter-dataset input")).to_have_value("ui")
    expect(page.locator("#save-item")).to_be_visible()
    expect(search_box(page)).to_have_value("row-11")
    expect(page.locator("#filter-flagged input[value='not flagged']")).to_be_checked()
    expect_open_row_in_view(page, "ui/row-110")
    # kept by this browser only: another one starts with every item
    other, fresh = opened(browser, long_list.url, "ui/row-110")
    expect(fresh.locator("#browser-count")).to_contain_text(f"{TOTAL} of {TOTAL} items match")
    expect(search_box(fresh)).to_have_value("")
    other.close()
    context.close()


def test_the_list_button_says_when_the_filters_leave_items_out(long_list, browser):
    """A search typed long ago, the list hidden: Next went to an item of the one match, with
    nothing on screen saying a filter was on. The list button says "1 of N"."""
    context, page = opened(browser, long_list.url, "ui/row-110")
    toggle = page.locator("#list-toggle")
    expect(toggle).to_have_text("☰ Items")
    searched(page, "row-110", 1)
    expect(toggle).to_have_text(f"☰ Items · 1 of {TOTAL}", timeout=10000)
    toggle.click()                                           # the list hidden: still said
    expect(page.locator("#item-browser")).to_be_hidden()
    expect(toggle).to_have_text(f"☰ Items · 1 of {TOTAL}")
    toggle.click()
    search_box(page).fill("")
    search_box(page).press("Enter")
    expect(toggle).to_have_text("☰ Items", timeout=15000)
    context.close()


def test_a_search_box_cleared_and_left_lists_every_item(long_list, browser):
    context, page = opened(browser, long_list.url, "ui/row-110")
    count = searched(page, "row-11", 10)
    search_box(page).fill("")
    page.locator("#item-header").click()                 # anywhere else: no Enter
    expect(count).to_contain_text(f"{TOTAL} of {TOTAL} items match", timeout=15000)
    expect(count).to_contain_text("(page 2 of 2)")      # where the open item is
    expect_open_row_in_view(page, "ui/row-110")
    # a box left as it was applies nothing: a page turned by hand stays
    page.click("#list-prev-page")
    expect(count).to_contain_text("(page 1 of 2)", timeout=15000)
    search_box(page).click()
    page.locator("#item-header").click()
    page.wait_for_timeout(1500)
    expect(count).to_contain_text("(page 1 of 2)")
    context.close()


def test_table_headers_cannot_be_renamed(long_list, browser):
    context, page = opened(browser, long_list.url, "ui/alpha")
    expect(page.locator("#clue-table")).to_contain_text("The blue sign reads EXIT 12",
                                                        timeout=15000)
    for table in ("#clue-table", "#item-list"):
        heads = page.locator(f"{table} th.header-cell")
        names = [h.inner_text().strip() for h in heads.all()]
        for head in heads.all():
            head.click()                                 # Gradio: edits the header's text
            head.dblclick()
            head.focus()                                 # Enter / F2 on a focused header
            page.keyboard.press("F2")
            page.keyboard.press("Enter")
            assert page.locator(f"{table} th.header-cell textarea, "
                                f"{table} th.header-cell input[type=text]").count() == 0
            page.keyboard.type("renamed")
            page.keyboard.press("Escape")
        assert [h.inner_text().strip() for h in heads.all()] == names, table
    # the clue table's cells still take typing
    cell = page.locator("#clue-table [data-testid='cell-0-1']")
    cell.dblclick()
    expect(page.locator("#clue-table textarea[aria-label='Edit cell']")).to_be_visible()
    context.close()
