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
from tests.live_server import LiveServer, build_ui_db, make_scene

ROWS = 120        # ui/row-000 … ui/row-119 after build_ui_db's three and ui/frames
FRAMES = 6        # images of ui/frames
TOTAL = 3 + 1 + ROWS
LAST_OF_PAGE_1 = "ui/row-095"      # ui/alpha, beta, frames, gamma, then 96 rows: 100


@pytest.fixture(scope="module")
def long_list(tmp_path_factory):
    from store import Store

    directory = tmp_path_factory.mktemp("list")
    db = directory / "list.db"
    build_ui_db(db)
    store = Store.open(db)
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
