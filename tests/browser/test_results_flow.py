"""The Results tab in real Chromium against a real server and SQLite holding two scored runs:
show them, then change a reading dropdown and see the table, the reading and the plots drawn
again (MMR-Life's regex reads the trap answer as E, so one run's accuracy falls)."""
import pytest
from playwright.sync_api import expect

from scoring.score_run import score_run
from store import Store
from tests.live_server import LiveServer
from tests.scoring_helpers import add_items, make_run

TRAP = "# Answer: C\nThis matches the blue cube."    # ours reads C, MMR-Life's regex E
ITEMS = [{"id": f"b/{i}", "answer_type": "multiple_choice", "answer": "C",
          "domain": ["Street", "Shop"][i % 2], "subtask": f"s{i % 2}"} for i in range(4)]
PLOTS = ("#results-domains", "#results-subtasks", "#results-length")


@pytest.fixture
def results_server(tmp_path):
    db = tmp_path / "results.db"
    store = Store.open(db)
    add_items(store, ITEMS)
    make_run(store, "trap-run", {f"b/{i}": TRAP for i in range(4)}, model="trapped")
    make_run(store, "plain-run", {f"b/{i}": "Answer: C" if i < 2 else "Answer: A"
                                  for i in range(4)}, model="plain", setting="direct")
    for run in ("trap-run", "plain-run"):
        score_run(store, run)
    store.close()
    server = LiveServer(db, "--no-auth")
    yield server
    server.stop()


def pick(page, elem_id, option):
    page.locator(f"#{elem_id} input").first.click()
    page.locator("[data-testid='dropdown-option']", has_text=option).first.click()


def plot_drawn(page, selector):
    """A Gradio native plot has drawn its chart (Vega renders a canvas or an svg)."""
    expect(page.locator(f"{selector} canvas, {selector} svg.marks").first).to_be_attached(
        timeout=20000)


def test_show_two_runs_then_switch_to_the_authors_extraction(results_server, page):
    page.goto(results_server.url + "/results")
    pick(page, "results-runs", "trap-run ·")
    pick(page, "results-runs", "plain-run ·")
    page.keyboard.press("Escape")
    page.click("#results-show")
    table = page.locator("#results-table")
    expect(table).to_contain_text("trapped · CoT", timeout=20000)
    expect(table).to_contain_text("plain · No-CoT")
    expect(table).to_contain_text("100.00 [100.00, 100.00]")  # the trap is read as C
    rules = page.locator("#results-rules")
    expect(rules).to_contain_text("Answers read by ClueLab's extraction")
    for plot in PLOTS:
        plot_drawn(page, plot)
    expect(page.locator("#results-judge input")).to_have_value("(latest scoring)")

    pick(page, "results-extraction", "MMR-Life's regex")
    expect(rules).to_contain_text("Answers read by MMR-Life's regex", timeout=20000)
    expect(rules).to_contain_text("4 of 4 multiple-choice verdicts differ")
    expect(table).to_contain_text("0.00 [0.00, 0.00]")       # now E: every trap answer wrong
    expect(table).not_to_contain_text("100.00 [100.00, 100.00]")
    expect(table).to_contain_text("50.00")                   # the plain run is unchanged
    for plot in PLOTS:
        plot_drawn(page, plot)
    assert page.locator("#results-length canvas, #results-length svg.marks").count() >= 1
