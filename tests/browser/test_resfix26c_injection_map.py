"""Researcher review (resfix26c): the clue-injection map at 1400x900 squeezed its row names
into a narrow column ("vlm-a · Clue-guided CoT (14 items)" on four lines), and coloured 35.71,
42.86 and 50.00 nearly the same pale blue (a fixed 0-100 white-to-blue scale). The row names
now have a minimum width, and the accuracy colours run over the map's own range (at least 20
points, yellow-green-blue), so its differences are seen. Real server, real Chromium."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_results_flow import choose_runs, rgb, scored_server

ITEMS = [{"id": f"i/{i:02d}", "answer_type": "multiple_choice", "answer": "C",
          "domain": "Street", "subtask": "s"} for i in range(14)]


def _right(k: int) -> dict:
    return {f"i/{i:02d}": "Answer: C" if i < k else "Answer: A" for i in range(14)}


@pytest.fixture
def server(tmp_path):
    """vlm-a, Clue-guided CoT: no clue right on 5 of 14 (35.71), GT clues on 6 (42.86),
    its own clues on 7 (50.00), the first two runs' clues on 8 and 9: five columns."""
    found = scored_server(tmp_path / "injection.db", ITEMS, {
        "none-run": (_right(5), {"model": "vlm-a", "setting": "clue_guided"}),
        "gt-run": (_right(6), {"model": "vlm-a", "setting": "clue_guided", "clues": "gt"}),
        "self-run": (_right(7), {"model": "vlm-a", "setting": "clue_guided",
                                 "clues": "self"}),
        "a-run": (_right(8), {"model": "vlm-a", "setting": "clue_guided",
                              "clues": "run:none-run"}),
        "b-run": (_right(9), {"model": "vlm-a", "setting": "clue_guided",
                              "clues": "run:gt-run"})})
    yield found
    found.stop()


def test_row_names_are_readable_and_cells_differ_in_colour(server, page, tmp_path):
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(server.url + "/results")
    choose_runs(page, "id none-run", "id gt-run", "id self-run", "id a-run", "id b-run")
    page.click("#results-show")
    heatmap = page.locator("#results-injection table.cluelab-heatmap")
    expect(heatmap).to_contain_text("50.00", timeout=30000)
    heatmap.scroll_into_view_if_needed()
    name = heatmap.locator("th", has_text="vlm-a · Clue-guided CoT (14 items)")
    box = name.bounding_box()
    lines = name.evaluate("h => { const r = document.createRange(); r.selectNodeContents(h); "
                          "return new Set([...r.getClientRects()].map(x => Math.round(x.top)))"
                          ".size; }")
    assert box["width"] >= 200 and lines <= 2, (box, lines)
    colours = {}
    for cell in heatmap.locator("td").all():
        text = cell.inner_text()
        colours[text.split()[0]] = rgb(cell.evaluate("c => getComputedStyle(c).backgroundColor"))
        # the n under the value in the cell's text colour (it was dark on the navy cell)
        said = cell.evaluate("c => [getComputedStyle(c).color, "
                             "getComputedStyle(c.querySelector('.cell-n')).color]")
        assert said[0] == said[1], (text, said)
    assert {"35.71", "42.86", "50.00"} <= set(colours), colours
    values = [colours[v] for v in ("35.71", "42.86", "50.00")]
    for a in range(3):
        for b in range(a + 1, 3):
            assert sum(abs(x - y) for x, y in zip(values[a], values[b])) > 90, colours
    page.locator("#results-injection").screenshot(path=str(tmp_path / "injection.png"))
    page.locator("#results-injection").screenshot(path="/tmp/resfix26c/injection.png")
