"""An annotator's report on the Annotate page and its History, tested on the handlers (and
the page's own events, ui.server.build_app's, called as plain functions on a real store):
a removed clue diffed as one removal, the Undo after a delete naming its item, a
colleague's draft notice read again on Refresh, the review line gone after Diff, "the only
item" for a list of one, the header of a draft on an older version."""
from __future__ import annotations

import gradio as gr
import pytest

from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from domain.alignment import pairs
from ui.annotate_render import Renderer
from ui.annotate_steps import end_line
from ui.browser_handlers import BrowserHandlers
from ui.editor_handlers import EditorHandlers
from ui.history_handlers import HistoryHandlers
from ui.server import build_app

PAGE = gr.Request(headers={"origin": "http://127.0.0.1:7860"})     # a page of this site


@pytest.fixture
def handlers(ui_store):
    return {fn.api_name: fn.fn for fn in build_app(ui_store).fns.values()}


def out(values: list, name: str):
    return values[Renderer.OUTPUTS.index(name)]


def clue(text):
    return {"text": text, "reasoning": f"why {text}", "boxes": []}


def test_removing_clue_1_of_3_reads_as_one_removal_in_history(ui_store):
    """It read "clue 1 rewritten, clue 2 rewritten, clue 3 removed"."""
    item = ui_store.get_item("ui/alpha")
    three = [clue("red door"), clue("blue sign"), clue("bus stop")]
    a = ui_store.save_item({**item, "clues": three}, item["version"], "ann")
    item = ui_store.get_item("ui/alpha")
    b = ui_store.save_item({**item, "clues": three[1:]}, item["version"], "ann")
    rows = HistoryHandlers(ui_store).diff("ui/alpha", a, b)
    assert [r[0] for r in rows] == ["clue 1"]
    assert rows[0][1].startswith("red door") and rows[0][2] == ""
    # an edit of a clue that moved up is named by both places
    item = ui_store.get_item("ui/alpha")
    c = ui_store.save_item({**item, "clues": [three[1], {**three[2], "text": "bus stop 12"}]},
                           item["version"], "ann")
    rows = HistoryHandlers(ui_store).diff("ui/alpha", a, c)
    assert [r[0] for r in rows] == ["clue 1", "clue 3 (now 2) text"]
    # an option removed is one removal too (options by their label)
    gamma = ui_store.get_item("ui/gamma")
    v = ui_store.save_item({**gamma, "options": gamma["options"][1:], "answer": "B"},
                           gamma["version"], "ann")
    assert [r[0] for r in HistoryHandlers(ui_store).diff("ui/gamma", 1, v)] == [
        "option A", "answer"]            # by its label, as its parts are ("option C text")
    # clue 1 removed and clue 2 edited: a removal and an edit of clue 2
    assert pairs([clue("red door"), clue("blue sign on the wall"), clue("x")],
                 [clue("blue sign on the left wall"), clue("x")]) == [(0, None), (1, 0), (2, 1)]


def test_the_undo_after_a_delete_names_the_item_it_brings_back(ui_store, handlers):
    """The next item opens after a delete; "Undo delete" stayed over it (and over any item
    opened since), and restored the deleted one while the user looked at another."""
    work = EditorHandlers(ui_store).load("ui/beta", "local")
    ids = list(ui_store.item_ids())
    shown = handlers["delete_item"](work, "", ids, PAGE)
    assert out(shown, "item_id") != "ui/beta"
    message, deleted, button = shown[-4:-1]        # the last output: the menu, closed
    assert deleted == "ui/beta" and "Deleted ui/beta" in message
    assert button["visible"] is True and button["value"] == "Undo delete of ui/beta"


def test_a_colleagues_draft_notice_goes_on_refresh_once_they_saved(ui_store, handlers):
    editor = EditorHandlers(ui_store)
    theirs = editor.load("ui/beta", "bob")
    form = editor.form_values(theirs["item"]) | {"question": "Bob's?"}
    editor.autosave(theirs, form, None, "bob", "tab")
    mine = editor.load("ui/beta", "local")
    assert "by bob" in mine["notice"]
    assert "by bob" in handlers["refresh_notice"](mine, PAGE)
    editor.save(theirs, form, None, "", "bob", session="tab")
    notice = handlers["refresh_notice"](mine, PAGE)
    assert "bob" not in notice and "data-cl-delete" in notice


def test_the_review_line_goes_after_diff(ui_store, handlers):
    """"Reviewed version 2 …" or "the diff above shows what changed since version 1"
    stayed above the reviews after Diff showed another diff."""
    work = EditorHandlers(ui_store).load("ui/alpha", "local")
    reviewed = handlers["submit_review"](work, "revise", "more clues", PAGE)
    assert out(reviewed, "reviews").startswith("**")
    after = handlers["diff_revisions_reviews"](out(reviewed, "work"))
    assert not after.startswith("**") and "revise" in after


def test_the_end_of_a_list_of_one_is_the_only_item(ui_store):
    assert end_line("ui/a", 1, 1) == "ui/a is the only item the filters list."
    assert end_line("ui/a", -1, 3) == "ui/a is the first of the 3 items the filters list."
    count = BrowserHandlers(ui_store).search(None, None, None, None, "all", "signposted")[1]
    assert count == "1 of 3 items matches"
    ui_store.delete_item("ui/beta", "x", "")
    ui_store.delete_item("ui/gamma", "x", "")
    count = BrowserHandlers(ui_store).search(None, None, None, None, "all", "")[1]
    assert count == "1 of 1 item matches"


def test_the_header_of_a_draft_on_an_older_version_says_both(ui_store, handlers):
    """It said "version 2" over a draft on version 1."""
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/beta", "local")
    editor.autosave(work, editor.form_values(work["item"]) | {"question": "Mine?"}, None,
                    "local", "tab")
    saved = ui_store.get_item("ui/beta")
    ui_store.save_item({**saved, "question": "Theirs?"}, saved["version"], "bob")
    header = out(handlers["load_item"]("ui/beta", None, [], [], None, PAGE), "header")
    assert "draft on version 1; saved version 2" in header
    plain = out(handlers["load_item"]("ui/gamma", None, [], [], None, PAGE), "header")
    assert " · version 1 · " in plain
