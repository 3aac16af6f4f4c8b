"""A text-direction control in imported text reorders nothing outside its table cell, and a
read-only table shows it ("⟨U+202E⟩") instead of obeying it (ui/table_cells.py). Why: an
item whose question held U+202E was listed as "Which won tixe" ("Which \\u202eexit now");
stored text is kept as it was. Real Chromium, the real page: the characters' boxes (Range
rects) say where each is drawn."""
import pytest
from playwright.sync_api import expect

from tests.browser.test_annotate_flow import open_item, show_list
from tests.live_server import LiveServer, build_ui_db

RLO = "\u202e"
QUESTION = f"Which {RLO}exit now"

# Each character of a cell's text with the left edge of its box, in stored order (the
# controls, drawn as nothing, left out).
CHARACTER_LEFTS = """(cell) => {
    const span = cell.querySelector('span.text') || cell;
    const walker = document.createTreeWalker(span, NodeFilter.SHOW_TEXT);
    const out = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (let i = 0; i < node.data.length; i++) {
            const range = document.createRange();
            range.setStart(node, i); range.setEnd(node, i + 1);
            const rect = range.getBoundingClientRect();
            if (rect.width > 0 && node.data[i] !== ' ') out.push([node.data[i], rect.left]);
        }
    }
    return out;
}"""


def left_to_right(cell) -> str:
    """The cell's characters in the order they are drawn, left to right (one line)."""
    return "".join(ch for ch, _ in sorted(cell.evaluate(CHARACTER_LEFTS), key=lambda c: c[1]))


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    from store import Store

    db = tmp_path_factory.mktemp("bidicells") / "b.db"
    build_ui_db(db)
    store = Store.open(db)
    base = store.get_item("ui/alpha")
    store.create_item({**base, "id": "ui/rlo", "question": QUESTION,
                       "clues": [{"text": f"tiny cat {RLO}evil", "reasoning": "signs name exits",
                                  "boxes": []}]}, "fixture")
    store.close()
    server = LiveServer(db, "--no-auth")
    server.db = db
    yield server
    server.stop()


def test_a_listed_question_shows_its_control_and_reads_in_order(srv, page):
    open_item(page, srv.url, "ui/rlo")
    show_list(page)
    cell = page.locator("#item-list [role=gridcell]", has_text="now").first
    expect(cell).to_contain_text("⟨U+202E⟩", timeout=20000)
    assert left_to_right(cell) == "Which⟨U+202E⟩exitnow"
    status = page.locator("#item-list [role=gridcell][data-col='1']").last
    assert left_to_right(status) == "draft"
    assert cell.evaluate("c => getComputedStyle(c.querySelector('span.text')).unicodeBidi") \
        == "isolate"


def test_the_clue_tables_neighbouring_cell_reads_in_order(srv, page):
    open_item(page, srv.url, "ui/rlo")
    table = page.locator("#clue-table")
    expect(table.locator("[data-testid='cell-0-2']")).to_contain_text("signs", timeout=20000)
    assert left_to_right(table.locator("[data-testid='cell-0-2']")) == "signsnameexits"
    assert left_to_right(table.locator("[data-testid='cell-0-0']")) == "clue1"
    # the editable cell keeps the stored text: a save writes back what it shows
    assert RLO in table.locator("[data-testid='cell-0-1'] span.text").inner_text()
    assert table.locator("[data-testid='cell-0-1']").evaluate(
        "c => getComputedStyle(c.querySelector('span.text')).unicodeBidi") == "isolate"


def test_the_stored_text_is_unchanged(srv, page):
    from store import Store

    open_item(page, srv.url, "ui/rlo")
    store = Store.open(srv.db)
    try:
        item = store.get_item("ui/rlo")
    finally:
        store.close()
    assert item["question"] == QUESTION and item["clues"][0]["text"] == f"tiny cat {RLO}evil"
