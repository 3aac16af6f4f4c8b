"""A run started from the Experiments tab in real Chromium, watched until done; the model's
(hostile) output stays text."""
import re
import sqlite3

import pytest
from playwright.sync_api import expect

from store import Store
from tests.openai_server import start_server
from tests.browser.fit_checks import cut_text
from tests.scoring_helpers import NOT_RUN, make_run

HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'


@pytest.fixture
def fake():
    server = start_server(latency=0.3, default_reply=HOSTILE + "\nAnswer: {letter}")
    yield server
    server.stop()


def test_start_a_run_from_the_page_and_watch_it_finish(ui_server, fake, page):
    with Store.open(ui_server.db) as store:
        store.add_endpoint("fake", fake.url, "fake-vlm", concurrency=1)
    page.goto(ui_server.url + "/experiments")
    expect(page.locator("#run-endpoint input")).to_have_value("fake", timeout=20000)
    page.click("#run-preview")
    expect(page.locator("#run-summary")).to_contain_text("3 items", timeout=20000)
    # "~" means "about" here: nothing is struck through and no backslash shows
    expect(page.locator("#run-summary del, #run-summary s")).to_have_count(0)
    expect(page.locator("#run-summary")).to_contain_text("(~4 characters a token")
    assert "\\" not in page.locator("#run-summary").inner_text()
    expect(page.locator("#run-transcript textarea")).to_have_value(
        re.compile("image 1: image/jpeg"), timeout=20000)
    page.click("#run-start")
    expect(page.locator("#run-status")).to_have_text("done", timeout=60000)
    expect(page.locator("#run-done")).to_have_text("3/3")
    expect(page.locator("#runs-list")).to_contain_text("done")
    cell = page.locator("#run-responses [role=gridcell]", has_text="ui/gamma").first
    expect(cell).to_be_visible(timeout=20000)  # the sample loads when the run is done
    cell.click()
    expect(page.locator("#run-response-text textarea")).to_have_value(
        re.compile("onerror"), timeout=20000)
    assert page.evaluate("window.__pwned") is None
    assert page.locator("#run-monitor img").count() == 0

    run_id = page.locator("#run-id textarea").input_value()
    # a done run has nothing to pause or cancel: the buttons say so (they looked live);
    # Resume too, with no error to send again and nothing unsent (a click only said so)
    expect(page.locator("#run-pause")).to_be_disabled()
    expect(page.locator("#run-cancel")).to_be_disabled()
    expect(page.locator("#run-resume")).to_be_disabled()
    # Cancel asks first, naming the run; declined, nothing reaches the server
    with Store.open(ui_server.db) as store:
        waiting = make_run(store, "waiting", {"ui/alpha": NOT_RUN})
    page.fill("#run-id textarea", waiting)
    page.press("#run-id textarea", "Enter")
    expect(page.locator("#run-cancel")).to_be_enabled(timeout=20000)
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.click("#run-cancel")
    page.wait_for_timeout(1000)
    assert asked and waiting in asked[0] and "dropped" in asked[0]
    # declined, nothing was asked; the line about the run watched before went with it
    expect(page.locator("#run-control-message")).not_to_contain_text("cancel")
    expect(page.locator("#run-control-message")).not_to_contain_text("started")
    con = sqlite3.connect(ui_server.db)
    assert con.execute("SELECT status FROM model_runs WHERE id = ?", [waiting]).fetchone() \
        != ("cancelled",)
    assert con.execute("SELECT status FROM model_runs WHERE id = ?", [run_id]).fetchone() == (
        "done",)
    assert con.execute("SELECT count(*) FROM run_responses WHERE run_id = ?",
                       [run_id]).fetchone()[0] == 3



def test_a_refused_start_stays_in_the_runs_panel(ui_server, page):
    """A Start refused (nothing listening at the endpoint) showed a toast that went in
    seconds, and then nothing on the page said why no run had started. The refusal stays
    in the runs panel, where a started run's line goes."""
    from tests.openai_server import free_port
    with Store.open(ui_server.db) as store:
        store.add_endpoint("dead", f"http://127.0.0.1:{free_port()}/v1", "m", concurrency=1)
    page.goto(ui_server.url + "/experiments")
    expect(page.locator("#run-endpoint input")).to_have_value("dead", timeout=20000)
    page.click("#run-start")
    message = page.locator("#run-control-message")
    expect(message).to_contain_text("not started: endpoint dead", timeout=30000)
    expect(message).to_contain_text("cannot connect")
    page.wait_for_timeout(12000)                       # the toast has gone by now
    expect(message).to_contain_text("not started: endpoint dead")
    with Store.open(ui_server.db) as store:
        assert store.list_runs() == []


