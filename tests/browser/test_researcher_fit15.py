"""Researcher review 15, in real Chromium at 1400x900: the Experiments page's last prompt
setting read "Structurec" (cut by its block), and the "Run … started" toast covered the
progress panel's latency figures (the panel's own line says it)."""
import re

from playwright.sync_api import expect

from store import Store
from tests.openai_server import start_server


def test_structured_is_whole_and_a_started_run_shows_no_toast(ui_server, page):
    fake = start_server(latency=0.2, default_reply="Answer: {letter}")
    try:
        with Store.open(ui_server.db) as store:
            store.add_endpoint("fake", fake.url, "fake-vlm", concurrency=1)
        page.set_viewport_size({"width": 1400, "height": 900})
        page.goto(ui_server.url + "/experiments")
        expect(page.locator("#run-endpoint input")).to_have_value("fake", timeout=20000)
        block = page.locator("#run-setting").bounding_box()
        last = page.locator("#run-setting label").nth(3)
        expect(last).to_have_text("Structured")
        box = last.bounding_box()
        assert box["x"] + box["width"] <= block["x"] + block["width"] + 0.5, (box, block)
        page.click("#run-start")
        expect(page.locator("#run-control-message")).to_contain_text("started",
                                                                     timeout=20000)
        page.wait_for_timeout(500)
        assert page.locator(".toast-body").count() == 0      # nothing over the panel
        expect(page.locator("#run-status")).to_have_text("done", timeout=60000)
    finally:
        fake.stop()


def test_two_runs_of_one_model_and_setting_read_apart_in_flips_against_run(ui_server, page):
    """"Flips against run" cut two vlm-b · CoT runs to "vlm-b · CoT · 2026120…": each label
    now reads whole to its short id at 1400x900."""
    from tests.scoring_helpers import make_run

    with Store.open(ui_server.db) as store:
        replies = {"ui/alpha": "Answer: A"}
        make_run(store, "20261207-064538-fa73", replies, model="vlm-a",
                 setting="clue_guided")
        store.label_run("20261207-064538-fa73", name="a-clues")
        for rid in ("20261207-064600-77ab", "20261207-064700-9c0d"):
            make_run(store, rid, replies, model="vlm-b")
        make_run(store, "20261207-064800-0c1d", replies, model="vlm-c")  # the list's run
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(ui_server.url + "/inspect")
    field = page.locator("#inspect-flip-run input")
    expect(field).to_be_visible(timeout=30000)
    for tag in ("id 77ab", "id 9c0d", "id fa73"):
        field.click()
        page.locator("[data-testid=dropdown-option]", has_text=tag).first.click()
        expect(field).to_have_value(re.compile(f"{tag}$"), timeout=10000)
        assert field.evaluate("e => e.scrollWidth <= e.clientWidth"), field.input_value()
