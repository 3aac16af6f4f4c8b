"""Runs a person can tell apart and counters that hide nothing, in real Chromium against a real
server, SQLite file and fake-OpenAI process: the progress panel's counters of a run with
mixed statuses add up; Test connection tries the form's unsaved values; a run renamed on the
Experiments page is named so in every run picker; a deletion names what it removes and waits
for a confirmation; a refused Inspect filter is one message, not red Error badges."""
import json
import re
import sqlite3

import pytest
from playwright.sync_api import expect

from store import Store
from tests.inspect_helpers import build_inspect_db
from tests.live_server import LiveServer
from tests.openai_server import free_port, start_server
from tests.test_runner_cli import app

ERROR_BADGES = "[data-testid='status-tracker']:not(.hide) .error"
"""A red "Error" badge shown over a component (hidden trackers keep theirs: an event
cancelled in the page, such as the deep link's on a plain opening, leaves one there)."""


@pytest.fixture(scope="module")
def fake():
    with start_server() as server:
        yield server


@pytest.fixture(scope="module")
def server(tmp_path_factory, fake):
    """Runs run-a and run-b (Inspect's fixtures) and `mixed`, a real run of the three items
    whose first two replies are a refusal and a truncation. One server for the module (the
    tests run in file order: the last one deletes run-b)."""
    db = tmp_path_factory.mktemp("runs") / "ui.db"
    build_inspect_db(db)
    fake.configure(reset=True, script=["refuse", "truncate"])
    with Store.open(db) as store:
        store.add_endpoint("fake", fake.url, "fake-vlm", concurrency=1)
    # its own process: Playwright keeps an event loop running in this one
    done = app("run", "--db", db, "--endpoint", "fake", "--setting", "direct", "--clues", "gt",
               "--ids", "ui/alpha,ui/beta,ui/gamma", "--json")
    assert done.returncode == 0, done.stderr
    mixed = json.loads(done.stdout)["id"]
    live = LiveServer(db, "--no-auth")
    live.db, live.mixed = db, mixed
    yield live
    live.stop()


def watch(page, run_id):
    page.locator("#run-id textarea").fill(run_id)
    page.locator("#run-id textarea").press("Enter")
    expect(page.locator("#run-progress")).to_contain_text(run_id, timeout=20000)


def counts(page) -> dict:
    found = page.locator("#run-counts [data-count]")
    return {el.get_attribute("data-count"): int(el.inner_text().split()[-1])
            for el in found.all()}


def options(page, elem_id, wanted: str) -> list[str]:
    """The options of a dropdown once one of them contains `wanted` (a page fills its
    pickers when it opens), else after 20 s."""
    for _ in range(40):
        page.locator(f"#{elem_id} input").first.click()
        shown = page.locator("[data-testid='dropdown-option']")
        expect(shown.first).to_be_visible(timeout=10000)
        texts = shown.all_inner_texts()
        page.mouse.click(5, 300)  # closes the list
        if any(wanted in t for t in texts):
            break
        page.wait_for_timeout(500)
    return texts


def test_the_panel_counts_every_status_and_they_add_up(server, page):
    page.goto(server.url + "/experiments")
    watch(page, server.mixed)
    expect(page.locator("#run-status")).to_have_text("done")
    shown = counts(page)
    assert shown["refused"] == 1 and shown["truncated"] == 1 and shown["pending"] == 0
    assert sum(v for k, v in shown.items() if k != "total") == shown["total"] == 3
    page.screenshot(path=str(server.db.with_name("panel.png")))


def test_test_connection_tries_the_form_before_it_is_saved(server, fake, page):
    page.goto(server.url + "/experiments")
    page.click("#endpoints-panel button")  # the accordion opens
    page.locator("#endpoint-name input, #endpoint-name textarea").first.fill("new")
    page.locator("#endpoint-url textarea, #endpoint-url input").first.fill(fake.url)
    page.locator("#endpoint-model textarea, #endpoint-model input").first.fill("fake-vlm")
    page.click("#endpoint-test")
    expect(page.locator("#endpoint-result")).to_contain_text("✓", timeout=20000)
    expect(page.locator("#endpoint-result")).to_contain_text("serves fake-vlm")
    dead = f"http://127.0.0.1:{free_port()}/v1"
    page.locator("#endpoint-url textarea, #endpoint-url input").first.fill(dead)
    page.click("#endpoint-test")
    expect(page.locator("#endpoint-result")).to_contain_text("✗", timeout=20000)
    expect(page.locator("#endpoint-result")).to_contain_text("connection")
    con = sqlite3.connect(server.db)
    assert con.execute("SELECT name FROM endpoints ORDER BY name").fetchall() == [("fake",)]