def test_the_line_about_a_pause_goes_when_the_run_has_paused(ui_server, page):
    """"Asked run … to pause; it stops after the requests in flight." stayed under the
    buttons after the run had paused (and the panel said paused). The line goes when the
    watched run's status changes."""
    # 4 s a reply, one at a time: the 3 items take 12 s, so a loaded machine's Pause still
    # comes before the run is done (at 2 s it once came after, the run never paused)
    slow = start_server(latency=4.0, default_reply="Answer: {letter}")
    try:
        with Store.open(ui_server.db) as store:
            store.add_endpoint("slow", slow.url, "fake-vlm", concurrency=1)
        page.goto(ui_server.url + "/experiments")
        expect(page.locator("#run-endpoint input")).to_have_value("slow", timeout=20000)
        page.click("#run-start")
        expect(page.locator("#run-status")).to_have_text("running", timeout=30000)
        page.click("#run-pause")
        line = page.locator("#run-control-message")
        expect(line).to_contain_text("to pause", timeout=20000)
        expect(page.locator("#run-status")).to_have_text("paused", timeout=30000)
        expect(line).not_to_contain_text("to pause", timeout=10000)
    finally:
        slow.stop()


def test_labels_whole_and_every_run_column_in_view_at_1400(ui_server, page):
    from tests.scoring_helpers import make_run

    with Store.open(ui_server.db) as store:
        for n, model in enumerate(["gpt-4o-mini-2024-07-18", "qwen2.5-vl-72b-instruct"]):
            make_run(store, f"20261202-01020{n}-ab1{n}", {"ui/alpha": "Answer: A"},
                     model=model, clues="gt" if n else "none")
        store.label_run("20261202-010200-ab10", name="Baseline, no clues")
        # ended with replies of no price: its cost is "unknown" (the longest a cost reads)
        store.finish_run("20261202-010201-ab11", None, "done", "done", {"done": 1})
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(ui_server.url + "/experiments")
    runs = page.locator("#runs-list")
    expect(runs).to_contain_text("20261202-010201-ab11", timeout=20000)
    # every run by its table label (a named run by its name), its id beside it
    # (ui/experiments_runs.runs_table)
    expect(runs).to_contain_text("Baseline, no clues")
    expect(runs).to_contain_text("qwen2.5-vl-72b-instruct · CoT · clues gt")
    expect(runs).to_contain_text("20261202-010200-ab10")
    assert cut_text(page) == []
    heads = runs.locator(".header-cell")
    expect(heads).to_have_count(6)
    view = runs.locator(".virtual-table-viewport").bounding_box()
    for head in heads.all():                            # cost and by included: in view
        box = head.bounding_box()
        assert box["x"] >= view["x"] - 1 and box["x"] + box["width"] <= \
            view["x"] + view["width"] + 1, (head.inner_text(), box, view)
    for text in ("cost $", "by"):
        expect(heads.filter(has_text=text)).to_have_count(1)
    cut = runs.locator(".header-cell span.text").evaluate_all(
        "spans => spans.filter(s => s.scrollWidth > s.clientWidth).map(s => s.textContent)")
    assert cut == []                                    # each title whole
    cells = runs.locator(".body-cell:is(.first-column, :nth-child(2), :nth-child(5)) span.text").evaluate_all(
        "spans => spans.map(s => [s.textContent.trim(), s.scrollWidth > s.clientWidth])")
    assert ["unknown", False] in cells and ["20261202-010201-ab11", False] in cells, cells
    assert ["Baseline, no clues", False] in cells, cells
    assert [text for text, cut in cells if cut] == []   # run ids and costs whole
    runs.screenshot(path="/tmp/h6r-runs-list.png")      # to look at
    # wider data would scroll: with a scrollbar that shows, not Gradio's 4 px of grey
    assert runs.locator(".virtual-table-viewport").evaluate(
        "e => getComputedStyle(e).scrollbarWidth") == "auto"


def in_view(page, selector: str) -> bool:
    """The element's whole box is inside the window (nothing to scroll to see it)."""
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"] \
        and box["x"] >= 0 and box["x"] + box["width"] <= size["width"]


def test_start_is_in_view_after_the_form_and_the_progress_when_a_run_starts(
        ui_server, fake, page):
    """At 1400x900 Start was 250 px below the fold, and scrolling down to it took the
    progress panel out of view. Now Start is in view (under the form's panel) wherever the
    form is scrolled to, and the progress panel is in view when the run starts."""
    with Store.open(ui_server.db) as store:
        store.add_endpoint("fake", fake.url, "fake-vlm", concurrency=1)
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(ui_server.url + "/experiments")
    expect(page.locator("#run-endpoint input")).to_have_value("fake", timeout=20000)
    assert in_view(page, "#run-start") and in_view(page, "#run-preview")
    page.get_by_text("Images, boxes, budget, deadline").click()   # the form's last part
    page.locator("#run-deadline").scroll_into_view_if_needed()
    page.fill("#run-deadline textarea, #run-deadline input", "600")
    assert page.locator("#run-form").evaluate("e => e.scrollTop") > 300   # the form scrolled
    assert in_view(page, "#run-start")
    start = page.locator("#run-start").bounding_box()
    deadline = page.locator("#run-deadline").bounding_box()
    assert start["y"] >= deadline["y"] + deadline["height"] - 1   # below the form, not over
    page.click("#run-start")
    expect(page.locator("#run-status")).to_be_visible(timeout=20000)
    assert in_view(page, "#run-progress"), page.locator("#run-progress").bounding_box()
    expect(page.locator("#run-status")).to_have_text("done", timeout=60000)
    page.screenshot(path="/tmp/h8-res3-started.png")             # to look at
