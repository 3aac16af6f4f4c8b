"""At 1400x900 a small button beside a field is level with it, its own height, its label on
one line: ↻ beside Run id and Show responses were tall, almost empty boxes, MMR-Life preset
floated under the Preset box, and on Inspect Save tags and Remove tag were 64 and 94 px tall,
"Add to vocabulary" on two lines. The run monitor's draw ("r0 s1") wrapped to two lines, and
Configuration and totals was gr.JSON's one token a line, the totals' "errors" a copy of
"error". Real Chromium, one server for the module."""
import re

import pytest
from playwright.sync_api import expect

from store import Store
from tests.live_server import LiveServer, build_ui_db
from tests.scoring_helpers import make_run

RUN = "20261207-010101-look"


@pytest.fixture(scope="module")
def look_server(tmp_path_factory):
    db = tmp_path_factory.mktemp("look") / "ui.db"
    build_ui_db(db)
    with Store.open(db) as store:
        make_run(store, RUN, {"ui/alpha": ["Answer: 12", "Answer: 11"],
                              "ui/beta": ["Answer: Yes", "Answer: No"]}, samples=2)
        # as the runner writes them: "errors" a copy of "error" (runner/totals.py)
        store.finish_run(RUN, "test", "done", "", {"done": 4, "total": 4, "ok": 4, "error": 0,
                                                   "errors": 0})
        work = store.matching_responses({})[0]
    server = LiveServer(db, "--no-auth")
    server.work = work
    yield server
    server.stop()


@pytest.fixture
def page_1400(page):
    page.set_viewport_size({"width": 1400, "height": 900})
    return page


def level_with(page, button: str, field: str) -> None:
    """`button` is beside `field`'s input, top and bottom level with it, its label whole on
    one line."""
    expect(page.locator(button)).to_be_visible(timeout=30000)
    b = page.locator(button).bounding_box()
    f = page.locator(field).first.bounding_box()
    assert b["x"] >= f["x"] + f["width"] - 1, (button, b, f)        # beside, not under
    assert abs(b["y"] - f["y"]) <= 3 and b["height"] <= f["height"] + 3, (button, b, f)
    assert page.locator(button).evaluate("e => e.scrollWidth <= e.clientWidth + 1")


def test_the_run_monitors_buttons_draws_and_configuration_read_well(look_server, page_1400):
    page = page_1400
    page.goto(look_server.url + "/experiments")
    page.locator("#runs-list").get_by_text(RUN).filter(visible=True).first.click()
    expect(page.locator("#run-id textarea")).to_have_value(RUN, timeout=20000)
    level_with(page, "#runs-refresh", "#run-id textarea")
    # one preset control: its choice says what it sets, and reads whole at 1400 px
    expect(page.locator("#run-mmr-life")).to_have_count(0)
    preset = page.locator("#run-preset input")
    preset.click()
    page.get_by_role("option", name=re.compile("^MMR-Life")).first.click()
    expect(preset).to_have_value(re.compile("^MMR-Life: .* seed 17$"))
    # the text's own width against the box's (an input never overflows: it scrolls)
    assert preset.evaluate("""e => { const s = getComputedStyle(e);
        const c = document.createElement('canvas').getContext('2d'); c.font = s.font;
        return c.measureText(e.value).width <= e.clientWidth - parseFloat(s.paddingLeft)
            - parseFloat(s.paddingRight) + 1; }""")
    page.click("#run-responses-refresh")
    level_with(page, "#run-responses-refresh", "#run-response-filter .wrap-inner")
    draws = page.locator("#run-responses span.text").filter(has_text=re.compile(r"^r0 s[01]$"))
    expect(draws.first).to_be_visible(timeout=20000)
    lines = draws.first.evaluate("""e => { const r = document.createRange();
        r.selectNodeContents(e);
        return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; }""")
    assert lines == 1
    page.get_by_text("Configuration and totals").click()
    config = page.locator("#run-config")
    expect(config).to_contain_text("status: done", timeout=10000)
    expect(config).to_contain_text("setting: cot")
    expect(config).to_contain_text("error: 0")
    assert "errors:" not in config.inner_text()


def test_inspects_tag_buttons_are_small_and_level(look_server, page_1400):
    page = page_1400
    page.goto(f"{look_server.url}/inspect?response={look_server.work}")
    expect(page.locator("#inspect-header")).to_contain_text("ui/", timeout=30000)
    page.locator("#inspect-save-tags").scroll_into_view_if_needed()
    level_with(page, "#inspect-add-tag", "#inspect-new-tag textarea")
    level_with(page, "#inspect-remove-tag-button", "#inspect-remove-tag .wrap-inner")
    save = page.locator("#inspect-save-tags").bounding_box()
    new_tag = page.locator("#inspect-new-tag textarea").bounding_box()
    assert abs(save["y"] - new_tag["y"]) <= 3 and save["height"] <= new_tag["height"] + 3
