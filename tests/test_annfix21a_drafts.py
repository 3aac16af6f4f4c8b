"""Annotate-page draft defects (an annotator's report, round 21), on the page's own handlers
(ui.server.build_app's events called as plain functions on a real store):

1. Two tabs of one account: tab 2 was offered the two-tab choice; tab 1 then saved (its
   draft dropped). "Open the other tab's draft" in tab 2 opened the saved version: tab 2's
   typed GT reasoning was gone, and nothing said so. Now it keeps tab 2's edits as the
   account's draft and says the other draft is gone (a Save then shows the conflict panel);
   so does the recheck as the tab comes back into view (ui/draft_gone.py).
2. A revision comment typed with no other edit wrote no draft (a draft of nothing is
   dropped), and was lost at a reload. It is kept as a draft of the item as saved now.

The page itself: tests/browser/test_annfix21a_annotate.py."""
from __future__ import annotations

import gradio as gr
import pytest

from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui.annotate_drafts import draft_key
from ui.annotate_render import Renderer
from ui.editor_handlers import COMMENT_KEPT, FIELDS, EditorHandlers
from ui.server import build_app

TAB1 = gr.Request(headers={"origin": "http://127.0.0.1:7860"}, session_hash="tab-1")
TAB2 = gr.Request(headers={"origin": "http://127.0.0.1:7860"}, session_hash="tab-2")
A = "ui/alpha"
REASONING = "Typed in tab 2: the sign over the door reads EXIT 12."
COMMENT = "checked the sign against the map"


@pytest.fixture
def fns(ui_store):  # noqa: F811
    return {fn.api_name: fn for fn in build_app(ui_store).fns.values()}


def out(values: list, name: str):
    return values[Renderer.OUTPUTS.index(name)]


def skipped(value) -> bool:
    return isinstance(value, dict) and value == {"__type__": "update"}


def typed(editor, work, **changes) -> list:
    """The form's values and the annotator's, as the page sends them, with `changes`."""
    form = {**editor.form_values(work["item"]), **changes}
    return [*(form.get(field) for field in FIELDS), None]


def opened(fns, tab) -> dict:
    return out(fns["load_item"].fn(A, None, [], [], [], tab), "work")


def two_tabs_one_saved(ui_store, fns):  # noqa: F811
    """Tab 1 edits the question, tab 2 the GT reasoning (offered the choice), tab 1 saves:
    (tab 2's work, its form values, its draft line)."""
    editor = EditorHandlers(ui_store)
    work1, work2 = opened(fns, TAB1), opened(fns, TAB2)
    autosave = fns["autosave_draft"].fn
    mine = typed(editor, work1, question="Which exit is nearest, from tab 1?")
    autosave(TAB1, draft_key(work1), work1, "", *mine, "")
    values = typed(editor, work2, gt_reasoning=REASONING)
    line, choice, _ = autosave(TAB2, draft_key(work2), work2, "", *values, "")
    assert "Open it or keep this tab's edits" in line and choice["visible"] is True
    saved = fns["save_item"].fn(TAB1, work1, *mine, "", [])
    assert "version 2" in out(saved, "save_message")
    assert ui_store.get_draft("local", A) is None          # tab 1's save dropped it
    return work2, values, line


def test_opening_the_other_tabs_draft_once_it_is_saved_keeps_this_tabs_edits(
        ui_store, fns):  # noqa: F811
    work2, values, _ = two_tabs_one_saved(ui_store, fns)
    shown = fns["open_other_tabs_draft"].fn(TAB2, draft_key(work2), work2, *values, "")
    line = out(shown, "draft_state").replace("\\", "")
    assert "The other tab's draft is gone (version 2 was saved by you" in line
    assert "unsaved edits of GT reasoning (draft kept)" in line
    assert out(shown, "draft_choice")["visible"] is False
    # the form is left as it is: the typed GT reasoning is not replaced by the saved item
    assert skipped(out(shown, "gt_reasoning")) and skipped(out(shown, "work"))
    draft = ui_store.get_draft("local", A)
    assert draft["data"]["gt_reasoning"] == REASONING and draft["base_version"] == 1
    assert draft["session"] == "tab-2"
    # a later Save shows the conflict panel as usual (the item is at version 2)
    _, outcome = EditorHandlers(ui_store).save(
        work2, dict(zip(FIELDS, values)), None, "", "local", session="tab-2")
    assert outcome["kind"] == "conflict"


