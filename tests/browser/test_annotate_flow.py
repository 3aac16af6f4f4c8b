"""The flows annotators care about, in real Chromium against a real server and SQLite."""
import os
import re
import sqlite3
import subprocess
import sys
import time

import pytest
from playwright.sync_api import expect

from tests.live_server import ROOT, LiveServer, build_ui_db


def open_item(page, url, item_id):
    page.goto(f"{url}/?item={item_id}")
    expect(page.locator("#item-id textarea, #item-id input").first).to_have_value(item_id,
                                                                                 timeout=20000)
    page.wait_for_selector("#annotator canvas")


def show_list(page):
    """Show the item list: below 1700 px wide it starts hidden (assets/list_toggle.js)."""
    page.wait_for_selector("#list-toggle")
    if page.evaluate("document.documentElement.hasAttribute('data-cl-list-hidden')"):
        page.click("#list-toggle")
    expect(page.locator("#item-list")).to_be_visible(timeout=20000)


def draw_box(page, fx0, fy0, fx1, fy1, clue_label):
    """Drag a box across the canvas (fractions of its size) and give it a clue label."""
    page.click("#annotator button[aria-label='Create box']")
    box = page.locator("#annotator canvas").bounding_box()  # re-read before every gesture
    page.mouse.move(box["x"] + box["width"] * fx0, box["y"] + box["height"] * fy0)
    page.mouse.down()
    box = page.locator("#annotator canvas").bounding_box()
    page.mouse.move(box["x"] + box["width"] * fx1, box["y"] + box["height"] * fy1, steps=6)
    page.mouse.up()
    modal = page.locator("#model-box-edit")
    if clue_label is not None:         # None: OK with no clue picked ("(pick a clue)" stays)
        modal.locator("input").first.click()
        page.locator("[data-testid='dropdown-option']", has_text=clue_label).click()
    modal.locator("button", has_text="OK").click()


def type_into(page, selector, text):
    """Type like a person (select all, then keys), so the app sees real input events."""
    field = page.locator(selector)
    field.click()
    page.keyboard.press("Control+A")
    page.keyboard.type(text)


def test_draw_box_assign_clue_save_lands_in_sqlite(ui_server, page):
    open_item(page, ui_server.url, "ui/alpha")
    draw_box(page, 0.30, 0.30, 0.45, 0.42, "clue 1")
    type_into(page, "#save-comment input, #save-comment textarea", "boxed the exit sign")
    page.click("#save-item")
    expect(page.locator("#save-message")).to_contain_text("version 2", timeout=15000)

    con = sqlite3.connect(ui_server.db)
    rows = con.execute(
        "SELECT c.position, c.text, b.x0, b.y0, b.x1, b.y1, i.width, i.height "
        "FROM boxes b JOIN clues c ON c.id = b.clue_id JOIN images i ON i.sha256 = b.image "
        "WHERE c.item_id = 'ui/alpha'").fetchall()
    assert len(rows) == 1
    position, text, x0, y0, x1, y1, width, height = rows[0]
    assert (position, text) == (0, "The blue sign reads EXIT 12")
    assert 0 <= x0 < x1 <= width and 0 <= y0 < y1 <= height
    assert x1 - x0 > 20 and y1 - y0 > 10  # a real drag, in original-image pixels
    revision = con.execute("SELECT version, author, comment FROM revisions "
                           "WHERE item_id = 'ui/alpha' ORDER BY version DESC").fetchone()
    assert revision == (2, "local", "boxed the exit sign")


def test_unlabelled_box_is_refused_with_a_message(ui_server, page):
    """On an item with no clue yet the picker lets OK keep a grey box (its dialog says how
    to give it a clue later); a save of it is refused, naming it. (With a clue, the picker
    preselects it or stays open: tests/browser/test_annotate_annfix15.py.)"""
    open_item(page, ui_server.url, "ui/beta")
    draw_box(page, 0.5, 0.5, 0.6, 0.6, None)   # "(pick a clue)" is no choice of the list
    page.click("#save-item")
    expect(page.locator("#save-message")).to_contain_text("has no clue", timeout=15000)
    con = sqlite3.connect(ui_server.db)
    assert con.execute("SELECT version FROM items WHERE id='ui/beta'").fetchone() == (1,)


def wait_for_draft(db, item_id: str, text: str, seconds: float = 20) -> bool:
    """Does the item's draft hold `text` within `seconds` (autosave runs after the typing)?"""
    con = sqlite3.connect(db)
    try:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            row = con.execute("SELECT data FROM drafts WHERE item_id = ?", [item_id]).fetchone()
            if row and text in row[0]:
                return True
            time.sleep(0.2)
        return False
    finally:
        con.close()


