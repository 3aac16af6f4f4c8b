"""Create, duplicate and delete items from the Annotate page's Item menu, in real Chromium
against a real server and SQLite."""
import sqlite3

from playwright.sync_api import expect

from tests.browser.test_annotate_flow import open_item, show_list, type_into
from tests.live_server import make_scene

ITEM_ID = "#item-id textarea, #item-id input"


def open_menu(page):
    page.locator("#item-menu button.label-wrap").click()
    expect(page.locator("#new-item-id")).to_be_visible(timeout=15000)


def test_create_duplicate_and_delete_from_the_item_menu(ui_server, page, tmp_path):
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.set_viewport_size({"width": 1400, "height": 900})
    open_item(page, ui_server.url, "ui/alpha")
    show_list(page)
    assert page.locator("#new-item-id").count() == 0  # built on first open only
    open_menu(page)
    # the id is checked before any file is chosen: the file dialog came first, the refusal
    # of a taken id after the upload
    expect(page.locator("#create-item")).to_be_disabled()
    type_into(page, "#new-item-id input", "alpha")
    type_into(page, "#new-item-question input", "Which street is this?")
    expect(page.locator("#lifecycle-message")).to_contain_text(
        "an item with id 'ui/alpha' already exists", timeout=15000)
    expect(page.locator("#create-item")).to_be_disabled()
    type_into(page, "#new-item-id input", "street-42")
    expect(page.locator("#lifecycle-message")).to_contain_text("New item ui/street-42",
                                                               timeout=15000)
    scene = make_scene(tmp_path / "street.png", color="#ccddee")
    with page.expect_file_chooser() as chooser:
        page.click("#create-item")
    chooser.value.set_files(str(scene))
    expect(page.locator(ITEM_ID).first).to_have_value("ui/street-42", timeout=20000)
    expect(page.locator("#item-question textarea")).to_have_value("Which street is this?")
    expect(page.locator("#item-list")).to_contain_text("ui/street-42", timeout=15000)
    # the menu closes over the new item (it pushed its image down), emptied for the next
    # item (it kept the id, the question and the images)
    expect(page.locator("#new-item-id")).to_be_hidden(timeout=15000)
    open_menu(page)
    expect(page.locator("#new-item-id input")).to_have_value("")
    expect(page.locator("#new-item-question input")).to_have_value("")
    con = sqlite3.connect(ui_server.db)
    assert con.execute("SELECT status, version FROM items WHERE id = 'ui/street-42'"
                       ).fetchone() == ("draft", 1)
    page.screenshot(path=str(tmp_path / "item-menu.png"))

    page.click("#duplicate-item")
    expect(page.locator(ITEM_ID).first).to_have_value("ui/street-42-copy", timeout=20000)
    expect(page.locator("#new-item-id")).to_be_hidden(timeout=15000)
    open_menu(page)
    assert con.execute("SELECT count(*) FROM item_images WHERE item_id = 'ui/street-42-copy'"
                       ).fetchone() == (1,)

    type_into(page, "#lifecycle-reason input", "made by mistake")
    page.once("dialog", lambda d: d.dismiss())
    page.click("#delete-item")
    page.wait_for_timeout(1000)
    assert con.execute("SELECT deleted_at FROM items WHERE id = 'ui/street-42-copy'"
                       ).fetchone() == (None,)
    page.once("dialog", lambda d: d.accept())
    page.click("#delete-item")
    expect(page.locator(ITEM_ID).first).not_to_have_value("ui/street-42-copy", timeout=20000)
    expect(page.locator("#item-list")).not_to_contain_text("ui/street-42-copy", timeout=15000)
    deleted_by, comment = con.execute(
        "SELECT i.deleted_by, r.comment FROM items i JOIN revisions r ON r.item_id = i.id "
        "AND r.version = i.version WHERE i.id = 'ui/street-42-copy'").fetchone()
    assert (deleted_by, comment) == ("local", "deleted: made by mistake")
    # a delete by mistake is undone at once, by its author (it was an admin's to restore);
    # the menu closed as the next item opened
    open_menu(page)
    expect(page.locator("#lifecycle-message")).to_contain_text("Undo delete")
    page.click("#undo-delete")
    expect(page.locator(ITEM_ID).first).to_have_value("ui/street-42-copy", timeout=20000)
    expect(page.locator("#item-list")).to_contain_text("ui/street-42-copy", timeout=15000)
    expect(page.locator("#undo-delete")).to_be_hidden()
    assert con.execute("SELECT deleted_at FROM items WHERE id = 'ui/street-42-copy'"
                       ).fetchone() == (None,)
    assert errors == []


def test_a_released_item_says_it_is_read_only_and_cannot_be_edited(ui_server, page):
    """A released item looked editable: typing worked and only Save refused."""
    from store import Store
    store = Store.open(ui_server.db)
    store.save_item({**store.get_item("ui/beta"), "status": "released"}, 1, "alice", "release",
                    may_release=True)
    store.close()
    page.set_viewport_size({"width": 1400, "height": 900})
    open_item(page, ui_server.url, "ui/beta")
    expect(page.locator("#item-notice")).to_contain_text(
        "Released: read-only. An admin can reopen it with a reason.", timeout=15000)
    expect(page.locator("#save-item")).to_be_disabled()
    question = page.locator("#item-question textarea")
    assert question.evaluate("e => e.closest('[inert]') !== null")
    page.keyboard.press("Control+s")
    page.wait_for_timeout(800)
    expect(page.locator("#save-message")).not_to_contain_text("version")
    page.screenshot(path="/tmp/annot4/released.png")
    open_item(page, ui_server.url, "ui/alpha")            # an editable item is editable again
    expect(page.locator("#item-notice")).not_to_contain_text("Released", timeout=15000)
    expect(page.locator("#save-item")).to_be_enabled()
    assert question.evaluate("e => e.closest('[inert]') === null")
