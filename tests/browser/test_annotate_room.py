"""The image gets the room on the Annotate page (an annotator's review at 1400x900 and
1920x1080), in real Chromium.

Found: with the item list, the image and the form each a third of the width, a 1600x1100
photo was drawn 484 px wide and a 1000x1300 label ~320 px tall; three import problems listed
above the editor pushed the canvas and its box tools under the save bar; the help under the
image was cut off by the bar; a long refusal grew the bar and shrank the image; a 200-character
id ran off the screen and made the id field five lines; Move and Remove image were offered
with no image; the clue table broke "Leopoldstraße" in the middle."""
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from domain.limits import MAX_ITEM_ID
from tests.browser.test_annotate_flow import show_list, type_into
from tests.browser.test_annotate_workspace import settled_canvas
from tests.live_server import LiveServer, open_ui_store, make_scene

LONG_ID = "ui/" + "x" * (MAX_ITEM_ID - 3)        # as long as an id may be
REASONING = ("'Str.' abbreviates 'Straße', so this is a German-speaking country; "
             "Leopoldstraße is the main avenue of Munich's Schwabing district.")
PROBLEMS = ["gold answer has no option: it is none of the 2 option labels",
            "image file not found: image 1 (a file at that path inside the image folder)",
            "options on a non-multiple-choice item: an item of type open has no options "
            "(2 given); remove them or make it multiple choice"]


@pytest.fixture(scope="module")
def room(tmp_path_factory):
    directory = tmp_path_factory.mktemp("room")
    db = directory / "room.db"
    store = open_ui_store(db)
    base = store.get_item("ui/alpha")

    def image(name, size):
        path = make_scene(directory / name, size=size, sign=(200, 200, 360, 260))
        return store.add_image(path, name).sha256

    photo, label = image("photo.png", (1600, 1100)), image("label.png", (1000, 1300))
    clues = [{"text": "Blue street-name sign on the corner house reading 'Leopoldstr.'",
              "reasoning": REASONING, "boxes": []},
             {"text": "the wall", "reasoning": "", "boxes": []}]
    for item_id, images, problems in [("ui/photo", [photo], []), ("ui/label", [label], []),
                                      ("ui/flagged", [photo], PROBLEMS),
                                      (LONG_ID, [label], []), ("ui/empty", [], [])]:
        store.create_item({**base, "id": item_id, "images": images, "problems": problems,
                           "clues": clues}, "fixture")
    # in review, with no gold answer and a clue with no text: a save's refusal is long
    store.create_item({**base, "id": "ui/refused", "images": [photo], "status": "in_review",
                       "answer": "", "clues": [*clues, {"text": "", "reasoning": "",
                                                        "boxes": []}]}, "fixture")
    store.close()
    server = LiveServer(db, "--no-auth")
    yield server
    server.stop()


def opened(page, url, item_id, ratio):
    page.goto(f"{url}/?item={quote(item_id, safe='')}")
    expect(page.locator("#save-item")).to_be_visible(timeout=20000)
    return settled_canvas(page, ratio)


def box(page, selector):
    return page.locator(selector).first.bounding_box()


def assert_clear_of_the_bar(page):
    """The canvas and its box tools lie whole on the first screen, above the save bar."""
    bar = box(page, "#item-footer")
    canvas = box(page, "#annotator canvas")
    tools = box(page, "#annotator button[aria-label='Create box']")
    assert canvas["y"] >= 0 and canvas["y"] + canvas["height"] <= bar["y"] + 1, (canvas, bar)
    assert tools["y"] + tools["height"] <= bar["y"] + 1, (tools, bar)


