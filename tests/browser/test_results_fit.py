"""The Results table at 1400x900 on DailyClue's own groups: every column title reads whole.

The columns shared the room equally: at 1400x900 "Daily Commonsense (n 5)" and "Scientific
Commonsense (n 3)" read "Daily Commonsens" and "Scientific Commonsens" (a word wider than its
114 px column is cut), and a breakdown by DailyClue's 16 subtasks left 41 px columns reading
"Ast / and / Geo" over cells cut to "100.0". Now each column is as wide as its longest word
(ui/table_fit.py): by domain every column is whole and in view; by subtask the table scrolls
sideways, every title and cell still whole, the model names pinned at the left."""
import pytest
from playwright.sync_api import expect

from tests.browser.fit_checks import cut_columns, lines, split_ns
from tests.browser.test_results_flow import choose_runs, pick, scored_server

TAXONOMY = {   # /work/shared/data/dailyclue/taxonomy_derived.json
    "Daily Commonsense": ["Home and Daily Life", "Transportation and Travel", "Food and Health",
                          "Planning and Consumption", "Information Literacy",
                          "Social Interaction and Customs", "Logical Reasoning"],
    "Location Identification": ["Location Identification"],
    "Scientific Commonsense": ["Physics", "Chemistry", "Biology", "Astronomy and Geography"],
    "Spatial Relationship": ["Motion and Occlusion", "Logical Spatial Relations",
                             "Static Spatial Relations", "Functional Spatial Relations"]}
ITEMS = [{"id": f"dc/{domain[:3]}-{k}-{i}", "answer_type": "multiple_choice", "answer": "C",
          "domain": domain, "subtask": subtask}
         for domain, subtasks in TAXONOMY.items() for k, subtask in enumerate(subtasks)
         for i in range(2)]
COLUMNS = ["Model", "Overall", "n", *[f"{d} (n\u00a0" for d in TAXONOMY], "Unparsed %", "Error %",
           "Unscored", "Judge"]

# the texts (titles and cells) of the table that a word wider than its column cuts
CUT_WORDS = """() => [...document.querySelectorAll(
    '#results-table .header-cell span.text, #results-table .virtual-row span.text')]
  .filter(t => t.scrollWidth > t.clientWidth + 1).map(t => t.textContent.trim())"""

# the lines each row's Overall cell takes ("23.08 [8.18, 50.26]" took three)
OVERALL_LINES = """() => [...document.querySelectorAll('#results-table .virtual-row')].map(r => {
  const text = r.querySelectorAll('.body-cell')[1].querySelector('span.text');
  return Math.round(text.getBoundingClientRect().height
                    / parseFloat(getComputedStyle(text).lineHeight)); })"""


@pytest.fixture
def dailyclue_server(tmp_path):
    replies = {i["id"]: "Answer: C" if n % 3 else "Answer: B" for n, i in enumerate(ITEMS)}
    server = scored_server(tmp_path / "dailyclue.db", ITEMS, {
        "r1": (replies, {"model": "qwen2.5-vl-72b-instruct", "clues": "gt"}),
        "r2": ({k: "Answer: A" for k in replies}, {"model": "qwen2.5-vl-72b-instruct"}),
        "r3": ({k: ["Answer: C"] * 3 for k in replies}, {"model": "gpt-4o-2024-08-06",
                                                         "samples": 3})})
    yield server
    server.stop()


def shown(page, server, by: str | None = None):
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(server.url + "/results")
    choose_runs(page, "id r1", "id r2", "id r3")
    if by:
        pick(page, "results-by", by)
    page.locator("#results-show").click()
    expect(page.locator("#results-table .virtual-row").first).to_be_visible(timeout=30000)
    page.mouse.move(0, 0)


def test_every_domain_title_reads_whole_and_every_column_is_in_view(dailyclue_server, page,
                                                                     tmp_path):
    shown(page, dailyclue_server)
    expect(page.locator("#results-table")).to_contain_text("Scientific Commonsense (n 8)")
    assert page.evaluate(CUT_WORDS) == []             # "Commonsens", cut to its column
    assert cut_columns(page, "results-table", COLUMNS) == []
    assert page.evaluate(OVERALL_LINES) == [1, 1, 1]           # each row's headline figure
    page.screenshot(path=str(tmp_path / "results-domains.png"))   # to look at


def test_sixteen_subtasks_scroll_sideways_every_title_whole_the_models_pinned(
        dailyclue_server, page, tmp_path):
    shown(page, dailyclue_server, "subtask")
    table = page.locator("#results-table")
    expect(table).to_contain_text("Social Interaction and Customs (n 2)")
    expect(table).to_contain_text("23 columns: scroll sideways, the model stays")  # its label
    assert page.evaluate(CUT_WORDS) == []             # "Ast / and / Geo", "100.0" before
    viewport = table.locator(".virtual-table-viewport")
    box = viewport.bounding_box()
    viewport.evaluate("v => { v.scrollLeft = v.scrollWidth; }")
    page.wait_for_timeout(300)
    heads = table.locator(".header-cell")
    judge, model = heads.last.bounding_box(), heads.first.bounding_box()
    assert heads.last.text_content().strip().startswith("Judge")
    assert judge["x"] + judge["width"] <= box["x"] + box["width"] + 1   # the last, reached
    assert abs(model["x"] - box["x"]) <= 1                               # Model stays
    first = table.locator(".virtual-row .body-cell.first-column").first
    expect(first).to_contain_text("gpt-4o-2024-08-06 · CoT · 3 samples")
    cell = first.bounding_box()
    assert abs(cell["x"] - box["x"]) <= 1 and cell["width"] >= 170
    page.screenshot(path=str(tmp_path / "results-subtasks-scrolled.png"))   # to look at


def test_by_subtask_each_title_keeps_its_n_and_each_cell_reads_on_one_line(dailyclue_server,
                                                                          page, tmp_path):
    """Twelve runs by DailyClue's 16 subtasks at 1400x900: "Home and Daily Life (n 2)" read
    "... Life (n" over "2)", and each subtask's cell "50.00 [9.45, 90.55]" took three lines
    (its column as wide as its longest word). The table scrolls sideways anyway: each cell
    now reads on one line, each title's n on one line."""
    shown(page, dailyclue_server, "subtask")
    table = page.locator("#results-table")
    expect(table).to_contain_text("Home and Daily Life (n 2)")
    assert split_ns(page, "results-table") == []
    cells = lines(page, "#results-table .virtual-row .body-cell:not(.first-column) span.text")
    assert cells and {text: n for text, n in cells.items() if n > 1} == {}
    page.screenshot(path=str(tmp_path / "results-subtasks-lines.png"))   # to look at
