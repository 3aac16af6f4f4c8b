"""The Results tab in real Chromium against a real server and SQLite holding scored runs:
show them, then change a reading dropdown and see the table, the reading and the plots drawn
again (MMR-Life's regex reads the trap answer as E, so one run's accuracy falls); two runs
with partial overlap are compared on their shared items, said on screen, with grouped bars."""

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from scoring.score_run import score_run
from store import Store
from tests.live_server import LiveServer
from tests.scoring_helpers import add_items, make_run
from tests.browser.fit_checks import cut_text

TRAP = "# Answer: C\nThis matches the blue cube."    # ours reads C, MMR-Life's regex E
ITEMS = [{"id": f"b/{i}", "answer_type": "multiple_choice", "answer": "C",
          "domain": ["Street", "Shop"][i % 2], "subtask": f"s{i % 2}"} for i in range(4)]
PLOTS = ("#results-breakdown", "#results-breakdown-2", "#results-drop", "#results-length")


def scored_server(db, items, runs: dict):
    """A server on a new database holding `items` and `runs` ({run id: (replies, make_run
    options)}), every run scored offline."""
    store = Store.open(db)
    add_items(store, items)
    for run, (replies, options) in runs.items():
        make_run(store, run, replies, **options)
        score_run(store, run)
    store.close()
    return LiveServer(db, "--no-auth")


@pytest.fixture
def results_server(tmp_path):
    server = scored_server(tmp_path / "results.db", ITEMS, {
        "trap-run": ({f"b/{i}": TRAP for i in range(4)}, {"model": "trapped"}),
        "plain-run": ({f"b/{i}": "Answer: C" if i < 2 else "Answer: A" for i in range(4)},
                      {"model": "plain", "setting": "direct"})})
    yield server
    server.stop()


def pick(page, elem_id, option):
    """Choose `option` in the dropdown `elem_id`; again when its list was drawn anew under
    the click (its choices arriving after the focus, on a loaded machine: "element was
    detached from the DOM" until the click's time ran out). A retry types the option's words
    to filter the list (a list re-drawn under a loaded CI machine's click showed none)."""
    for attempt in range(3):
        page.locator(f"#{elem_id} input").first.click()
        if attempt:
            page.locator(f"#{elem_id} input").first.fill(option)
        try:
            page.locator("[data-testid='dropdown-option']", has_text=option).first.click(
                timeout=10000)
            return
        except PlaywrightTimeout:
            if attempt == 2:
                raise
            page.keyboard.press("Escape")


def choose_runs(page, *labels):
    """Pick each run in the Runs list, then close the list."""
    for label in labels:
        pick(page, "results-runs", label)
    page.keyboard.press("Escape")


def plot_drawn(page, selector):
    """A chart has drawn its bars (an SVG of `scoring.bar_chart`)."""
    expect(page.locator(f"{selector} svg.cluelab-chart-svg rect.bar").first).to_be_visible(
        timeout=20000)


def test_show_two_runs_then_switch_to_the_authors_extraction(results_server, page):
    page.goto(results_server.url + "/results")
    choose_runs(page, "id trap-run", "id plain-run")
    page.click("#results-show")
    table = page.locator("#results-table")
    expect(table).to_contain_text("trapped · CoT", timeout=20000)
    expect(table).to_contain_text("plain · No-CoT")
    expect(table).to_contain_text("100.00 [51.01, 100.00]")   # the trap is read as C (Wilson)
    rules = page.locator("#results-rules")
    expect(rules).to_contain_text("Answers read by ClueLab's extraction")
    for plot in PLOTS:
        plot_drawn(page, plot)
    expect(page.locator("#results-judge input")).to_have_value("(common judge)")

    pick(page, "results-extraction", "MMR-Life's regex")
    expect(rules).to_contain_text("Answers read by MMR-Life's regex", timeout=20000)
    expect(rules).to_contain_text("4 of 4 multiple-choice verdicts differ")
    expect(table).to_contain_text("0.00 [0.00, 48.99]")      # now E: every trap answer wrong
    expect(table).not_to_contain_text("100.00 [51.01, 100.00]")
    expect(table).to_contain_text("50.00")                   # the plain run is unchanged
    for plot in PLOTS:
        plot_drawn(page, plot)