def test_the_image_takes_the_room_at_1400x900(room, browser):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    photo = opened(page, room.url, "ui/photo", 1600 / 1100)
    assert photo["width"] >= 750, photo                     # was 484
    assert_clear_of_the_bar(page)
    image, form = box(page, "#image-column"), box(page, "#form-column")
    assert image["width"] >= 1.4 * form["width"], (image, form)
    # the image's own line: thumbnail, which image at what size, its buttons side by side
    line = [box(page, s) for s in ("#image-strip .cl-thumb", "#image-info span",
                                   "#add-image", "#remove-image")]
    middles = [b["y"] + b["height"] / 2 for b in line]
    assert max(middles) - min(middles) <= 8 and box(page, "#image-bar")["height"] <= 48, line
    # ... inside the image's column: "Remove image" ran over the Clues heading beside it
    column = box(page, "#image-column")
    assert line[-1]["x"] + line[-1]["width"] <= column["x"] + column["width"] + 1, (line, column)
    label = opened(page, room.url, "ui/label", 1000 / 1300)
    assert label["height"] >= 450, label                    # was ~320
    assert_clear_of_the_bar(page)
    # the list comes back on a click, the image still whole above the bar; kept on reload
    show_list(page)
    settled_canvas(page, 1000 / 1300)
    assert_clear_of_the_bar(page)
    page.reload()
    expect(page.locator("#item-list")).to_be_visible(timeout=20000)
    page.click("#list-toggle")
    expect(page.locator("#item-list")).to_be_hidden()
    page.reload()
    expect(page.locator("#save-item")).to_be_visible(timeout=20000)
    expect(page.locator("#item-list")).to_be_hidden()
    context.close()


def test_the_image_is_the_widest_column_at_1920x1080(room, browser):
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    photo = opened(page, room.url, "ui/photo", 1600 / 1100)
    expect(page.locator("#item-list")).to_be_visible()      # room for the list here
    assert photo["width"] >= 800, photo
    assert_clear_of_the_bar(page)
    widths = {s: box(page, s)["width"] for s in ("#item-browser", "#image-column",
                                                  "#form-column")}
    assert widths["#image-column"] == max(widths.values()), widths
    label = opened(page, room.url, "ui/label", 1000 / 1300)
    assert label["height"] >= 650, label
    assert_clear_of_the_bar(page)
    context.close()


def test_a_flagged_item_with_a_draft_keeps_the_image_and_tools_above_the_bar(room, browser):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    opened(page, room.url, "ui/flagged", 1600 / 1100)
    type_into(page, "#item-question textarea", "An edit kept as a draft?")
    expect(page.locator("#draft-state")).to_contain_text("draft kept", timeout=15000)
    page.reload()
    expect(page.locator("#item-notice")).to_contain_text("unsaved draft", timeout=20000)
    canvas = settled_canvas(page, 1600 / 1100)
    notice = page.locator("#item-notice")
    expect(notice).to_contain_text("3 import problems")
    expect(notice.get_by_text(PROBLEMS[0])).to_be_hidden()    # one line until opened
    assert box(page, "#item-notice")["height"] <= 52           # two lines: draft, problems
    assert_clear_of_the_bar(page)
    # the problems open in the page (over it, they covered "Mark import problems resolved"):
    # the image makes room and stays whole above the bar, and is back when they close
    page.click("#item-notice summary")
    expect(notice.get_by_text(PROBLEMS[2])).to_be_visible()
    listed, mark = notice.locator("ul").bounding_box(), box(page, "#problems-resolve")
    assert listed["y"] + listed["height"] <= mark["y"] + 1, (listed, mark)
    page.wait_for_timeout(500)
    assert_clear_of_the_bar(page)
    page.click("#item-notice summary")
    page.wait_for_timeout(500)
    assert box(page, "#annotator canvas") == pytest.approx(canvas, abs=1)
    # the help: one line under the tools, the whole of it on "?", in view
    assert box(page, "#annotator-help")["height"] <= 26
    page.click("#annotator-help summary")
    whole = page.locator("#annotator-help details > div")
    expect(whole).to_contain_text("relabels it")
    help_box, bar = whole.bounding_box(), box(page, "#item-footer")
    assert help_box["y"] >= 0 and help_box["y"] + help_box["height"] <= bar["y"], help_box
    page.click("#annotator-help summary")
    assert_clear_of_the_bar(page)
    context.close()


def test_a_very_long_id_stays_on_one_line(room, browser):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    opened(page, room.url, LONG_ID, 1000 / 1300)
    head = page.locator("#item-header .cl-head-id")
    assert head.get_attribute("title") == LONG_ID             # whole on hover
    assert head.text_content() == LONG_ID                     # and when copied
    assert box(page, "#item-header")["height"] <= 30
    assert page.locator("#item-header").evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    assert box(page, "#item-id")["height"] <= 45              # was five lines
    expect(page.locator("#item-header")).to_contain_text("link to this item")
    link = box(page, "#item-header a")
    assert link["x"] + link["width"] <= 1400
    assert page.evaluate("document.documentElement.scrollWidth") <= 1400
    context.close()


