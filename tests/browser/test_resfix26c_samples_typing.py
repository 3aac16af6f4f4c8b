"""Researcher review (resfix26c): typing "first" in the Results page's Samples rule dropdown
and pressing Enter picked "MMR-Life: over 2 of first 5 right", listed before "first sample
only". Real server, real Chromium."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.test_results_flow import results_server  # noqa: F401 (fixture)


def test_typing_first_picks_first_sample_only(results_server, page):  # noqa: F811
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(results_server.url + "/results")
    box = page.locator("#results-samples input").first
    expect(box).to_be_visible(timeout=20000)
    box.click()
    box.press("Control+a")
    box.press("Backspace")
    box.press_sequentially("first", delay=50)
    expect(page.locator("[data-testid='dropdown-option']").first).to_contain_text(
        "first", timeout=10000)
    box.press("Enter")
    expect(box).to_have_value("first sample only")