@pytest.fixture
def overlap_server(tmp_path):
    """wide: 6 items (b/0..b/5), right on b/0..b/3; narrow: b/2..b/5 only, right on b/2, b/3
    and b/5. Shared: b/2..b/5: wide 2/4 = 50%, narrow 3/4 = 75% (on all its own items
    wide would read 66.67)."""
    items = [{**item, "id": f"b/{i}"} for i, item in enumerate(ITEMS + ITEMS[:2])]
    server = scored_server(tmp_path / "overlap.db", items, {
        "wide": ({f"b/{i}": "Answer: C" if i < 4 else "Answer: A" for i in range(6)},
                 {"model": "wide-model"}),
        "narrow": ({f"b/{i}": "Answer: A" if i == 4 else "Answer: C" for i in range(2, 6)},
                   {"model": "narrow-model"})})
    yield server
    server.stop()


def bar_boxes(page, selector):
    """[(run, group, x, bottom, height)] of every bar drawn in the chart."""
    return page.eval_on_selector_all(
        f"{selector} rect.bar",
        "bars => bars.map(b => { const r = b.getBoundingClientRect();"
        " return [b.dataset.series, b.dataset.group, r.x, r.bottom, r.height]; })")


def test_partial_overlap_is_compared_on_shared_items_with_grouped_bars(overlap_server, page,
                                                                      tmp_path):
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(overlap_server.url + "/results")
    choose_runs(page, "id wide", "id narrow")
    page.click("#results-show")
    table = page.locator("#results-table")
    expect(table).to_contain_text("n = 4: run narrow-model · CoT covers 4 of 6 items",
                                  timeout=20000)                 # the caption above it
    expect(table).to_contain_text("50.00")
    expect(table).to_contain_text("75.00")
    expect(table).not_to_contain_text("66.67")
    rules = page.locator("#results-rules")
    expect(rules).to_contain_text("Runs compared on the 4 items both share")
    expect(rules).to_contain_text("wide-model · CoT: 6")
    plot_drawn(page, "#results-breakdown")
    expect(page.locator("#results-breakdown figcaption")).to_contain_text(
        "on the 4 items the runs share (run narrow-model · CoT covers 4 of 6 items)")
    bars = bar_boxes(page, "#results-breakdown")
    by_group: dict = {}
    for run, group, x, bottom, height in bars:
        by_group.setdefault(group, []).append((run, x, bottom, height))
    assert set(by_group) == {"Street", "Shop"}
    for group, found in by_group.items():                # side by side on one baseline
        assert {run for run, *_ in found} == {"wide-model · CoT", "narrow-model · CoT"}
        (_, x1, bottom1, _), (_, x2, bottom2, _) = found
        assert abs(bottom1 - bottom2) < 1 and abs(x1 - x2) >= 10
    legend = page.locator("#results-breakdown .cluelab-chart-legend li")
    expect(legend).to_have_count(2)
    for item in legend.all():                            # the legend is not cut
        box = item.bounding_box()
        chart = page.locator("#results-breakdown figure").bounding_box()
        assert box["x"] + box["width"] <= chart["x"] + chart["width"] + 1
    plot_drawn(page, "#results-length")
    page.locator("#results-breakdown").scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / "results-shared-items.png"))   # to look at


@pytest.fixture
def subtasks_server(tmp_path):
    """16 subtasks with long names, 3 runs: the chart that was 1,664 px wide in a 554 px box."""
    items = [{"id": f"s/{i}", "answer_type": "multiple_choice", "answer": "C",
              "domain": "Street", "subtask": f"Subtask {i:02d}: reading a long descriptive name"}
             for i in range(16)]
    server = scored_server(tmp_path / "subtasks.db", items, {
        f"run-{k}": ({f"s/{i}": "Answer: C" if (i + k) % 3 != 1 else "Answer: A" for i in range(16)},
                     {"model": f"model-{k}"}) for k in range(3)})
    yield server
    server.stop()


def test_empty_state_then_every_chart_fits_its_box(subtasks_server, page, tmp_path):
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(subtasks_server.url + "/results")
    empty = page.locator("#results-empty")
    expect(empty).to_contain_text("No results shown yet", timeout=20000)
    expect(page.locator("#results-table")).to_have_count(0)      # no "1 2 3" headers
    choose_runs(page, *(f"id run-{k}" for k in range(3)))
    page.click("#results-show")
    expect(page.locator("#results-table")).to_contain_text("model-0 · CoT", timeout=20000)
    expect(empty).to_be_hidden()
    pick(page, "results-by", "subtask")
    expect(page.locator("#results-table")).to_contain_text("(n 1)", timeout=20000)
    for chart in PLOTS:
        plot_drawn(page, chart)
        box = page.locator(f"{chart} figure").bounding_box()
        svg = page.locator(f"{chart} svg.cluelab-chart-svg").bounding_box()
        assert svg["x"] >= box["x"] - 1 and svg["x"] + svg["width"] <= box["x"] + box["width"] + 1
        for label in page.locator(f"{chart} text.label").all():  # no label cut at the sides
            lb = label.bounding_box()
            assert lb["x"] >= box["x"] - 1 and lb["x"] + lb["width"] <= box["x"] + box["width"] + 1
    # the subtask chart: 16 rows of 3 bars, text no smaller than 10 px on screen
    rows = bar_boxes(page, "#results-breakdown")
    assert len(rows) == 48 and min(h for *_, h in rows) >= 8
    page.locator("#results-breakdown").scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / "results-subtasks.png"), full_page=True)
    import shutil
    shutil.copy(tmp_path / "results-subtasks.png", "/tmp/results-subtasks.png")


