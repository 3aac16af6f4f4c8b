"""The Annotate page at 1400x900 in real Chromium: canvas keys never fire from a field,
toasts show in the save bar's message box (over no control), the review verdicts on one
line, the History diff within the panel, readable times, and text typed into the clue table
landing in the cell it was typed in, however quickly the user moves between cells."""
import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_annotate_flow import open_item, type_into
from tests.browser.test_annotate_workspace import hover_image, mode, settled_canvas
from tests.browser.workspace_fixtures import start_workspace_server


@pytest.fixture(scope="module")
def ws(tmp_path_factory):
    server = start_workspace_server(tmp_path_factory.mktemp("screen"))
    yield server
    server.stop()


@pytest.fixture
def screen(ws, browser):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    yield context.new_page()
    context.close()


def opened(page, url, item_id, ratio=1300 / 900):
    open_item(page, url, item_id)
    expect(page.locator("#save-item")).to_be_visible(timeout=20000)
    settled_canvas(page, ratio)


def cell(page, row, col):
    return page.locator(f"#clue-table [data-testid='cell-{row}-{col}']")


def clue_cells(page):
    return page.evaluate("""() => [...document.querySelectorAll('#clue-table .virtual-row')]
      .map((r) => [...r.querySelectorAll('.body-cell')].map((c) => c.innerText.replace('⋮', '')
      .trim()))""")


def click_at(page, locator):
    """A click where the element is on screen, as a person's (no waiting for it)."""
    box = locator.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def test_no_canvas_key_fires_while_a_field_has_the_focus(ws, screen):
    page = screen
    opened(page, ws.url, "ui/wide")
    assert mode(page) == "create"
    for field in ("#item-question textarea", "#save-comment input", "#item-answer input"):
        page.locator(field).click()
        page.keyboard.press("End")
        hover_image(page)
        page.keyboard.press("d")
        assert page.locator(field).input_value().endswith("d"), field
        assert mode(page) == "create", field
    # a clicked (selected) reasoning cell: the key starts its edit, the image keeps its mode
    click_at(page, cell(page, 0, 2))
    hover_image(page)
    page.keyboard.press("d")
    editor = page.locator("#clue-table textarea[aria-label='Edit cell']")
    expect(editor).to_have_value("d")
    assert mode(page) == "create"
    page.keyboard.type("e")                    # and while it is being edited
    expect(editor).to_have_value("de")
    assert mode(page) == "create"
    page.keyboard.press("Enter")
    # a static cell (the clue's name) types nothing: the image takes the key
    click_at(page, cell(page, 1, 0))
    hover_image(page)
    page.keyboard.press("d")
    assert mode(page) == "drag"


def overlaps(a, b):
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"] or
                a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


def within(inner, outer, slack=2):
    return (inner["x"] >= outer["x"] - slack and inner["y"] >= outer["y"] - slack and
            inner["x"] + inner["width"] <= outer["x"] + outer["width"] + slack and
            inner["y"] + inner["height"] <= outer["y"] + outer["height"] + slack)


# what a toast must leave in view: the item line, the image and its tools, the form's
# fields, the bar's buttons and comment, History's review controls
CONTROLS = ("#next-item", "#item-status", "#prev-item", "#annotator", "#annotator-help",
            "#clue-table", "#answer-row", "#item-question", "#save-item", "#discard-draft",
            "#save-comment", "#review-note", "#review-submit", "#review-verdict")


def toast_in_the_message_box(page, text):
    """The toast saying `text` lies in the save bar's message box and over no control; a
    message longer than the box grows upwards from it (test_a_long_refusal_is_shown_whole)."""
    toast = page.locator("[data-testid='toast-body']", has_text=text).first
    expect(toast).to_be_visible(timeout=15000)
    page.wait_for_timeout(300)
    box = toast.bounding_box()
    status = page.locator("#save-status").bounding_box()
    grown = {**box, "y": box["y"] + box["height"] - status["height"],
             "height": status["height"]}
    assert within(grown, status), (box, status)
    if toast.evaluate("e => e.scrollHeight") > status["height"] + 2:
        return toast                          # a long message, over what is above the bar
    for control in CONTROLS:
        element = page.locator(control)
        if element.count() and element.first.is_visible():
            assert not overlaps(box, element.first.bounding_box()), control
    return toast


