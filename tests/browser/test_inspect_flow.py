"""The Inspect tab in real Chromium against a real server and SQLite: a response side by side,
hostile model output kept inert, zoom, keyboard navigation, tagging, finding it again; the
`?response=` deep link, the ground truth of the version a response was made with, taking a
tag off a response."""
import re
import sqlite3

import pytest
from playwright.sync_api import expect

from store import Store
from tests.inspect_helpers import build_inspect_db
from tests.live_server import LiveServer


@pytest.fixture
def inspect_server(tmp_path):
    db = tmp_path / "ui.db"
    ids = build_inspect_db(db)
    server = LiveServer(db, "--no-auth")
    server.db, server.ids = db, ids
    yield server
    server.stop()


def loaded_image(page, selector):
    """The src of the image shown in a gr.Image, once it has really loaded."""
    image = page.locator(f"{selector} img").first
    expect(image).to_have_attribute("src", re.compile(r"inspect-cache"), timeout=15000)
    page.wait_for_function("(el) => el.complete && el.naturalWidth > 0",
                           arg=image.element_handle(), timeout=15000)
    return image.get_attribute("src")


def cell(table, text):
    """A visible cell of a gr.Dataframe (the grid also keeps hidden copies for measuring)."""
    return table.get_by_text(text).filter(visible=True).first


def pick(page, elem_id, option):
    page.locator(f"#{elem_id} input").first.click()
    page.locator("[data-testid='dropdown-option']", has_text=option).first.click()


def test_inspect_a_hostile_response_tag_it_and_find_it(inspect_server, page):
    a = inspect_server.ids["a"]
    page.goto(inspect_server.url + "/inspect")
    results = page.locator("#inspect-results")
    expect(page.locator("#inspect-count")).to_contain_text("responses match", timeout=15000)
    pick(page, "inspect-run", "id run-a")
    page.click("#inspect-filter")
    expect(results).to_contain_text("m-a · Structured", timeout=15000)  # as tables name it
    expect(results).not_to_contain_text("m-b · Structured")

    # open a response from the list: GT boxes and the model's text are shown
    cell(results, "ui/alpha").click()
    expect(page.locator("#inspect-header")).to_contain_text("ui/alpha", timeout=15000)
    gt_src = loaded_image(page, "#inspect-gt-image")
    model_src = loaded_image(page, "#inspect-model-image")
    assert gt_src != model_src
    expect(page.locator("#inspect-output textarea")).to_have_value(re.compile("EXIT 12"))
    expect(page.locator("#inspect-gt-clues")).to_contain_text("✓ M1 (judge llm:judge)")
    expect(page.locator("#inspect-model-clues")).to_contain_text("illusionary (judge llm:judge)")
    expect(page.locator("#inspect-verdicts")).to_contain_text("llm:judge")
    # the detail box said nothing until a verdict was clicked: it says what comes in it
    expect(page.locator("#inspect-verdict-detail textarea")).to_have_attribute(
        "placeholder", re.compile("Click a verdict above"))
    link = page.locator("#inspect-open-item a")
    expect(link).to_have_attribute("href", "./?item=ui%2Falpha")
    # from /inspect that is the annotation workspace at the root
    assert link.evaluate("a => a.href") == f"{inspect_server.url}/?item=ui%2Falpha"
    expect(link).to_have_attribute("target", "_blank")

    # the item has two images: the second one shows GT2's box
    page.locator("#inspect-image label", has_text="image 2").click()
    expect(page.locator("#inspect-gt-image img").first).not_to_have_attribute("src", gt_src,
                                                                             timeout=15000)
    loaded_image(page, "#inspect-gt-image")
    page.locator("#inspect-image label", has_text="image 1").click()
    expect(page.locator("#inspect-gt-image img").first).to_have_attribute("src", gt_src,
                                                                         timeout=15000)

    # clicking a GT clue zooms to its box
    cell(page.locator("#inspect-gt-clues"), "The blue sign reads EXIT 12").click()
    expect(page.locator("#inspect-zoom-caption")).to_contain_text("GT1", timeout=15000)
    assert "zoom-" in loaded_image(page, "#inspect-zoom")

    # J opens the next response of the list: the hostile one stays text
    page.locator("#inspect-header").click()
    page.keyboard.press("j")
    expect(page.locator("#inspect-work-id input, #inspect-work-id textarea").first).to_have_value(
        str(a["ui/beta"]), timeout=15000)
    output = page.locator("#inspect-output textarea")
    expect(output).to_have_value(re.compile(r"^<script>window.__pwned=1</script><img src=x"))
    expect(page.locator("#inspect-model-clues")).to_contain_text('<img src=y onerror=')
    assert page.evaluate("window.__pwned") is None
    assert page.locator("a[href^='javascript']").count() == 0
    for area in ("#inspect-model-clues", "#inspect-output", "#inspect-answer", "#inspect-header",
                 "#inspect-results", "#inspect-verdicts"):
        assert page.locator(f"{area} img, {area} script").count() == 0, area

    # tag it, then find it through the tag filter
    page.locator("#inspect-tags label", has_text="perception error").click()
    page.click("#inspect-save-tags")
    expect(page.locator("#inspect-tag-message")).to_contain_text("added perception error",
                                                                 timeout=15000)
    expect(page.locator("#inspect-tag-log")).to_contain_text("local")
    con = sqlite3.connect(inspect_server.db)
    assert con.execute("SELECT tag, author FROM response_tags WHERE work_id = ?",
                       [a["ui/beta"]]).fetchall() == [("perception error", "local")]
    pick(page, "inspect-tag-filter", "perception error")
    page.click("#inspect-filter")
    expect(page.locator("#inspect-count")).to_contain_text("1 response matches", timeout=15000)
    expect(results).to_contain_text("ui/beta")
    expect(results).not_to_contain_text("ui/alpha")
    assert page.evaluate("window.__pwned") is None