@pytest.fixture
def two_dataset_server(tmp_path):
    """Runs one-a and one-b on dataset one, two-c on dataset two: no item shared across."""
    items = [{**ITEMS[i], "id": f"{ds}/{i}"} for ds in ("one", "two") for i in range(2)]
    server = scored_server(tmp_path / "two.db", items, {
        f"{ds}-{run}": ({f"{ds}/{i}": "Answer: C" for i in range(2)}, {"model": f"m-{run}"})
        for ds, run in (("one", "a"), ("one", "b"), ("two", "c"))})
    yield server
    server.stop()


def test_a_refusal_empties_the_download_and_stays_on_the_page(two_dataset_server, page):
    """Export, then add a run of another dataset: the export is refused, the old file is
    gone (it was for other runs) and the line beside Export says why; Show results is
    refused too, the table and charts go, and the reason stays until the runs change."""
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(two_dataset_server.url + "/results")
    choose_runs(page, "id one-a", "id one-b")
    pick(page, "results-format", "csv")
    page.click("#results-export")
    download = page.locator("#results-file")
    expect(download).to_contain_text("cluelab-main-general-one-2-runs", timeout=20000)
    page.click("#results-show")
    expect(page.locator("#results-table")).to_contain_text("m-a · CoT", timeout=20000)
    plot_drawn(page, "#results-breakdown")

    choose_runs(page, "id two-c")
    page.click("#results-export")
    status = page.locator("#results-export-status")
    expect(status).to_contain_text("Not exported: these runs share no item", timeout=20000)
    expect(download).not_to_contain_text("cluelab-main")
    expect(download.locator("a")).to_have_count(0)
    page.click("#results-show")
    notice = page.locator("#results-empty")
    expect(notice).to_contain_text("No results shown: these runs share no item",
                                   timeout=20000)
    expect(notice).to_contain_text("m-c · CoT (3 items)".replace("3", "2"))
    expect(page.locator("#results-table")).to_be_hidden()
    expect(page.locator("#results-breakdown svg")).to_have_count(0)
    page.wait_for_timeout(1500)                       # a toast would have gone by now
    expect(notice).to_contain_text("these runs share no item")
    expect(status).to_contain_text("Not exported")

    page.locator("#results-runs .token .token-remove").last.click()   # the choice changes
    expect(notice).to_contain_text("No results shown yet", timeout=20000)
    expect(status).not_to_contain_text("Not exported")


@pytest.fixture
def domains_server(tmp_path):
    """10 domains with long names, 3 runs each right on a different share of them: the
    correlation heatmap has 10 columns (it was wider than its column at 1400x900)."""
    items = [{"id": f"d/{i}", "answer_type": "multiple_choice", "answer": "C",
              "domain": f"Domain {i // 2:02d}: a long descriptive name", "subtask": "s"}
             for i in range(20)]
    server = scored_server(tmp_path / "domains.db", items, {
        f"run-{k}": ({f"d/{i}": "Answer: C" if (i * (k + 2)) % 5 < 3 else "Answer: A"
                      for i in range(20)}, {"model": f"model-{k}"}) for k in range(3)})
    yield server
    server.stop()


