"""An annotator's report on the Annotate page's questions and messages, in real Chromium:
Restore and Reload saved version took unsaved edits without a word, the Remove / Delete
questions did not say what goes, Delete sat where the next click landed after a delete (and
was offered on a released item), the Item menu's line and the save bar kept an old line
over a Duplicate's or an image's outcome, said only in a fading toast."""
import pytest
from playwright.sync_api import expect

from store import Store
from tests.browser.test_annotate_flow import open_item, type_into
from tests.browser.test_item_lifecycle_flow import open_menu
from tests.browser.workspace_fixtures import build_workspace_db, serve_workspace
from tests.live_server import make_scene

ITEM_ID = "#item-id textarea, #item-id input"


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    """build_workspace_db plus ui/two: two images, clue 1 with a box on each, clue 2 with
    one on image 2."""
    directory = tmp_path_factory.mktemp("words")
    db = directory / "ws.db"
    ids = build_workspace_db(db)
    store = Store.open(db)
    one, two = [store.add_image(make_scene(directory / f"w{i}.png", color=c), f"w{i}.png").sha256
                for i, c in enumerate(["#eeeeee", "#ddeeff"])]
    box = {"x0": 10, "y0": 10, "x1": 50, "y1": 50}
    store.create_item({**store.get_item("ui/alpha"), "id": "ui/two", "images": [one, two],
                       "problems": [], "clues": [
                           {"text": "the red sign", "reasoning": "", "boxes": [
                               {"image": one, **box}, {"image": two, **box}]},
                           {"text": "a tram stop", "reasoning": "trams", "boxes": [
                               {"image": two, "x0": 60, "y0": 60, "x1": 90, "y1": 90}]}]},
                      "fixture")
    store.close()
    server = serve_workspace(db, ids, dir=directory)
    yield server
    server.stop()