def test_move_and_remove_are_offered_only_when_they_can_act(room, browser):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    page.goto(f"{room.url}/?item=ui/empty")
    info = page.locator("#image-info")
    expect(info).to_contain_text("No image yet", timeout=20000)
    expect(info).not_to_contain_text("above")                 # Add image is on its line
    expect(page.locator("#add-image")).to_be_visible()
    for button in ("#remove-image", "#image-left", "#image-right"):
        expect(page.locator(button)).to_be_hidden()
    opened(page, room.url, "ui/photo", 1600 / 1100)           # one image: nothing to move
    expect(page.locator("#remove-image")).to_be_visible()
    expect(page.locator("#image-left")).to_be_hidden()
    page.goto(f"{room.url}/?item=ui/alpha")                    # two images
    expect(info).to_contain_text("Image 1 of 2", timeout=20000)
    expect(page.locator("#image-left")).to_be_visible()
    expect(page.locator("#image-right")).to_be_visible()
    # ◀ Move on image 1 did nothing, and was enabled (assets/image_moves.js)
    expect(page.locator("#image-left")).to_be_disabled()
    expect(page.locator("#image-right")).to_be_enabled()
    page.goto(f"{room.url}/?item=ui/alpha&image=2")
    expect(info).to_contain_text("Image 2 of 2", timeout=20000)
    expect(page.locator("#image-right")).to_be_disabled()
    expect(page.locator("#image-left")).to_be_enabled()
    context.close()


# every word of the clue table's text and reasoning on one line (a break after a hyphen or
# a slash is a break between words)
BROKEN_WORDS = """() => { const broken = [];
  for (const span of document.querySelectorAll('#clue-table .virtual-row .body-cell span.text')) {
    const text = span.firstChild;
    if (!text || text.nodeType !== 3) continue;
    for (const m of text.textContent.matchAll(/[^\\s\\-\\/]+/g)) {
      const range = document.createRange();
      range.setStart(text, m.index);
      range.setEnd(text, m.index + m[0].length);
      if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1)
        broken.push(m[0]);
    } }
  return broken; }"""


@pytest.mark.parametrize("with_list", [False, True], ids=["list-hidden", "list-shown"])
def test_the_clue_table_wraps_between_words(room, browser, with_list):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    opened(page, room.url, "ui/photo", 1600 / 1100)
    if with_list:
        show_list(page)
    expect(page.locator("#clue-table")).to_contain_text("Schwabing")
    page.wait_for_timeout(500)
    assert page.evaluate(BROKEN_WORDS) == []
    context.close()


def test_a_long_refusal_wraps_inside_the_bar(room, browser):
    """A refusal naming two fields' problems wraps inside the save bar: the bar keeps its
    height, the image its place (a long refusal grew the bar and shrank the image)."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    opened(page, room.url, "ui/refused", 1600 / 1100)
    page.wait_for_timeout(500)
    before = box(page, "#item-footer"), box(page, "#annotator canvas")
    type_into(page, "#item-question textarea", "Which city is this, by its street signs?")
    page.click("#save-item")
    message = page.locator("#save-message")
    expect(message).to_contain_text("needs its gold answer", timeout=15000)
    expect(message).to_contain_text("clue 3 has no text")
    assert len(message.text_content()) > 200                  # longer than one line here
    page.wait_for_timeout(500)
    after = box(page, "#item-footer"), box(page, "#annotator canvas")
    assert after[0]["height"] == pytest.approx(before[0]["height"], abs=1), (before, after)
    assert after[1] == pytest.approx(before[1], abs=1), (before, after)
    context.close()


def test_a_short_id_is_followed_by_the_rest_of_its_line(room, browser):
    """A min-width of 6em left a gap after a short id ("h/line-5      · dataset h")."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    page.goto(f"{room.url}/?item=ui/empty")
    expect(page.locator("#item-header .cl-head-id")).to_have_text("ui/empty", timeout=20000)
    natural = page.locator("#item-header .cl-head-id").evaluate(
        "e => { const r = document.createRange(); r.selectNodeContents(e); "
        "return r.getBoundingClientRect().width; }")
    head, rest = box(page, "#item-header .cl-head-id"), box(page, "#item-header .cl-head-rest")
    assert head["width"] <= natural + 1, (head, natural)
    assert rest["x"] - (head["x"] + head["width"]) <= 1, (head, rest)
    context.close()
