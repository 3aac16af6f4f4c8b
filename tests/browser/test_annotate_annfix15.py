"""An annotator's review of the Annotate page (annfix15, Chromium): OK in the clue picker with
no clue picked left a grey box; Discard draft asked about unsaved edits of an item just
opened, with none, and neither it nor Remove option of an image said what goes; a released
item's draft could not be discarded, its keys line offered drawing and saving."""
import pytest
from playwright.sync_api import expect

from store import Store
from tests.browser.test_annotate_dialogs import drag_box
from tests.browser.test_annotate_flow import open_item
from tests.browser.workspace_fixtures import build_workspace_db
from tests.live_server import LiveServer, make_scene

QUESTION = "#item-question textarea"


def released_over_a_draft(store) -> dict:
    """ui/gone: ui/alpha released by an admin over the local user's draft of a new question
    made before; returns ui/alpha."""
    alpha = store.get_item("ui/alpha")
    store.create_item({**alpha, "id": "ui/gone", "problems": []}, "fixture")
    store.save_draft("local", "ui/gone", 1, {**store.get_item("ui/gone"),
                                             "question": "Which bin goes out tonight?"})
    store.save_item({**store.get_item("ui/gone"), "status": "released"}, 1, "admin",
                    may_release=True)
    return alpha


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    """build_workspace_db, plus ui/pics (option D an image alone) and ui/gone (released,
    with the local user's draft of a new question from before)."""
    directory = tmp_path_factory.mktemp("annfix15")
    db = directory / "ws.db"
    build_workspace_db(db)
    store = Store.open(db)
    sha = store.add_image(make_scene(directory / "d.png", color="#2040c0"), "d.png").sha256
    gamma = store.get_item("ui/gamma")
    store.create_item({**gamma, "id": "ui/pics", "problems": [], "options": [
        *gamma["options"], {"label": "D", "text": "", "image": sha}]}, "fixture")
    released_over_a_draft(store)
    store.close()
    server = LiveServer(db, "--no-auth")
    server.db = db
    yield server
    server.stop()


def at_1400(page):
    page.set_viewport_size({"width": 1400, "height": 900})


def ok_with_no_clue(page, url):
    """A box drawn on ui/wide (two clues), OK pressed with no clue picked: the picker."""
    at_1400(page)
    open_item(page, url, "ui/wide")
    page.wait_for_timeout(1000)
    drag_box(page, 0.2, 0.3, 0.4, 0.5)
    modal = page.locator("#model-box-edit")
    modal.get_by_role("button", name="OK", exact=True).click()
    expect(modal.locator(".cl-pick-refused")).to_contain_text("Pick a clue first")
    return modal


def test_ok_with_no_clue_picked_keeps_the_picker_open_and_one_clue_is_preselected(srv, page):
    """OK with "(pick a clue)" closed the picker and left a grey box, refused at the save."""
    modal = ok_with_no_clue(page, srv.url)
    expect(modal).to_be_visible()
    page.keyboard.press("Escape")
    expect(modal).to_be_hidden()
    open_item(page, srv.url, "ui/alpha")                  # one clue: it is preselected
    page.wait_for_timeout(1000)
    drag_box(page, 0.2, 0.3, 0.4, 0.5)
    expect(modal.locator(".cluelab-highlight")).to_have_attribute("aria-label", "clue 1")
    modal.get_by_role("button", name="OK", exact=True).click()
    expect(modal).to_be_hidden()
    page.click("#save-item")
    expect(page.locator("#save-message")).to_contain_text("version 2", timeout=15000)
    store = Store.open(srv.db)
    try:
        boxes = [len(c["boxes"]) for c in store.get_item("ui/alpha")["clues"]]
    finally:
        store.close()
    assert boxes == [1]


def test_discard_waits_for_edits_and_its_question_names_them(srv, page):
    at_1400(page)
    open_item(page, srv.url, "ui/beta")
    discard = page.locator("#discard-draft")
    expect(discard).to_be_disabled(timeout=15000)         # nothing to discard
    page.locator(QUESTION).fill("Is this a bus station?")
    expect(discard).to_be_enabled()
    expect(page.locator("#draft-state")).to_contain_text("unsaved edits of question",
                                                         timeout=15000)
    asked = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    discard.click()
    page.wait_for_timeout(300)
    assert asked == ["Discard your unsaved edits of question and show the saved version?"]
    page.once("dialog", lambda d: d.accept())
    discard.click()
    expect(page.locator(QUESTION)).to_have_value("Is this a station?", timeout=15000)
    expect(discard).to_be_disabled(timeout=15000)


def test_remove_option_of_an_image_says_so(srv, page):
    at_1400(page)
    open_item(page, srv.url, "ui/pics")
    table = page.locator("#option-table")
    expect(table).to_contain_text("image", timeout=20000)
    table.locator("[data-testid='cell-2-2']").click()
    expect(page.locator("#option-label input")).to_have_value("D", timeout=15000)
    page.keyboard.press("Escape")
    asked = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.click("#remove-option")
    page.wait_for_timeout(300)
    assert asked == ["Remove option D (an image)? Discard draft brings it back until you save."]


def test_a_released_items_draft_is_said_and_discard_drops_it(srv, page):
    """The form showed the draft's question as released, Discard draft was disabled, and the
    keys line under the image still said "C draw … Ctrl+S save"."""
    at_1400(page)
    open_item(page, srv.url, "ui/gone")
    notice = page.locator("#item-notice")
    expect(notice).to_contain_text("cannot be saved while it is released", timeout=15000)
    expect(notice).to_contain_text("Which bin goes out tonight?")
    expect(page.locator(QUESTION)).to_have_value("Which exit is signposted?")
    expect(page.locator("#annotator-help .cl-hint > span")).to_have_text("read-only: released")
    discard = page.locator("#discard-draft")
    expect(discard).to_be_enabled()
    asked = []
    page.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    discard.click()
    expect(notice).not_to_contain_text("cannot be saved", timeout=15000)
    assert asked and "of question of this released item" in asked[0]
    expect(discard).to_be_disabled()
    expect(page.locator("#save-item")).to_be_disabled()