def asked_and_dismissed(page) -> list:
    asked = []
    page.on("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    return asked


def edited_with_draft(page, text):
    type_into(page, "#item-gt-reasoning textarea", text)
    expect(page.locator("#draft-state")).to_contain_text("draft kept", timeout=15000)


def test_restore_says_that_it_discards_this_tabs_unsaved_edits(srv, page):
    """"Restore version 1 as a new revision?", and after OK the typed text was gone."""
    open_item(page, srv.url, "ui/beta")
    asked = asked_and_dismissed(page)
    page.locator("#history").click()
    page.locator("#history-restore").click()            # no edits: nothing to say
    edited_with_draft(page, "typed, not saved")
    page.locator("#history-restore").click()
    page.wait_for_timeout(500)
    # who saved the version and when (annfix18b: the question named its number only)
    [saved] = Store.open(srv.db).history("ui/beta")
    when = saved["created_at"]
    assert len(asked) == 2 and asked[0].startswith(
        f"Restore version 1 (saved by {saved['author']} at "), asked
    assert asked[0].endswith(") as a new revision?"), asked
    assert asked[1] == asked[0] + (" Your unsaved edits in this tab of GT reasoning are "
                                   "replaced by it (their draft is dropped)."), (asked, when)
    expect(page.locator("#item-gt-reasoning textarea")).to_have_value("typed, not saved")


def bob_saves_then_i_save(page, srv, question: str, reasoning: str) -> dict:
    """bob saves the item open on the page with `question`, then I type `reasoning` and
    press Save: the conflict panel opens. The item as it was before bob's save."""
    colleague = Store.open(srv.db)
    item = colleague.get_item("ui/gamma")
    colleague.save_item({**item, "question": question}, item["version"], "bob")
    colleague.close()
    edited_with_draft(page, reasoning)
    page.click("#save-item")
    expect(page.locator("#conflict-message")).to_contain_text("changed by bob", timeout=15000)
    return item


def test_reload_saved_version_asks_first_naming_the_version_and_its_author(srv, page):
    """After a refused save ("Your edits are kept as a draft"), Reload saved version
    replaced the edits at once."""
    open_item(page, srv.url, "ui/gamma")
    gamma = bob_saves_then_i_save(page, srv, "Their question?", "my reasoning")
    asked = asked_and_dismissed(page)
    page.click("#conflict-reload")
    page.wait_for_timeout(800)
    assert asked == [f"Replace your unsaved edits of GT reasoning with version "
                     f"{gamma['version'] + 1} saved by bob?"], asked
    expect(page.locator("#item-gt-reasoning textarea")).to_have_value("my reasoning")


def test_after_reload_saved_version_the_panel_offers_no_merge_of_edits_gone(srv, page):
    """A review: after Reload saved version the panel still offered Reload and Save merged
    (which then said "Nothing to save"); its choices go, a new conflict brings them back."""
    open_item(page, srv.url, "ui/gamma")
    gamma = bob_saves_then_i_save(page, srv, "Another question?", "mine again")
    expect(page.locator("#conflict-overwrite")).to_be_visible()
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#conflict-reload")
    expect(page.locator("#conflict-message")).to_contain_text(
        f"Loaded the saved version (version {gamma['version'] + 1})", timeout=15000)
    expect(page.locator("#conflict-overwrite")).to_be_hidden()
    expect(page.locator("#conflict-reload")).to_be_hidden()
    # the table no longer says "(yours kept)" of edits the reload discarded
    expect(page.locator("#conflict-diff")).to_contain_text("you (not kept)")
    expect(page.locator("#conflict-diff")).not_to_contain_text("yours kept")
    expect(page.locator("#item-question textarea")).to_have_value("Another question?")
    bob_saves_then_i_save(page, srv, "A third one?", "mine once more")
    expect(page.locator("#conflict-overwrite")).to_be_visible()


def test_remove_and_delete_questions_name_what_goes(srv, page):
    open_item(page, srv.url, "ui/two")
    expect(page.locator("#image-info")).to_contain_text("Image 1 of 2", timeout=15000)
    page.wait_for_timeout(800)
    asked = asked_and_dismissed(page)
    page.click("#remove-image")
    page.locator("#image-strip button.cl-thumb").nth(1).click()
    expect(page.locator("#image-info")).to_contain_text("Image 2 of 2", timeout=15000)
    page.wait_for_timeout(800)
    page.click("#remove-image")
    page.locator("#clue-table [data-testid='cell-1-1']").click()
    page.click("#remove-clue")
    open_menu(page)
    page.click("#delete-item")
    page.wait_for_timeout(500)
    assert asked == ["Remove image 1 of ui/two and its 1 box?",
                     "Remove image 2 of ui/two and its 2 boxes?",
                     'Remove clue 2 "a tram stop" with its reasoning and 1 box?',
                     "Delete item ui/two? Undo delete (in the Item menu) brings it back, "
                     "with your unsaved edits of it if any, while this page is open; after "
                     "a reload only an admin can restore it (Item menu → Deleted items "
                     "(admin) → Restore, or `python app.py item restore ui/two`)."
                     ], asked
    expect(page.locator("#image-strip button.cl-thumb")).to_have_count(2)


def test_after_a_delete_the_menu_closes_and_released_items_offer_no_delete(srv, page):
    """The next item opened with the menu still open, Delete where the last click was."""
    page.set_viewport_size({"width": 1400, "height": 900})
    open_item(page, srv.url, "ui/tall")
    open_menu(page)
    page.once("dialog", lambda d: d.accept())
    page.click("#delete-item")
    expect(page.locator(ITEM_ID).first).not_to_have_value("ui/tall", timeout=20000)
    expect(page.locator("#delete-item")).to_be_hidden(timeout=15000)
    open_menu(page)
    undo = page.locator("#undo-delete")
    expect(undo).to_have_text("Undo delete of ui/tall", timeout=15000)
    # its label is whole, beside Delete, not printed over it (a 110 px button spilled it)
    assert undo.evaluate("b => b.scrollWidth <= b.clientWidth + 1")
    mine, other = undo.bounding_box(), page.locator("#delete-item").bounding_box()
    assert mine["x"] >= other["x"] + other["width"] or mine["x"] + mine["width"] <= other["x"]
    undo.click()
    expect(page.locator(ITEM_ID).first).to_have_value("ui/tall", timeout=20000)

    store = Store.open(srv.db)
    tiny = store.get_item("ui/tiny")
    store.save_item({**tiny, "status": "released"}, tiny["version"], "alice", "release",
                    may_release=True)
    store.close()
    open_item(page, srv.url, "ui/tiny")
    open_menu(page)
    expect(page.locator("#delete-item")).to_be_disabled(timeout=15000)
    expect(page.locator("#item-notice")).to_contain_text("neither edited nor deleted")
    open_item(page, srv.url, "ui/wide")
    open_menu(page)
    expect(page.locator("#delete-item")).to_be_enabled(timeout=15000)


def test_the_item_menus_line_says_what_duplicate_did_and_stays(srv, page):
    """Success left "New item: type the new item's question first."; a refusal showed only
    in a fading toast."""
    open_item(page, srv.url, "ui/huge")
    open_menu(page)
    message = page.locator("#lifecycle-message")
    type_into(page, "#new-item-id input", "wide")          # taken
    expect(message).to_contain_text("type the new item's question first", timeout=15000)
    page.click("#duplicate-item")
    expect(message).to_contain_text("Not duplicated", timeout=15000)
    expect(message).to_contain_text("ui/wide")
    page.wait_for_timeout(6000)                             # past any toast
    expect(message).to_contain_text("Not duplicated")
    expect(page.locator(ITEM_ID).first).to_have_value("ui/huge")
    type_into(page, "#new-item-id input", "huge-twin")
    page.click("#duplicate-item")
    expect(page.locator(ITEM_ID).first).to_have_value("ui/huge-twin", timeout=20000)
    expect(message).to_have_text("Created ui/huge-twin, a copy of ui/huge (draft).")


def test_an_image_refused_is_said_in_the_save_bar_and_stays(srv, page):
    """The refusal showed only in a fading toast, the bar still saying "Saved … version 2",
    and it named a Python exception ("(OSError)")."""
    open_item(page, srv.url, "ui/alpha")
    type_into(page, "#item-question textarea", "Which exit is it?")
    page.click("#save-item")
    expect(page.locator("#save-message")).to_contain_text("as version 2", timeout=15000)
    good = make_scene(srv.dir / "good.png", color="#abcdef").read_bytes()
    corrupt = srv.dir / "corrupt.png"
    corrupt.write_bytes(good[:200])
    with page.expect_file_chooser() as chooser:
        page.click("#add-image")
    chooser.value.set_files(str(corrupt))
    line = page.locator("#save-message")
    expect(line).to_contain_text("Image not added: corrupt.png: corrupt or truncated image",
                                 timeout=15000)
    expect(line).not_to_contain_text("version 2")
    page.wait_for_timeout(6000)
    expect(line).to_contain_text("Image not added")
    assert "Error" not in line.inner_text()
    with page.expect_file_chooser() as chooser:              # a good one: the line goes
        page.click("#add-image")
    chooser.value.set_files(str(srv.dir / "good.png"))
    expect(page.locator("#image-strip button.cl-thumb")).to_have_count(2, timeout=15000)
    expect(line).not_to_contain_text("Image not added", timeout=15000)


def test_restore_names_the_versions_own_author_or_none(srv, page):
    """Restore version 3 said "saved by alice at <version 1's time>": the question read a
    hidden copy of a History row whose cells mix versions (a review, round 19)."""
    store = Store.open(srv.db)
    item = store.get_item("ui/gamma")
    for author, question in (("bob", "Which colour, bob?"), ("carol", "Which colour, carol?")):
        item["question"] = question
        store.save_item(item, item["version"], author, "")
        item = store.get_item("ui/gamma")
    history = {h["version"]: h["author"] for h in store.history("ui/gamma")}
    store.close()
    open_item(page, srv.url, "ui/gamma")
    asked = asked_and_dismissed(page)
    page.locator("#history").click()
    expect(page.locator("#history-table")).to_contain_text("carol", timeout=15000)
    for version in (3, 2, 1):
        type_into(page, "#history-version-a input", str(version))
        page.locator("#history-restore").click()
        page.wait_for_timeout(500)
        said = asked[-1]
        assert said.startswith(f"Restore version {version}"), asked
        assert said.startswith(f"Restore version {version} (saved by {history[version]} "
                               "at "), (version, said)


def test_restore_of_a_version_the_item_never_had_asks_nothing(srv, page):
    """Restore version 9 of an item of one version asked "Restore version 9 as a new
    revision?", and after OK the server said there is no version 9: no question for it."""
    open_item(page, srv.url, "ui/beta")
    asked = asked_and_dismissed(page)
    page.locator("#history").click()
    expect(page.locator("#history-table .virtual-row").first).to_be_visible(timeout=15000)
    type_into(page, "#history-version-a input", "9")
    page.locator("#history-restore").click()
    expect(page.get_by_text("there is no version 9").first).to_be_visible(timeout=15000)
    assert asked == [], asked