def test_the_correlation_heatmap_fits_its_column(domains_server, page, tmp_path):
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(domains_server.url + "/results")
    choose_runs(page, *(f"id run-{k}" for k in range(3)))
    page.click("#results-show")
    heatmap = page.locator("#results-correlation table.cluelab-heatmap")
    # its title sits above the table (scoring/heatmaps.py: it wraps there, not cut)
    expect(page.locator("#results-correlation .cluelab-heatmap-title")).to_contain_text(
        "Pearson's r between domains over 3 runs", timeout=20000)
    column = page.locator("#results-correlation").bounding_box()
    box = heatmap.bounding_box()
    assert box["x"] >= column["x"] - 1 and box["x"] + box["width"] <= \
        column["x"] + column["width"] + 1, (box, column)
    scroll = page.eval_on_selector("#results-correlation .cluelab-heatmap-scroll",
                                   "e => [e.scrollWidth, e.clientWidth]")
    assert scroll[0] <= scroll[1], scroll                   # nothing hidden to the right
    heads = heatmap.locator("tr").first.locator("th")
    expect(heads).to_have_count(11)
    last = heads.nth(10)            # too long for its column: numbered, in full on hover
    assert last.get_attribute("title") == "Domain 09: a long descriptive name"
    assert last.inner_text().strip() == "10"
    expect(heatmap.locator("tr").nth(10).locator("th")).to_have_text(
        "10. Domain 09: a long descriptive name")
    page.locator("#results-correlation").scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / "results-correlation.png"))   # to look at




def test_every_label_and_reading_choice_is_whole_at_1400(results_server, page):
    """No label or chosen value cut at 1400x900: the samples rule read "majority vote
    (self-consi", the extraction "ClueLab's extraction (defa"."""
    from ui.results_handlers import EXTRACTION_CHOICES, SAMPLE_RULE_CHOICES

    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(results_server.url + "/results")
    expect(page.locator("#results-empty")).to_contain_text("No results shown yet",
                                                          timeout=20000)
    assert cut_text(page) == []
    for elem_id, choices in (("results-samples", SAMPLE_RULE_CHOICES),
                             ("results-extraction", EXTRACTION_CHOICES)):
        for label, _ in choices:
            pick(page, elem_id, label)
            expect(page.locator(f"#{elem_id} input")).to_have_value(label)
            assert cut_text(page) == [], label


@pytest.fixture
def injection_server(tmp_path):
    """A GT-clue run and a no-clue run of one model on the same 14 items, both right on 9:
    64.3 each (the heatmap that was a 200x15 strip reading "64.3 64.3 64.3")."""
    items = [{"id": f"i/{i:02d}", "answer_type": "multiple_choice", "answer": "C",
              "domain": "Street", "subtask": "s"} for i in range(14)]
    replies = {f"i/{i:02d}": "Answer: C" if i < 9 else "Answer: A" for i in range(14)}
    server = scored_server(tmp_path / "injection.db", items, {
        "gt-run": (replies, {"model": "m", "clues": "gt", "setting": "clue_guided"}),
        "none-run": (replies, {"model": "m", "setting": "clue_guided"})})
    yield server
    server.stop()


def rgb(text: str) -> tuple:
    return tuple(int(v) for v in text[text.index("(") + 1:text.index(")")].split(",")[:3])


def test_the_clue_injection_heatmap_is_legible_at_1400(injection_server, page, tmp_path):
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(injection_server.url + "/results")
    choose_runs(page, "id gt-run", "id none-run")
    page.click("#results-show")
    heatmap = page.locator("#results-injection table.cluelab-heatmap")
    expect(heatmap).to_contain_text("64.29 (+0.00)", timeout=20000)   # as its table
    heatmap.scroll_into_view_if_needed()
    box = heatmap.bounding_box()
    assert box["width"] >= 300 and box["height"] >= 90, box       # was about 200 x 15
    cells = heatmap.locator("td")
    expect(cells).to_have_count(2)
    for cell in cells.all():
        found = cell.bounding_box()
        assert found["width"] >= 80 and found["height"] >= 36, found
        style = cell.evaluate("c => { const s = getComputedStyle(c); return "
                              "[s.backgroundColor, s.color, s.fontSize]; }")
        background, text, size = rgb(style[0]), rgb(style[1]), float(style[2][:-2])
        assert background != (255, 255, 255) and min(background) < 200, style   # coloured
        assert size >= 13 and sum(abs(a - b) for a, b in zip(background, text)) > 200
    heads = heatmap.locator("th")
    for name in ("GT", "No Clue", "m · Clue-guided CoT (14 items)"):
        head = heads.filter(has_text=name).first
        expect(head).to_be_visible()
        assert head.bounding_box()["height"] >= 14
    expect(page.locator("#results-injection .cluelab-heatmap-legend-marks")).to_have_text(
        "556575")                      # 20 points about the cells (resfix26c), not 64.3 x 3
    column = page.locator("#results-injection").bounding_box()
    assert box["x"] + box["width"] <= column["x"] + column["width"] + 1
    page.screenshot(path=str(tmp_path / "results-injection.png"))   # to look at