def test_unsaved_edit_survives_reload(ui_server, page):
    open_item(page, ui_server.url, "ui/beta")
    type_into(page, "#item-question textarea", "Is this a railway station?")
    expect(page.locator("#draft-state")).to_contain_text("draft", timeout=15000)
    # the line shows the first autosave, which may be of a half-typed question: reload once
    # the draft holds the whole edit (autosave runs after the typing, always the last one)
    wait_for_draft(ui_server.db, "ui/beta", "Is this a railway station?")
    page.reload()
    expect(page.locator("#item-question textarea")).to_have_value("Is this a railway station?",
                                                                  timeout=20000)
    expect(page.locator("#item-notice")).to_contain_text("unsaved draft")


def type_into_clue_cell_and_reload(page, url, text):
    """Open ui/alpha, type `text` at the end of clue 1's text cell (its editor left open,
    no Enter), then reload the page."""
    open_item(page, url, "ui/alpha")
    expect(page.locator("#clue-table")).to_contain_text("clue 1", timeout=20000)
    page.locator("#clue-table [data-testid='cell-0-2']").dblclick()
    editor = page.locator("#clue-table textarea[aria-label='Edit cell']")
    expect(editor).to_be_focused()
    editor.press("End")
    page.keyboard.type(text)
    page.wait_for_timeout(500)
    page.reload()


def test_a_clue_cell_typed_in_and_not_closed_survives_a_reload(ui_server, page):
    """A clue's words typed into its cell reached the item only when the cell's editor
    closed: a reload in the middle of them lost them (a Question typed the same moment was
    kept). They are given back to their cell when the item opens again in this tab, and
    reach its draft (assets/cell_keep.js)."""
    type_into_clue_cell_and_reload(page, ui_server.url, " and a half-typed thought")
    expect(page.locator("#clue-table [data-testid='cell-0-2']")).to_contain_text(
        "and a half-typed thought", timeout=30000)
    assert wait_for_draft(ui_server.db, "ui/alpha", "and a half-typed thought")
    page.reload()                     # given back once: nothing is added a second time
    expect(page.locator("#clue-table [data-testid='cell-0-2']")).to_contain_text(
        "and a half-typed thought", timeout=30000)
    page.wait_for_timeout(1500)
    assert page.locator("#clue-table [data-testid='cell-0-2']").inner_text().count(
        "half-typed") == 1


def test_a_fresh_page_shows_the_image_first_and_then_the_rest(ui_server, page):
    """The item list, the form and the save bar are built once the first image has arrived
    (docs/PERFORMANCE.md, section 3); then the whole editor is there, filled in."""
    import json

    names = event_names(ui_server.url)
    order = []

    def note(request):
        if "/queue/join" in request.url:
            order.append(names[json.loads(request.post_data)["fn_index"]])
        elif "/gradio_api/file=" in request.url and "/previews/" not in request.url:
            order.append("image")

    def slow_image(route):      # a large image takes a while: the list must wait for it
        time.sleep(1.0)
        route.continue_()

    page.route(re.compile(r"/gradio_api/file=(?!.*/previews/)"), slow_image)
    page.on("request", note)
    page.on("requestfinished", lambda r: order.append("image received")
            if "/gradio_api/file=" in r.url and "/previews/" not in r.url else None)
    page.goto(f"{ui_server.url}/?item=ui/alpha")
    expect(page.locator("#item-question textarea")).to_have_value(
        "Which exit is signposted?", timeout=20000)
    show_list(page)
    expect(page.locator("#item-list")).to_contain_text("ui/beta")
    expect(page.locator("#save-item")).to_be_visible()
    expect(page.locator("#clue-table")).to_contain_text("clue 1")
    # (the strip's thumbnails of these small images are the image files themselves)
    assert order[0] == "open_initial", order
    assert order.index("image received") < order.index("init_browser"), order


def test_next_and_previous_by_button_and_keyboard(ui_server, page):
    open_item(page, ui_server.url, "ui/alpha")
    item_id = page.locator("#item-id textarea, #item-id input").first
    page.click("#next-item")
    expect(item_id).to_have_value("ui/beta", timeout=15000)
    page.locator("#image-info").click()     # focus out of the id box (not on the link)
    page.keyboard.press("Alt+ArrowRight")
    expect(item_id).to_have_value("ui/gamma", timeout=15000)
    page.click("#prev-item")
    expect(item_id).to_have_value("ui/beta", timeout=15000)
    page.wait_for_url(re.compile(r"item=ui(%2F|/)beta"), timeout=10000)  # shareable link


