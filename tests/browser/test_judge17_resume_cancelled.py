"""A cancelled run's Resume was greyed out on the Experiments page, while its message says
"a resume sends them again" and `run --resume ID` resumes it. Real Chromium, a real run
against the fake OpenAI server, cancelled from the page while its requests are in flight."""
import pytest
from playwright.sync_api import expect

from store import Store
from tests.openai_server import start_server


@pytest.fixture
def fake():
    server = start_server(latency=2.0)
    yield server
    server.stop()


def test_a_cancelled_run_can_be_resumed_from_the_page(ui_server, fake, page):
    with Store.open(ui_server.db) as store:
        store.add_endpoint("fake", fake.url, "fake-vlm", concurrency=1)
    page.goto(ui_server.url + "/experiments")
    expect(page.locator("#run-endpoint input")).to_have_value("fake", timeout=20000)
    page.click("#run-start")
    expect(page.locator("#run-status")).to_have_text("running", timeout=30000)
    # a request in flight (2 s each): a Start hands the run to its process at once
    # (resfix26a), so "running" can come before anything is sent, and a cancel then drops
    # nothing a resume would send again
    expect(page.locator("#run-progress")).to_contain_text("in flight1/1", timeout=30000)
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#run-cancel")
    expect(page.locator("#run-status")).to_have_text("cancelled", timeout=30000)
    expect(page.locator("#run-progress")).to_contain_text("a resume sends them again")
    expect(page.locator("#run-resume")).to_be_enabled(timeout=10000)
    page.reload()                                   # chosen again from the list: the same
    page.locator("#runs-list [role=gridcell]", has_text="cancelled").first.click()
    expect(page.locator("#run-status")).to_have_text("cancelled", timeout=20000)
    expect(page.locator("#run-resume")).to_be_enabled(timeout=10000)
    page.click("#run-resume")
    expect(page.locator("#run-status")).to_have_text("done", timeout=60000)