def test_a_deep_link_opens_a_response_and_a_tag_comes_off_it(inspect_server, page):
    a = inspect_server.ids["a"]
    gamma = a["ui/gamma"]
    store = Store.open(inspect_server.db)
    try:
        store.set_response_tags(gamma, ["missed clue", "format error"], "alice")
    finally:
        store.close()

    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    # ?response=<id> opens the Inspect page on that response, its run listed around it
    # (a link to the app's root with ?response= is sent on to the Inspect page)
    page.goto(f"{inspect_server.url}/inspect?response={gamma}")
    page.wait_for_url(re.compile(r"/inspect\?response="), timeout=15000)
    expect(page.locator("#inspect-header")).to_contain_text("ui/gamma", timeout=15000)
    work_id = page.locator("#inspect-work-id input, #inspect-work-id textarea").first
    expect(work_id).to_have_value(str(gamma))
    loaded_image(page, "#inspect-gt-image")
    expect(page.locator("#inspect-results")).to_contain_text("ui/beta")
    # the item changed since: the GT the response was judged against is shown
    old_gt = page.locator("#inspect-old-gt")
    expect(old_gt).to_be_visible()
    expect(old_gt).to_contain_text("Ground truth of version 2")
    expect(old_gt).to_contain_text("Pick the colour of the sign.")
    link = page.locator("#inspect-link input, #inspect-link textarea").first
    expect(link).to_have_value(f"{inspect_server.url}/inspect?response={gamma}")
    expect(page.locator("#inspect-tags input[type='checkbox']:checked")).to_have_count(2)

    # take one tag off: the response keeps the other, the log says who removed it
    pick(page, "inspect-remove-tag", "format error")
    page.click("#inspect-remove-tag-button")
    expect(page.locator("#inspect-tag-message")).to_contain_text("removed format error",
                                                                 timeout=15000)
    expect(page.locator("#inspect-tag-log")).to_contain_text("removed")
    expect(page.locator("#inspect-tags input[type='checkbox']:checked")).to_have_count(1)
    con = sqlite3.connect(inspect_server.db)
    assert con.execute("SELECT tag, author FROM response_tags WHERE work_id = ?",
                       [gamma]).fetchall() == [("missed clue", "alice")]
    assert con.execute("SELECT action, tag, author FROM tag_events WHERE work_id = ?",
                       [gamma]).fetchall() == [("tag", "missed clue", "alice"),
                                               ("tag", "format error", "alice"),
                                               ("untag", "format error", "local")]
    expect(page.locator("#inspect-tag-log")).to_contain_text("alice")  # who had added it

    # a note reads whole in its table at 1400 px (it was cut at "answer rig")
    note = "Model invents 10:17 clock reading; answer right by luck, the clue is illusionary."
    page.locator("#inspect-note textarea").fill(note)
    page.click("#inspect-add-note")
    notes = page.locator("#inspect-notes")
    expect(notes).to_contain_text("luck", timeout=15000)
    cell = notes.locator("[role=gridcell]", has_text="luck").first
    table, box = notes.bounding_box(), cell.bounding_box()
    assert box["x"] + box["width"] <= table["x"] + table["width"] + 1, (box, table)
    assert cell.evaluate("(c) => c.scrollWidth <= c.clientWidth + 1")

    # K walks the listed run from there; the link box follows the open response
    page.locator("#inspect-header").click()
    page.keyboard.press("k")
    expect(work_id).to_have_value(str(a["ui/beta"]), timeout=15000)
    expect(link).to_have_value(f"{inspect_server.url}/inspect?response={a['ui/beta']}")
    assert errors == []     # the plain page opening, cancelled by the deep link, is not an error

    # the shown link opens the hostile response in a fresh page: its text stays inert
    fresh = page.context.new_page()
    fresh.goto(link.input_value())
    expect(fresh.locator("#inspect-output textarea")).to_have_value(
        re.compile(r"^<script>window.__pwned=1"), timeout=15000)
    assert fresh.evaluate("window.__pwned") is None
    assert fresh.locator("#inspect-old-gt").is_hidden()  # beta did not change since

    # a link to no response still opens the page, and says what is wrong
    fresh.goto(f"{inspect_server.url}/inspect?response=99999")
    expect(fresh.get_by_text("no response 99999").first).to_be_visible(timeout=15000)
    expect(fresh.locator("#inspect-count")).to_contain_text("responses match", timeout=15000)


