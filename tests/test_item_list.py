"""The Annotate page's item list (ui/browser_handlers.py, ui/browser_wiring.py), tested on a
real SQLite store: it shows the page holding the open item (after Next onto the 101st item
it stayed on page 1), takes back the filters a browser kept only as far as they still
apply, and a search box left unchanged applies nothing again."""
import json
from types import SimpleNamespace

import gradio as gr
import pytest

from store import Store
from tests.live_server import build_ui_db
from ui.browser_handlers import ALL, PAGE_ROWS, BrowserHandlers, open_row, page_holding
from ui.browser_wiring import ItemList

BULK = ["bulk", ALL, ALL, ALL, "all", ""]          # dataset bulk, nothing else filtered


@pytest.fixture
def long_list(tmp_path):
    """build_ui_db's three items and PAGE_ROWS + 30 of dataset bulk: two pages."""
    build_ui_db(tmp_path / "ui.db")
    store = Store.open(tmp_path / "ui.db")
    for n in range(PAGE_ROWS + 30):
        store.create_item({"id": f"bulk/{n:04d}", "dataset": "bulk", "question": f"Q{n}?",
                           "answer_type": "open", "answer": "x", "images": [], "clues": []},
                          "test")
    yield store
    store.close()


def item_list(store) -> ItemList:
    """An ItemList whose handlers are called directly (no page: no components)."""
    names = ("dataset domain subtask status_filter flagged search items count nav_ids page "
             "shown open_row refresh").split()
    return ItemList(store, SimpleNamespace(**dict.fromkeys(names)), None)


def test_a_search_shows_the_page_holding_the_open_item(long_list):
    browser = BrowserHandlers(long_list)
    ids = browser.search(*BULK)[2]
    target = ids[PAGE_ROWS + 5]
    rows, count, ids, page = browser.search(*BULK, 1, target)
    assert page == 2 and rows[5][0] == target and "page 2 of 2" in count
    assert browser.search(*BULK, 1, "ui/alpha")[3] == 1     # filtered out: the page asked for
    assert page_holding(ids, target) == 2 and page_holding(ids, "ui/alpha") is None
    assert open_row(ids, 2, target) == '<span data-row="5"></span>'
    assert open_row(ids, 1, target) == ""                   # not on the page shown


def test_next_onto_the_next_page_turns_the_list_to_it(long_list):
    listed = item_list(long_list)
    rows, count, ids, page, shown, row = listed.listing(BULK, 1)
    assert page == 1 and shown == {"filters": BULK, "page": 1} and row == ""
    # Next from the last row of page 1
    out = listed.after_open(long_list.get_item(ids[PAGE_ROWS]), rows, ids, shown)
    turned_rows, count, turned_ids, page, shown_now, row = out
    assert page == 2 and turned_rows[0][0] == ids[PAGE_ROWS] and "page 2 of 2" in count
    assert shown_now == {"filters": BULK, "page": 2} and row == '<span data-row="0"></span>'
    # an item on the page shown: the list is not resent, only where its row is
    out = listed.after_open(long_list.get_item(ids[3]), rows, ids, shown)
    assert out[:5] == [gr.skip()] * 5 and out[5] == '<span data-row="3"></span>'
    # an item the filters leave out (opened by its id): the list stays as it is
    out = listed.after_open(long_list.get_item("ui/alpha"), rows, ids, shown)
    assert out[:5] == [gr.skip()] * 5 and out[5] == ""


def test_a_save_and_a_reload_show_the_page_holding_the_item(long_list):
    listed = item_list(long_list)
    ids = listed.listing(BULK)[2]
    work = {"item": {"id": ids[PAGE_ROWS + 1]}}
    # a save: the list was turned back to page 1 by hand, and shows the item's page again
    after_save = listed.following({"filters": BULK, "page": 1}, work)
    assert after_save[3] == 2 and after_save[5] == '<span data-row="1"></span>'
    # no list drawn yet (a script): every item, at the item's page
    assert listed.following(None, work)[3] == 2
    # a filter applied: its first page when the item is not among its matches
    assert listed.listing(["ui", ALL, ALL, ALL, "all", ""], 1, ids[PAGE_ROWS], True)[3] == 1


