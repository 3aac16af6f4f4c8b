"""A run started from the Experiments tab in real Chromium, watched until done; the model's
(hostile) output stays text."""
import re
import sqlite3

import pytest
from playwright.sync_api import expect

from store import Store
from tests.openai_server import start_server

HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'


@pytest.fixture
def fake():
    server = start_server(latency=0.3, default_reply=HOSTILE + "\nAnswer: {letter}")
    yield server
    server.stop()


def test_start_a_run_from_the_page_and_watch_it_finish(ui_server, fake, page):
    with Store.open(ui_server.db) as store:
        store.add_endpoint("fake", fake.url, "fake-vlm", concurrency=1)
    page.goto(ui_server.url + "/experiments")
    expect(page.locator("#run-endpoint input")).to_have_value("fake", timeout=20000)
    page.click("#run-preview")
    expect(page.locator("#run-summary")).to_contain_text("3 items", timeout=20000)
    # "~" means "about" here: nothing is struck through and no backslash shows
    expect(page.locator("#run-summary del, #run-summary s")).to_have_count(0)
    expect(page.locator("#run-summary")).to_contain_text("(~4 characters a token")
    assert "\\" not in page.locator("#run-summary").inner_text()
    expect(page.locator("#run-transcript textarea")).to_have_value(
        re.compile("image 1: image/jpeg"), timeout=20000)
    page.click("#run-start")
    expect(page.locator("#run-status")).to_have_text("done", timeout=60000)
    expect(page.locator("#run-done")).to_have_text("3/3")
    expect(page.locator("#runs-list")).to_contain_text("done")
    cell = page.locator("#run-responses [role=gridcell]", has_text="ui/gamma").first
    expect(cell).to_be_visible(timeout=20000)  # the sample loads when the run is done
    cell.click()
    expect(page.locator("#run-response-text textarea")).to_have_value(
        re.compile("onerror"), timeout=20000)
    assert page.evaluate("window.__pwned") is None
    assert page.locator("#run-monitor img").count() == 0

    run_id = page.locator("#run-id textarea").input_value()
    con = sqlite3.connect(ui_server.db)
    assert con.execute("SELECT status FROM model_runs WHERE id = ?", [run_id]).fetchone() == (
        "done",)
    assert con.execute("SELECT count(*) FROM run_responses WHERE run_id = ?",
                       [run_id]).fetchone()[0] == 3
