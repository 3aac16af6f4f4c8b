"""The browser's confirm before Remove clue / Remove option quotes the words it names without
their text-direction controls, in an isolate (assets/confirm.js `quoted`): a clue
"tiny cat \\u202eevil" asked 'Remove clue 1 "tiny cat ‮evil" with its reasoning…', the
rest of the question mirrored. Real Chromium, the real page."""
import pytest
from playwright.sync_api import expect

from tests.browser.test_annotate_flow import open_item
from tests.live_server import LiveServer, build_ui_db

RLO, FSI, PDI = "\u202e", "\u2068", "\u2069"


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    from store import Store

    db = tmp_path_factory.mktemp("confirm_isolated") / "c.db"
    build_ui_db(db)
    store = Store.open(db)
    base = store.get_item("ui/gamma")
    store.create_item({**base, "id": "ui/marks", "problems": [],
                       "options": [{"label": "A", "text": "blue", "image": None},
                                   {"label": "B", "text": f"red {RLO}ball", "image": None}],
                       "clues": [{"text": f"tiny cat {RLO}evil", "reasoning": "",
                                  "boxes": []}]}, "fixture")
    store.close()
    server = LiveServer(db, "--no-auth")
    yield server
    server.stop()


def test_the_confirm_questions_quote_the_words_isolated(srv, page):
    open_item(page, srv.url, "ui/marks")
    asked = []
    page.on("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.locator("#clue-table [data-testid='cell-0-1']").click()
    page.keyboard.press("Escape")
    page.click("#remove-clue")
    options = page.locator("#option-table")
    expect(options).to_contain_text("red", timeout=20000)
    options.locator("[data-testid='cell-1-1']").click()
    page.keyboard.press("Escape")
    page.click("#remove-option")
    page.wait_for_timeout(1000)
    assert len(asked) == 2, asked
    clue, option = asked
    assert clue == f'Remove clue 1 "{FSI}tiny cat evil{PDI}" with its reasoning and 0 boxes?'
    assert option.startswith(f'Remove option B "{FSI}red ball{PDI}"?'), option
    assert not any(RLO in text for text in asked)