def test_image_strip_picks_the_image_to_annotate(ui_server, page):
    """ui/alpha has two images: the strip shows both, marks the one in the annotator, and a
    click on the second puts that one in the annotator."""
    open_item(page, ui_server.url, "ui/alpha")
    thumbs = page.locator("#image-strip button.cl-thumb")
    expect(thumbs).to_have_count(2)
    expect(thumbs.nth(0)).to_have_attribute("aria-current", "true")
    expect(page.locator("#image-info")).to_contain_text("Image 1 of 2")
    thumbs.nth(1).click()
    expect(page.locator("#image-info")).to_contain_text("Image 2 of 2", timeout=15000)
    expect(thumbs.nth(1)).to_have_attribute("aria-current", "true")
    expect(thumbs.nth(0)).not_to_have_attribute("aria-current", "true")


def test_history_panel_opens_with_the_items_revisions(ui_server, page):
    """The panel's widgets are built only when it is first opened; what they show was kept
    up to date meanwhile (here: the revision made by a save before opening it)."""
    open_item(page, ui_server.url, "ui/beta")
    assert page.locator("#history-table").count() == 0
    type_into(page, "#item-question textarea", "Is this a railway station?")
    page.click("#save-item")
    expect(page.locator("#save-message")).to_contain_text("version 2", timeout=15000)
    page.locator("#history button.label-wrap").click()
    table = page.locator("#history-table")
    expect(table).to_contain_text("local", timeout=15000)
    # header + 2 revisions (rows of Gradio's table are drawn lazily: count them from ARIA)
    expect(table.locator("[role=grid]")).to_have_attribute("aria-rowcount", "3")
    expect(page.locator("#review-list")).to_contain_text("No reviews yet")


def test_restore_asks_first_and_a_cancel_changes_nothing(ui_server, page):
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    open_item(page, ui_server.url, "ui/beta")
    type_into(page, "#item-question textarea", "Is this a railway station?")
    page.click("#save-item")
    expect(page.locator("#save-message")).to_contain_text("version 2", timeout=15000)
    page.locator("#history button.label-wrap").click()
    type_into(page, "#history input[aria-label='Version A']", "1")
    page.once("dialog", lambda d: d.dismiss())
    page.click("#history-restore")
    page.wait_for_timeout(1500)
    con = sqlite3.connect(ui_server.db)
    assert con.execute("SELECT version FROM items WHERE id='ui/beta'").fetchone() == (2,)
    page.once("dialog", lambda d: d.accept())
    page.click("#history-restore")
    expect(page.locator("#save-message")).to_contain_text("Restored version 1 as version 3",
                                                          timeout=15000)
    assert con.execute("SELECT version FROM items WHERE id='ui/beta'").fetchone() == (3,)
    assert errors == []


def event_names(url):
    """fn_index → api_name, from the app's config."""
    import json
    import urllib.request

    config = json.loads(urllib.request.urlopen(url + "/config").read())
    return {d["id"]: d["api_name"] for d in config["dependencies"]}


def test_next_is_one_request_and_drawn_boxes_are_kept_as_a_draft(ui_server, page):
    """Showing another item is not an edit: no autosave round trip follows a Next. Drawing
    a box is: it is kept as a draft that survives a reload."""
    import json

    names = event_names(ui_server.url)
    sent, errors = [], []
    page.on("request", lambda r: sent.append(names[json.loads(r.post_data)["fn_index"]])
            if "/queue/join" in r.url else None)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    open_item(page, ui_server.url, "ui/alpha")
    page.wait_for_timeout(1000)
    sent.clear()
    page.click("#next-item")
    expect(page.locator("#item-id textarea, #item-id input").first).to_have_value(
        "ui/beta", timeout=15000)
    page.wait_for_selector("#annotator canvas")
    page.wait_for_timeout(1500)
    assert sent == ["next_item"]
    assert errors == []     # the dropped autosave is not reported as a failed event
    page.click("#add-clue")
    expect(page.locator("#clue-table")).to_contain_text("clue 1", timeout=15000)
    draw_box(page, 0.2, 0.2, 0.4, 0.4, "clue 1")
    expect(page.locator("#draft-state")).to_contain_text("draft", timeout=15000)
    assert "autosave_boxes" in sent
    page.reload()
    expect(page.locator("#item-notice")).to_contain_text("unsaved draft", timeout=20000)
    con = sqlite3.connect(ui_server.db)
    draft = con.execute("SELECT data FROM drafts WHERE item_id='ui/beta'").fetchone()
    assert draft and '"x0"' in draft[0]


@pytest.fixture
def auth_server(tmp_path):
    db = tmp_path / "auth.db"
    build_ui_db(db)
    for name in ("alice", "bob"):
        subprocess.run([sys.executable, str(ROOT / "app.py"), "user", "add", name,
                        "--role", "annotator", "--db", str(db)], check=True,
                       env={**os.environ, "CLUELAB_PASSWORD": f"{name}-secret-pw"})
    server = LiveServer(db, "--auth")
    server.db = db
    yield server
    server.stop()


