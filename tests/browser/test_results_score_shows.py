"""Pressing Score shows the chosen runs' results at once: the page said "Scored 2 runs: …"
above "No results shown yet: choose one or more scored runs above and press Show results",
the runs chosen. Real Chromium, one server for the module, runs not scored before."""
import pytest
from playwright.sync_api import expect

from store import Store
from tests.browser.test_results_flow import ITEMS, choose_runs, pick
from tests.live_server import LiveServer
from tests.scoring_helpers import add_items, make_run


@pytest.fixture(scope="module")
def unscored_server(tmp_path_factory):
    db = tmp_path_factory.mktemp("score-shows") / "results.db"
    store = Store.open(db)
    add_items(store, ITEMS)
    make_run(store, "first-run", {f"b/{i}": "Answer: C" for i in range(4)}, model="first")
    make_run(store, "second-run", {f"b/{i}": "Answer: A" for i in range(4)}, model="second")
    store.close()
    server = LiveServer(db, "--no-auth")
    yield server
    server.stop()


def test_score_shows_the_chosen_runs_in_the_protocol_scored(unscored_server, page):
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(unscored_server.url + "/results")
    choose_runs(page, "id first-run", "id second-run")
    pick(page, "results-shown", "rigorous")
    page.click("#results-score")
    expect(page.locator("#results-status")).to_contain_text("Scored 2 runs", timeout=30000)
    table = page.locator("#results-table")
    expect(table).to_contain_text("first", timeout=20000)
    expect(table).to_contain_text("second")
    expect(page.locator("#results-empty")).to_be_hidden()
    expect(page.locator("#results-shown input")).to_have_value("general")
