"""Review round 28: the clue-injection heatmap sat in a half-width card at 1400x900; its
"No Clue" column (the baseline) was cut off at the card's edge and its title cut mid-word
("…n = 6: run a-budge"), and a cell crammed "66.67 (+0.00 vs 66.67 without clue, on these 3
items) n 3 ‡ 3 no source clue" into its tile. Now the map has the page's width, every column
is inside its box, the title wraps, and a tile holds its value, change and n (the rest in
the notes and on hover). Real server, real Chromium."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_results_flow import choose_runs, scored_server

ITEMS = [{"id": f"i/{i:02d}", "answer_type": "multiple_choice", "answer": "C",
          "domain": "Street", "subtask": "s"} for i in range(14)]
SHOTS = "/tmp/restables"


def _right(k: int, items: int = 14) -> dict:
    return {f"i/{i:02d}": "Answer: C" if i < k else "Answer: A" for i in range(items)}


@pytest.fixture
def server(tmp_path):
    """vlm-a, Clue-guided CoT, six columns; a-budget answered 6 items only (the shared n)."""
    found = scored_server(tmp_path / "fit.db", ITEMS, {
        "none-run": (_right(5), {"model": "vlm-a", "setting": "clue_guided"}),
        "gt-run": (_right(6), {"model": "vlm-a", "setting": "clue_guided", "clues": "gt"}),
        "self-run": (_right(7), {"model": "vlm-a", "setting": "clue_guided",
                                 "clues": "self"}),
        "a-budget": (_right(3, 6), {"model": "vlm-a", "setting": "clue_guided",
                                    "clues": "run:none-run", "asked": 14}),
        "b-run": (_right(9), {"model": "vlm-a", "setting": "clue_guided",
                              "clues": "run:gt-run"}),
        "c-run": (_right(4), {"model": "vlm-a", "setting": "clue_guided",
                              "clues": "run:self-run"})})
    yield found
    found.stop()


def test_every_column_and_the_title_fit_at_1400(server, page):
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(server.url + "/results")
    choose_runs(page, "id none-run", "id gt-run", "id self-run", "id a-budget", "id b-run",
                "id c-run")
    page.click("#results-show")
    box = page.locator("#results-injection .cluelab-heatmap-box")
    expect(box).to_contain_text("No Clue", timeout=30000)
    box.scroll_into_view_if_needed()
    page.locator("#results-injection").screenshot(path=f"{SHOTS}/injection.png")
    outer = box.bounding_box()
    assert outer["width"] > 1000, outer                      # the page's width, not half
    for cell in box.locator("table.cluelab-heatmap tr th, table.cluelab-heatmap td").all():
        edge = cell.bounding_box()
        assert edge["x"] + edge["width"] <= outer["x"] + outer["width"] + 1, cell.inner_text()
    title = box.locator(".cluelab-heatmap-title")
    assert "covers 6 of its 14 items; each cell's n" in title.inner_text()   # whole
    t = title.bounding_box()
    assert t["x"] + t["width"] <= outer["x"] + outer["width"] + 1, t
    for cell in box.locator("td").all():                     # value, change and n at most
        assert "without clue" not in cell.inner_text(), cell.inner_text()