def test_a_renamed_run_is_named_in_every_picker(server, page):
    page.goto(server.url + "/experiments")
    watch(page, "run-a")
    page.locator("#run-name textarea, #run-name input").first.fill("Baseline, no clues")
    page.locator("#run-note textarea").fill("the first try")
    page.click("#run-save-labels")
    expect(page.locator("#run-control-message")).to_contain_text("Baseline, no clues",
                                                                 timeout=20000)
    expect(page.locator("#runs-list")).to_contain_text("Baseline, no clues")
    page.screenshot(path=str(server.db.with_name("renamed.png")))
    con = sqlite3.connect(server.db)
    assert con.execute("SELECT name, note FROM model_runs WHERE id = 'run-a'").fetchone() == (
        "Baseline, no clues", "the first try")

    page.goto(server.url + "/results")
    labels = options(page, "results-runs", "Baseline, no clues")
    [label] = [t for t in labels if "Baseline, no clues" in t]
    assert "clues none" in label and "images full" in label
    # every run in one form, its short id last (a runner-made id's 4 hex digits; the test's
    # "run-a" whole)
    assert label.startswith("Baseline, no clues · ") and label.endswith(" · id run-a")
    assert any("clues gt" in t and t.endswith(f"id {server.mixed[-4:]}") for t in labels)
    page.goto(server.url + "/inspect")
    expect(page.locator("#inspect-count")).to_contain_text("responses match", timeout=20000)
    assert any("Baseline, no clues" in t and "Structured" in t
               for t in options(page, "inspect-run", "Baseline, no clues"))


def pick(page, elem_id, option):
    page.locator(f"#{elem_id} input").first.click()
    page.locator("[data-testid='dropdown-option']", has_text=option).first.click()


def test_a_flip_filter_left_over_from_another_run_is_one_message(server, page):
    page.goto(server.url + "/inspect")
    results = page.locator("#inspect-results")
    expect(page.locator("#inspect-count")).to_contain_text("responses match", timeout=20000)
    # run-a is named "Baseline, no clues" by the test above: pickers and list show its name
    pick(page, "inspect-run", "Baseline, no clues ·")
    # Inspect opens on the judge Results uses (llm:judge, which scored run-a only): the
    # flips are those of the offline verdicts both runs have
    pick(page, "inspect-judge", "offline")
    pick(page, "inspect-flip-run", "id run-b")
    pick(page, "inspect-flip", "any flip")
    page.click("#inspect-filter")
    # the fixture's two runs differ on two items
    expect(page.locator("#inspect-count")).to_have_text(
        re.compile(r"^\s*2 responses match"), timeout=20000)
    listed = results.inner_text()
    assert "Baseline, no clues" in listed and "run-a" not in listed

    # the flip run becomes the run chosen: no flip against itself is left over (it showed
    # red Error badges, then a refusal): the flip filter is emptied with it, and Filter
    # lists that run's responses, with no error anywhere
    pick(page, "inspect-run", "id run-b")
    expect(page.locator("#inspect-flip-run input")).not_to_have_value(
        re.compile("run-b"), timeout=20000)
    expect(page.locator("#inspect-flip input")).to_have_value("(no flip filter)")
    page.click("#inspect-filter")
    expect(page.locator("#inspect-count")).to_have_text(
        re.compile(r"^\s*3 responses match"), timeout=20000)
    page.screenshot(path=str(server.db.with_name("flip.png")))
    expect(page.locator(ERROR_BADGES)).to_have_count(0)
    expect(page.locator(".toast-body")).to_have_count(0)


def test_a_run_is_deleted_only_after_a_confirmation_naming_the_counts(server, page):
    page.goto(server.url + "/experiments")
    watch(page, "run-b")
    page.click("#run-delete")
    question = page.locator("#run-delete-question")
    expect(question).to_contain_text("3 responses (of 3 work rows)", timeout=20000)
    expect(question).to_contain_text("scores")
    page.screenshot(path=str(server.db.with_name("delete.png")))
    page.click("#run-delete-no")
    expect(page.locator("#run-delete-yes")).to_be_hidden(timeout=10000)
    con = sqlite3.connect(server.db)
    assert con.execute("SELECT count(*) FROM model_runs WHERE id = 'run-b'").fetchone() == (1,)

    page.click("#run-delete")
    expect(question).to_contain_text("3 responses", timeout=20000)
    page.click("#run-delete-yes")
    expect(page.locator("#run-control-message")).to_contain_text("Run run-b deleted",
                                                                 timeout=20000)
    expect(page.locator("#runs-list")).not_to_contain_text("run-b")
    assert con.execute("SELECT count(*) FROM model_runs WHERE id = 'run-b'").fetchone() == (0,)
    for table in ("run_work", "run_responses", "scores"):
        assert con.execute(f"SELECT count(*) FROM {table} WHERE run_id = 'run-b'"
                           ).fetchone() == (0,), table
    assert con.execute("SELECT count(*) FROM run_responses WHERE run_id = 'run-a'"
                       ).fetchone() == (3,)
