"""The researcher screens at 1400x900: every column of the Results table, Inspect's response
list, the runs list and the endpoints list whole in view (they cut Spatial Relationship and
pushed Unparsed %, Error %, Unscored and Judge out of view; grounded and tags; the progress
`126/1…` and the setup that tells a clues-gt run from the one without; concurrency `c…`)."""
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from tests.browser.fit_checks import cut_columns, lines
from tests.browser.test_results_flow import choose_runs, scored_server
from ui.experiments_endpoints import ENDPOINT_HEADERS
from ui.experiments_runs import RUN_HEADERS
from ui.inspect_browser import HEADERS

ITEMS = [{"id": f"b/{i}", "answer_type": "multiple_choice", "answer": "C",
          "domain": ["Street", "Shop", "Spatial Relationship"][i % 3], "subtask": f"s{i % 2}"}
         for i in range(12)]
ALL_C = {i["id"]: "Answer: C" for i in ITEMS}


@pytest.fixture
def researcher_server(tmp_path):
    db = tmp_path / "fit.db"
    server = scored_server(db, ITEMS, {
        "r1": (ALL_C, {"model": "model-a", "setting": "clue_guided", "clues": "gt"}),
        "r2": ({k: "Answer: A" for k in ALL_C}, {"model": "model-a", "setting": "clue_guided"}),
        "r3": ({k: ["Answer: C"] * 6 for k in ALL_C}, {"model": "model-a", "samples": 3,
                                                       "repeats": 2}),
        "r4": ({k: ["Answer: B"] * 6 for k in ALL_C}, {"model": "model-b", "samples": 3,
                                                       "repeats": 2})})
    subprocess.run([sys.executable, "app.py", "endpoint", "add", "--db", str(db), "--base-url",
                    "http://localhost:8000/v1", "--model", "qwen2.5-vl-72b-instruct",
                    "--api-key-env", "OPENAI_API_KEY", "--concurrency", "16",
                    "local-vllm-server"], check=True, capture_output=True)
    yield server
    server.stop()


def test_every_column_of_the_researcher_tables_is_whole_at_1400(researcher_server, page,
                                                                  tmp_path):
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(researcher_server.url + "/results")
    choose_runs(page, "id r1", "id r2", "id r3", "id r4")
    page.locator("#results-show").click()
    expect(page.locator("#results-table .virtual-row").first).to_be_visible(timeout=30000)
    page.mouse.move(0, 0)
    assert cut_columns(page, "results-table", [
        "Model", "Overall", "n", "Shop", "Spatial Relationship", "Street", "Unparsed %",
        "Error %", "Unscored", "Judge"]) == []
    page.screenshot(path=str(tmp_path / "results-table.png"))   # to look at
    page.goto(researcher_server.url + "/experiments")
    expect(page.locator("#runs-list .virtual-row").first).to_be_visible(timeout=30000)
    page.get_by_text("Endpoints (OpenAI-compatible servers)").click()
    expect(page.locator("#endpoint-list .virtual-row").first).to_be_visible(timeout=20000)
    assert cut_columns(page, "runs-list", RUN_HEADERS) == []
    assert cut_columns(page, "endpoint-list", ENDPOINT_HEADERS) == []
    expect(page.locator("#runs-list")).to_contain_text("clues gt")
    page.goto(researcher_server.url + "/inspect")
    expect(page.locator("#inspect-results .virtual-row").first).to_be_visible(timeout=30000)
    assert cut_columns(page, "inspect-results", HEADERS) == []


def test_the_endpoint_url_and_the_prompt_settings_read_on_one_line_at_1400(researcher_server,
                                                                          page):
    """At 1400x900 the endpoints list's base URL read "http://lo / calhost: / 8000/v1" on
    five lines, and the prompt setting's "structured" dropped under the other three beside
    Endpoint. Both read on one line now (the form a little wider than the monitor); a URL
    longer than its column is cut with an ellipsis and whole in its tooltip."""
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(researcher_server.url + "/experiments")
    expect(page.locator("#runs-list .virtual-row").first).to_be_visible(timeout=30000)
    page.get_by_text("Endpoints (OpenAI-compatible servers)").click()
    expect(page.locator("#endpoint-list .virtual-row").first).to_be_visible(timeout=20000)
    url = "#endpoint-list .virtual-row .body-cell:nth-child(2) span.text"
    assert lines(page, url) == {"http://localhost:8000/v1": 1}
    assert cut_columns(page, "endpoint-list", ["base URL"]) == []
    choices = page.locator("#run-setting label")
    expect(choices).to_have_count(4)
    tops = {round(choices.nth(k).bounding_box()["y"]) for k in range(4)}
    assert len(tops) == 1, tops                               # "Structured" on the same line
    assert lines(page, "#run-setting label span") == {
        "No-CoT": 1, "CoT": 1, "Clue-guided CoT": 1, "Structured": 1}
    cell = page.locator(url).first                   # a longer URL: an ellipsis, a tooltip
    long_url = "https://generativelanguage.googleapis.com/v1beta/openai"
    cell.evaluate("(e, text) => { e.firstChild.data = text; }", long_url)
    assert cell.evaluate("e => e.scrollWidth > e.clientWidth") and lines(page, url) == {
        long_url: 1}
    cell.hover()
    expect(cell).to_have_attribute("title", long_url)