def test_coming_back_to_the_tab_rechecks_the_choice_and_keeps_its_edits(
        ui_store, fns):  # noqa: F811
    work2, values, line = two_tabs_one_saved(ui_store, fns)
    new_line, choice = fns["recheck_draft_on_return"].fn(TAB2, draft_key(work2), work2, line,
                                                         *values, "")
    assert "The other tab's draft is gone" in new_line.replace("\\", "")
    assert choice["visible"] is False
    assert ui_store.get_draft("local", A)["data"]["gt_reasoning"] == REASONING


def test_the_other_tabs_draft_still_there_is_opened(ui_store, fns):  # noqa: F811
    editor = EditorHandlers(ui_store)
    work1, work2 = opened(fns, TAB1), opened(fns, TAB2)
    autosave = fns["autosave_draft"].fn
    autosave(TAB1, draft_key(work1), work1, "", *typed(editor, work1, question="Q1?"), "")
    values = typed(editor, work2, gt_reasoning=REASONING)
    line = autosave(TAB2, draft_key(work2), work2, "", *values, "")[0]
    assert skipped(fns["recheck_draft_on_return"].fn(TAB2, draft_key(work2), work2, line,
                                                     *values, "")[1])
    shown = fns["open_other_tabs_draft"].fn(TAB2, draft_key(work2), work2, *values, "")
    assert out(shown, "question") == "Q1?"


def test_a_comment_alone_is_kept_as_a_draft_and_comes_back(ui_store, fns):  # noqa: F811
    editor = EditorHandlers(ui_store)
    work = opened(fns, TAB1)
    values = typed(editor, work)
    line = fns["autosave_draft"].fn(TAB1, draft_key(work), work, "", *values, COMMENT)[0]
    assert line == COMMENT_KEPT
    draft = ui_store.get_draft("local", A)
    assert draft is not None and draft["comment"] == COMMENT
    assert draft["data"]["question"] == work["saved"]["question"]
    shown = fns["load_item"].fn(A, work, [], [], [], TAB1)        # a reload
    assert out(shown, "comment") == COMMENT
    assert out(shown, "draft_state") == COMMENT_KEPT
    assert "Restored your unsaved draft and its revision comment" in out(shown, "notice")
    # Save with no edit of the item: nothing to save, and the comment's draft goes
    reopened = out(shown, "work")
    saved = fns["save_item"].fn(TAB1, reopened, *typed(editor, reopened), COMMENT, [])
    assert "Nothing to save" in out(saved, "save_message")
    assert out(saved, "draft_state") == ""
    assert ui_store.get_draft("local", A) is None
    assert [h["version"] for h in ui_store.history(A)] == [1]
    # the comment emptied: no draft; typed again then discarded: gone
    assert fns["autosave_draft"].fn(TAB1, draft_key(reopened), reopened, "",
                                    *typed(editor, reopened), "  ")[0] == ""
    assert ui_store.get_draft("local", A) is None
    fns["autosave_draft"].fn(TAB1, draft_key(reopened), reopened, "", *typed(editor, reopened),
                             COMMENT)
    assert ui_store.get_draft("local", A)["comment"] == COMMENT
    discarded = fns["discard_draft"].fn(reopened, TAB1)
    assert ui_store.get_draft("local", A) is None and out(discarded, "comment") == ""


def test_a_late_autosave_of_this_tab_is_not_the_other_tabs_draft(ui_store, fns):  # noqa: F811
    """Tab 2's last keys' autosave, sent before tab 1 saved, ran after it: there being no
    draft, it kept tab 2's edits, the choice still shown. Opening "the other tab's draft"
    then says it is gone (it opened tab 2's own draft as if it were the other's)."""
    work2, values, line = two_tabs_one_saved(ui_store, fns)
    kept = fns["autosave_draft"].fn(TAB2, draft_key(work2), work2, "", *values, "")[0]
    assert kept == "unsaved edits of GT reasoning (draft kept)"
    # a return to the tab: the choice has nothing to offer any more, and goes
    assert fns["recheck_draft_on_return"].fn(TAB2, draft_key(work2), work2, kept, *values,
                                             "")[1]["visible"] is False
    shown = fns["open_other_tabs_draft"].fn(TAB2, draft_key(work2), work2, *values, "")
    assert "The other tab's draft is gone (version 2 was saved by you" in \
        out(shown, "draft_state").replace("\\", "")
    assert skipped(out(shown, "gt_reasoning"))
    assert ui_store.get_draft("local", A)["data"]["gt_reasoning"] == REASONING