def test_toasts_show_in_the_save_bars_message_box(ws, screen):
    """Bottom-right they covered the Gold answer field (a type switch's warning), the clue
    table (a refused save) and the review note and Submit review (Saved / Reviewed)."""
    page = screen
    opened(page, ws.url, "ui/tall", 900 / 1400)
    for attempt in range(2):
        type_into(page, "#item-question textarea", f"Which exit is signposted, take {attempt}?")
        page.click("#save-item")
        toast = toast_in_the_message_box(page, "Saved ui/tall")
        page.click("#next-item", timeout=2000)        # nothing in the way, at once
        expect(page.locator("#item-id input, #item-id textarea").first).not_to_have_value(
            "ui/tall", timeout=15000)
        if attempt == 0:
            toast.locator("[data-testid='toast-text']").click()   # a click dismisses it
        else:
            page.locator("#image-info").click()
            page.keyboard.press("Escape")                         # and so does Escape
        expect(page.locator("[data-testid='toast-body']")).to_have_count(0, timeout=3000)
        opened(page, ws.url, "ui/tall", 900 / 1400)
    # a new answer type's warning, beside the gold answer's control
    opened(page, ws.url, "ui/gamma", 1200 / 800)
    page.locator("#item-answer-type input").click()
    page.locator("#item-answer-type [data-testid='dropdown-option']", has_text="yes_no").click()
    toast_in_the_message_box(page, "set aside")
    page.keyboard.press("Escape")
    # the switch is an unsaved edit, and a review is refused while the form shows one
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#discard-draft")
    expect(page.locator("#item-answer-type input")).not_to_have_value("yes_no", timeout=15000)
    # a review, down in History: the bar is then above History, its box too
    page.locator("#history button.label-wrap").click()
    page.locator("#review-verdict label", has_text="approve").click()
    type_into(page, "#review-note textarea", "looks right")
    page.click("#review-submit")
    toast_in_the_message_box(page, "Reviewed version")


def test_a_long_refusal_is_shown_whole(ws, screen):
    """A refusal longer than the save bar's box was cut at its second line: what to do about
    it was read only by those who hovered it."""
    page = screen
    opened(page, ws.url, "ui/tall", 900 / 1400)
    page.locator("#item-status input").click()
    page.locator("#item-status [data-testid='dropdown-option']", has_text="in_review").click()
    type_into(page, "#item-answer input", "")
    page.keyboard.press("Delete")
    page.click("#add-clue")
    expect(page.locator("#clue-table textarea[aria-label='Edit cell']")).to_be_focused(
        timeout=15000)
    page.keyboard.press("Escape")
    page.click("#save-item")
    said = page.locator("#save-message")          # the bar's line (no toast repeats it)
    expect(said).to_contain_text("may only wait in a draft", timeout=15000)
    page.wait_for_timeout(300)
    assert said.evaluate("e => e.scrollHeight <= e.clientHeight + 1"), "cut"
    box = said.bounding_box()
    assert box["y"] + box["height"] <= 900 and box["height"] <= 130, box


RAW_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d")


def test_history_fits_with_readable_times_and_one_line_verdicts(ws, screen):
    page = screen
    opened(page, ws.url, "ui/alpha", 1200 / 800)
    long = ("The blue sign reads EXIT 12 in large white letters, see https://example.org/"
            "a/very/long/path/without/any/spaces/to/break/on/at/all/") * 2
    type_into(page, "#item-gt-reasoning textarea", long)
    page.click("#save-item")
    expect(page.locator("#save-message")).to_contain_text("version 2", timeout=15000)
    page.locator("#history button.label-wrap").click()
    expect(page.locator("#history-table")).to_contain_text("local", timeout=15000)
    page.locator("#history input[aria-label='Version A']").fill("1")
    page.locator("#history input[aria-label='Version B']").fill("2")
    page.click("#history-diff")
    diff = page.locator("#history-diff-table")
    expect(diff).to_contain_text("GT reasoning", timeout=15000)
    page.wait_for_timeout(500)
    for scroller in diff.locator(".virtual-table-viewport, .table-wrap").all():
        assert scroller.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    assert page.evaluate("document.documentElement.scrollWidth") <= 1400
    assert "very/long/path" in diff.inner_text()        # wrapped, not cut
    labels = page.locator("#review-verdict label").all()
    assert len(labels) == 3 and len({round(label.bounding_box()["y"]) for label in labels}) == 1
    page.locator("#review-verdict label", has_text="approve").click()
    page.click("#review-submit")          # version 2 is local's own: refused, with a reason
    # said where the review is made (a toast alone left the last review's line on screen)
    expect(page.locator("#review-list")).to_contain_text(
        "ask someone who did not write it", timeout=15000)
    for where in ("#history-table", "#item-header"):
        text = page.locator(where).inner_text()
        assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", text), (where, text)
        assert not RAW_TIME.search(text), (where, text)
    assert re.search(r"UTC · (just now|\d+ min ago)", page.locator("#history-table").inner_text())


def test_typing_lands_in_the_cell_typed_in_however_quick_the_switch(ws, screen):
    page = screen
    opened(page, ws.url, "ui/huge", 8000 / 6000)
    long = "The sign is a long blue panel above the road that names the exit"
    click_at(page, cell(page, 0, 2))
    page.keyboard.type(long, delay=5)      # longer than its cell: its editor wraps
    click_at(page, cell(page, 1, 2))       # at once, where the next clue's cell is drawn
    page.keyboard.type("wall text", delay=5)
    click_at(page, cell(page, 0, 1))
    page.keyboard.type(", here", delay=5)
    page.keyboard.press("Enter")
    page.wait_for_timeout(500)
    assert clue_cells(page) == [["clue 1", "the sign, here", long, "0"],
                                ["clue 2", "the wall", "wall text", "0"]]