def test_the_page_opens_without_error_badges_with_and_without_a_link(inspect_server, page):
    """Each of the two ways in cancels the other in the page; a cancelled event with outputs
    showed a red "Error" on every one of them (ui/workarounds.py, GRADIO_JS_THROW)."""
    gamma = inspect_server.ids["a"]["ui/gamma"]
    for path in ("/inspect", f"/inspect?response={gamma}"):
        page.goto(f"{inspect_server.url}{path}")
        expect(page.locator("#inspect-results")).to_contain_text("ui/", timeout=20000)
        page.wait_for_timeout(1500)          # both opening chains have run or stopped
        assert page.get_by_text("Error", exact=True).count() == 0, path
        assert page.locator(".error").count() == 0, path


def test_the_zoom_panel_shows_only_with_a_zoomed_clue(inspect_server, page):
    """Before, a 480 px empty Zoom panel sat beside the verdicts whenever no clue was zoomed;
    now one line says how to zoom, and the panel shows with a clue's box in it (and goes
    again for the next response)."""
    a = inspect_server.ids["a"]
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(f"{inspect_server.url}/inspect?response={a['ui/alpha']}")
    expect(page.locator("#inspect-header")).to_contain_text("ui/alpha", timeout=15000)
    caption = page.locator("#inspect-zoom-caption")
    expect(caption).to_contain_text("Click a GT or model clue to zoom to its box")
    expect(page.locator("#inspect-zoom")).to_be_hidden()
    verdicts = page.locator("#inspect-verdicts").bounding_box()
    gt = page.locator("#inspect-gt").bounding_box()
    assert verdicts["x"] <= gt["x"] + 1           # the verdicts take the row's whole width
    cell(page.locator("#inspect-gt-clues"), "The blue sign reads EXIT 12").click()
    expect(caption).to_contain_text("GT1", timeout=15000)
    expect(page.locator("#inspect-zoom")).to_be_visible()
    assert "zoom-" in loaded_image(page, "#inspect-zoom")
    page.locator("#inspect-header").click()
    page.keyboard.press("j")                      # the next response: nothing zoomed there
    expect(page.locator("#inspect-header")).not_to_contain_text("ui/alpha", timeout=15000)
    expect(page.locator("#inspect-zoom")).to_be_hidden()
    expect(caption).to_contain_text("Click a GT or model clue to zoom to its box")


def test_the_verdicts_read_whole_beside_the_zoom_at_1400(inspect_server, page, tmp_path):
    """With a model clue zoomed, the zoom took half the row and left the verdicts' six
    columns ~90 px each: "offline:lexical" read "offline:lexica / l". Now the verdicts keep
    the larger share, every word of their titles and cells whole."""
    from tests.browser.fit_checks import words_wider_than_columns

    a = inspect_server.ids["a"]
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(f"{inspect_server.url}/inspect?response={a['ui/alpha']}")
    expect(page.locator("#inspect-verdicts")).to_contain_text("llm:judge", timeout=15000)
    cell(page.locator("#inspect-model-clues"), "blue sign reading EXIT 12").click()
    expect(page.locator("#inspect-zoom-caption")).to_contain_text("M1", timeout=15000)
    expect(page.locator("#inspect-zoom")).to_be_visible()
    page.locator("#inspect-verdicts").scroll_into_view_if_needed()
    page.mouse.move(0, 0)
    page.screenshot(path=str(tmp_path / "inspect-zoom-verdicts.png"))      # to look at
    assert words_wider_than_columns(page, "inspect-verdicts") == []
    zoom = page.locator("#inspect-zoom").bounding_box()
    verdicts = page.locator("#inspect-verdicts").bounding_box()
    assert verdicts["x"] > zoom["x"] + zoom["width"] - 1       # still beside the zoom
    assert verdicts["width"] >= 640


def test_with_no_run_the_page_is_the_browser_and_its_message_only(ui_server, page):
    """No run in the database: the response workspace (two empty image boxes, tables, tag
    controls: ~2,000 px under "No run yet") is hidden; with runs it shows (the tests above
    use it)."""
    page.goto(ui_server.url + "/inspect")
    expect(page.locator("#inspect-count")).to_contain_text("No run yet", timeout=20000)
    expect(page.locator("#inspect-workspace")).to_be_hidden()
    assert page.evaluate("document.documentElement.scrollHeight") <= 1000