def login(page, url, name):
    page.goto(url + "/")
    page.fill("input[type=text], input[name=username]", name)
    page.fill("input[type=password]", f"{name}-secret-pw")
    page.keyboard.press("Enter")
    page.wait_for_selector("#item-editor", timeout=20000)


def test_conflict_between_two_pages_keeps_both_edits(auth_server, browser):
    alice = browser.new_context(viewport={"width": 1600, "height": 1000}).new_page()
    bob = browser.new_context(viewport={"width": 1600, "height": 1000}).new_page()
    login(alice, auth_server.url, "alice")
    login(bob, auth_server.url, "bob")
    open_item(alice, auth_server.url, "ui/beta")
    open_item(bob, auth_server.url, "ui/beta")

    type_into(alice, "#item-gt-reasoning textarea", "Alice's reasoning, which Bob never saw")
    type_into(alice, "#item-question textarea", "Alice's question?")
    alice.keyboard.press("Control+s")  # the save shortcut, straight from the text field
    expect(alice.locator("#save-message")).to_contain_text("version 2", timeout=15000)

    type_into(bob, "#item-question textarea", "Bob's question?")
    bob.click("#save-item")
    expect(bob.locator("#conflict-message")).to_contain_text("changed by alice", timeout=15000)
    expect(bob.locator("#conflict-message")).to_be_visible()
    # the comparison is open with the panel (its button hides it)
    expect(bob.locator("#conflict-compare")).to_have_text("Hide comparison")
    expect(bob.locator("#conflict-diff")).to_contain_text("Alice's question?", timeout=15000)
    expect(bob.locator("#conflict-diff")).to_contain_text("Bob's question?")
    expect(bob.locator("#conflict-diff")).to_contain_text("them (theirs kept)")
    expect(bob.locator("#conflict-take-saved")).to_contain_text("question")
    expect(bob.locator("#item-question textarea")).to_have_value("Bob's question?")
    # the table wraps: no sideways scrolling inside the conflict panel
    assert bob.evaluate("""() => [...document.querySelectorAll('#conflict-diff *')]
        .every((e) => e.scrollWidth <= e.clientWidth + 1 || getComputedStyle(e).overflowX
               === 'visible' || getComputedStyle(e).overflowX === 'hidden')""")

    con = sqlite3.connect(auth_server.db)
    assert con.execute("SELECT question, version, updated_by FROM items WHERE id='ui/beta'"
                       ).fetchone() == ("Alice's question?", 2, "alice")
    draft = con.execute("SELECT data FROM drafts WHERE user='bob' AND item_id='ui/beta'").fetchone()
    assert draft and "Bob's question?" in draft[0]

    bob.click("#conflict-overwrite")
    expect(bob.locator("#save-message")).to_contain_text("version 3", timeout=15000)
    assert con.execute("SELECT question, updated_by FROM items WHERE id='ui/beta'"
                       ).fetchone() == ("Bob's question?", "bob")
    # Save merged kept what only Alice changed ("Save mine over it" reverted it)
    assert con.execute("SELECT gt_reasoning FROM items WHERE id='ui/beta'").fetchone() == (
        "Alice's reasoning, which Bob never saw",)


def test_hostile_imported_text_stays_inert(tmp_path, page):
    from store import Store

    db = tmp_path / "hostile.db"
    build_ui_db(db)
    hostile = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'
    store = Store.open(db)
    item = store.get_item("ui/beta")
    store.create_item({**item, "id": "ui/hostile", "question": hostile + " [c](javascript:alert(1))",
                       "problems": [f"option text {hostile}"], "status": "draft"}, "fixture")
    store.close()
    server = LiveServer(db, "--no-auth")
    try:
        open_item(page, server.url, "ui/hostile")
        show_list(page)
        page.click("#item-notice summary")          # the import problems, opened
        expect(page.locator("#item-notice")).to_contain_text("onerror", timeout=15000)
        expect(page.locator("#item-list")).to_contain_text("<img src=x")
        assert page.evaluate("window.__pwned") is None
        assert page.locator("#item-notice a[href^='javascript']").count() == 0
        assert page.locator("#item-list img, #item-notice img").count() == 0
    finally:
        server.stop()


def test_an_unknown_item_in_the_url_opens_the_first_item_and_says_so(ui_server, page):
    """?item= of no item (or of a deleted one) left a blank form that took typing, with the
    answer type's controls of no item, and refused to save it ("open an item first")."""
    page.goto(f"{ui_server.url}/?item=ui/no-such-item")
    toast = page.locator(".toast-body", has_text="No item has the id in this page's address")
    expect(toast).to_contain_text("The first item of the list is open: ui/alpha",
                                  timeout=20000)
    expect(page.locator("#item-id textarea, #item-id input").first).to_have_value(
        "ui/alpha", timeout=20000)
    expect(page.locator("#item-question textarea")).to_have_value("Which exit is signposted?")
