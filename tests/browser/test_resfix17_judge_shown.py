"""resfix17: after Score with an LLM judge, "Judge shown" is that judge: it stayed on the
common judge (the offline one the runs were scored with before), the page showing other
verdicts than those just made. Real Chromium, real fake OpenAI server as the judge."""
import pytest
from playwright.sync_api import expect

from store import Store
from tests.browser.test_results_flow import ITEMS, choose_runs, pick
from tests.live_server import LiveServer
from tests.openai_server import start_server
from tests.scoring_helpers import add_items, make_run


@pytest.fixture(scope="module")
def judged_server(tmp_path_factory):
    judge = start_server(default_reply='{"verdict": "correct", "reason": "same"}')
    db = tmp_path_factory.mktemp("judge-shown") / "results.db"
    store = Store.open(db)
    add_items(store, ITEMS)
    make_run(store, "first-run", {f"b/{i}": "Answer: C" for i in range(4)}, model="first")
    store.add_endpoint("fj", judge.url, "fake-vlm", concurrency=2)
    store.close()
    server = LiveServer(db, "--no-auth")
    yield server
    server.stop()
    judge.stop()


def test_judge_shown_follows_the_judge_just_used(judged_server, page):
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(judged_server.url + "/results")
    choose_runs(page, "id first-run")
    page.click("#results-score")                       # offline first: the common judge
    expect(page.locator("#results-status")).to_contain_text("Scored 1 run", timeout=30000)
    expect(page.locator("#results-judge input")).to_have_value("(common judge)")
    pick(page, "results-judges", "fj")
    page.keyboard.press("Escape")
    page.click("#results-score")
    expect(page.locator("#results-status")).to_contain_text("llm:fj", timeout=30000)
    expect(page.locator("#results-judge input")).to_have_value("llm:fj", timeout=20000)