def test_kept_filters_are_taken_back_only_as_far_as_they_apply(long_list):
    browser = BrowserHandlers(long_list)
    assert browser.kept_filters("bulk", ALL, ALL, "draft", "flagged", "Q1") == \
        ["bulk", ALL, ALL, "draft", "flagged", "Q1"]
    # a dataset deleted since, a status no item has, junk: not applied
    assert browser.kept_filters("gone", None, "nope", "released", "maybe", 42) == \
        [ALL, ALL, ALL, ALL, "all", ""]


def test_kept_filters_arrive_as_json_and_anything_else_is_no_filter(long_list):
    """The page sends the kept filters as JSON in a hidden field (the filters' dropdowns
    refused a kept status before the list offered it: the page came up without its list
    and form); what is not six texts is no filter, never an error."""
    browser = BrowserHandlers(long_list)
    kept = json.dumps(["bulk", ALL, ALL, "draft", "flagged", "Q1"])
    assert browser.parse_kept(kept) == ["bulk", ALL, ALL, "draft", "flagged", "Q1"]
    none = [ALL, ALL, ALL, ALL, "all", ""]
    for junk in ("", None, "{", json.dumps(["bulk"]), json.dumps([1, 2, 3, 4, 5, 6]),
                 json.dumps({"a": 1}), json.dumps(["x" * 5000] * 6), 42):
        assert browser.parse_kept(junk) == none, junk


def test_a_search_left_unchanged_is_not_applied_again():
    same = BrowserHandlers.same_filters
    shown = {"filters": [None, ALL, "", ALL, "all", "bus"], "page": 2}
    assert same([ALL, ALL, ALL, ALL, "all", " bus "], shown)
    assert not same([ALL, ALL, ALL, ALL, "all", ""], shown)         # cleared: applied
    assert not same([ALL, ALL, ALL, ALL, "flagged", "bus"], shown)
    assert not same([ALL, ALL, ALL, ALL, "all", "bus"], None)        # nothing drawn yet


def test_refresh_shows_what_others_imported_since_the_list_was_drawn(long_list):
    """The list and its Dataset filter were drawn once per page load: another annotator's
    import (or delete) showed only after a reload."""
    listed = item_list(long_list)
    rows, count, ids, page, shown, _ = listed.listing(BULK, 2)
    long_list.create_item({"id": "fresh/0001", "dataset": "fresh", "question": "Q?",
                           "answer_type": "open", "answer": "x", "images": [], "clues": []},
                          "bob")
    long_list.create_item({"id": "bulk/zzzz", "dataset": "bulk", "question": "Q?",
                           "answer_type": "open", "answer": "x", "images": [], "clues": []},
                          "bob")
    out = listed.refreshed(*BULK, shown, {"item": {"id": ids[0]}})
    rows, count, ids_now, page, shown_now = out[:5]
    assert page == 2 and shown_now == {"filters": BULK, "page": 2}      # its page kept
    assert "bulk/zzzz" in ids_now and len(ids_now) == len(ids) + 1
    dataset_choices = out[6]["choices"]
    assert "fresh" in dataset_choices and dataset_choices[0] == ALL
    # a filter whose dataset is gone keeps its value among the choices
    gone = listed.choices(["gone", ALL, ALL, ALL])[0]["choices"]
    assert gone[-1] == "gone"
    assert "fresh" in listed.one_choice("dataset")(ALL)["choices"]


def test_a_search_past_its_limit_is_refused_in_words_and_kept_as_none(long_list):
    """A 60,000-character search made SQLite refuse its LIKE pattern: a server error, and a
    21-line traceback in the log per call. Now the store refuses it naming the limit, the
    list stays as it was, and a browser that kept one gets no search."""
    from domain.limits import MAX_SEARCH
    from store.errors import TooLargeError
    huge = "a" * 60_000
    with pytest.raises(TooLargeError, match="The search text is 60,000 characters; the limit"):
        long_list.item_ids(text=huge)
    with pytest.raises(gr.Error, match=f"the limit is {MAX_SEARCH:,}: the list is as it was"):
        item_list(long_list).listing(["bulk", ALL, ALL, ALL, "all", huge])
    assert len(long_list.item_ids(text="b" * MAX_SEARCH)) == 0       # at the limit: searched
    browser = BrowserHandlers(long_list)
    assert browser.parse_kept(json.dumps(["bulk", ALL, ALL, ALL, "all",
                                          "a" * (MAX_SEARCH + 1)]))[-1] == ""
