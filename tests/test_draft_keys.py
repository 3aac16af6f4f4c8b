"""A draft is kept for the item its values were typed into (found by a context-free review):
keys typed into item A and Alt+→ pressed at once, the autosave of those keys ran after Next
had made B the session's item, and A's whole form was kept as B's draft (B's own draft, a
clue with a box, lost; Ctrl+S then saved A into B), while A lost its last keys.

Tested on the page's own handlers (ui.server.build_app's events called as plain functions
on a real store): the values carry the item and version they were typed into (`draft_key`),
values of another item or version are not kept, and Next keeps the keys typed before it as
the draft of the item left."""
from __future__ import annotations

import re

import gradio as gr
import pytest

from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui.annotate_drafts import draft_key
from ui.annotate_render import Renderer
from ui.editor_handlers import FIELDS, EditorHandlers
from ui.server import build_app

PAGE = gr.Request(headers={"origin": "http://127.0.0.1:7860"}, session_hash="tab-1")
A, B = "ui/alpha", "ui/beta"        # B follows A in the list


@pytest.fixture
def fns(ui_store):  # noqa: F811
    return {fn.api_name: fn for fn in build_app(ui_store).fns.values()}


def out(values: list, name: str):
    return values[Renderer.OUTPUTS.index(name)]


def typed(editor, work, **changes) -> list:
    """The form's values (and the annotator's) as the page sends them, with `changes`."""
    form = {**editor.form_values(work["item"]), **changes}
    return [*(form.get(field) for field in FIELDS), None]


@pytest.fixture
def b_draft(ui_store):  # noqa: F811
    """B's own draft: a new reasoning and a clue with a box, kept by an earlier tab."""
    saved = ui_store.get_item(B)
    box = {"image": saved["images"][0], "x0": 10, "y0": 10, "x1": 90, "y1": 60}
    draft = {**saved, "gt_reasoning": "B's own reasoning",
             "clues": [{"text": "B's clue", "reasoning": "", "boxes": [box]}]}
    ui_store.save_draft("local", B, saved["version"], draft)
    return ui_store.get_draft("local", B)


def test_an_autosave_of_item_a_that_runs_after_next_is_not_kept_as_bs_draft(
        ui_store, fns, b_draft):  # noqa: F811
    editor = EditorHandlers(ui_store)
    work_a = editor.load(A, "local")
    values_a = typed(editor, work_a, question="Which exit is signposted? QUICKNAV")
    work_b = editor.load(B, "local")       # the session's item once Next has run
    autosave = fns["autosave_draft"].fn
    line, choice, refusal = autosave(PAGE, draft_key(work_a), work_b, "", *values_a)
    assert ui_store.get_draft("local", B) == b_draft          # untouched, not even rewritten
    assert ui_store.get_draft("local", A) is None
    assert all(v == gr.skip() for v in (line, choice, refusal))   # B's save bar left alone
    # the box autosave and "keep this tab's edits" alike
    fns["autosave_boxes"].fn(PAGE, draft_key(work_a), work_b, "", *values_a)
    fns["keep_this_tabs_draft"].fn(PAGE, draft_key(work_a), work_b, *values_a)
    assert ui_store.get_draft("local", B) == b_draft
    # values sent without the item they were typed into are kept for no item
    autosave(PAGE, None, work_b, "", *typed(editor, work_b, question="Is it B?"))
    assert ui_store.get_draft("local", B) == b_draft
    # the values of B itself are B's draft, as before
    autosave(PAGE, draft_key(work_b), work_b, "", *typed(editor, work_b, question="Is it B?"))
    assert ui_store.get_draft("local", B)["data"]["question"] == "Is it B?"


def test_an_autosave_of_an_older_version_is_not_kept(ui_store, fns):  # noqa: F811
    """Keys typed before a save reaching the server after it: the version they were typed
    into is not the one open (saved since, with them)."""
    editor = EditorHandlers(ui_store)
    before = editor.load(A, "local")
    ui_store.save_item({**before["saved"], "question": "Saved meanwhile?"},
                       before["base_version"], "local")
    after = editor.load(A, "local")
    fns["autosave_draft"].fn(PAGE, draft_key(before), after, "",
                             *typed(editor, before, question="Half a wor"))
    assert ui_store.get_draft("local", A) is None


def test_next_keeps_the_keys_typed_just_before_it_as_the_draft_of_the_item_left(
        ui_store, fns, b_draft):  # noqa: F811
    editor = EditorHandlers(ui_store)
    work_a = editor.load(A, "local")
    ids = list(ui_store.item_ids())
    values_a = typed(editor, work_a, question="Which exit is signposted? QUICKNAV")
    opened = fns["next_item"].fn("", ids, work_a, [], None, "1", PAGE, draft_key(work_a),
                                 *values_a)
    assert out(opened, "item_id") == B
    assert out(opened, "draft_key") == {"item": B, "version": b_draft["base_version"]}
    assert ui_store.get_draft("local", A)["data"]["question"] == \
        "Which exit is signposted? QUICKNAV"
    assert out(opened, "gt_reasoning") == "B's own reasoning"
    assert ui_store.get_draft("local", B) == b_draft
    # Previous alike; values of another item than the one open are kept for none
    work_b = out(opened, "work")
    fns["prev_item"].fn("", ids, work_b, [], None, "1", PAGE, draft_key(work_a),
                        *typed(editor, work_a, question="Stale?"))
    assert ui_store.get_draft("local", B) == b_draft
    assert ui_store.get_draft("local", A)["data"]["question"] == \
        "Which exit is signposted? QUICKNAV"


def test_every_event_that_opens_an_item_sends_its_draft_key(ui_store, fns):  # noqa: F811
    """The key goes with the form: an event that shows another item or version (the
    header) without it would leave the page sending the old key with the new values."""
    header = fns["load_item"].outputs[Renderer.OUTPUTS.index("header")]
    key = fns["autosave_draft"].inputs[0]
    assert key.elem_id == "draft-key"
    missing = sorted(name for name, fn in fns.items()
                     if any(b is header for b in fn.outputs)
                     and not any(b is key for b in fn.outputs))
    assert not missing
    for name in ("autosave_draft", "autosave_boxes", "keep_this_tabs_draft", "next_item",
                 "prev_item"):
        assert key in fns[name].inputs, name


def test_next_stays_on_an_item_whose_draft_another_tab_changed(ui_store, fns, monkeypatch):  # noqa: F811
    """A Next sent while another tab's draft of the item left was newer (the page holds Next
    while it asks which to keep: assets/draft_choice_stay.js; this one was sent before the
    question came): it moved on, this tab's edits lost, and a toast gave the time raw
    ("at 2026-12-06T17:41:32Z"). Now the item stays, with the two choices, times as shown."""
    from ui import annotate_drafts
    said = []
    monkeypatch.setattr(annotate_drafts.messages, "warn", said.append)
    editor = EditorHandlers(ui_store)
    work_a = editor.load(A, "local")
    other = {**work_a["saved"], "question": "Typed in the other tab?"}
    ui_store.save_draft("local", A, work_a["base_version"], other, session="tab-2")
    values_a = typed(editor, work_a, question="Typed in this tab?")
    held = fns["next_item"].fn("", list(ui_store.item_ids()), work_a, [], None, "1", PAGE,
                               draft_key(work_a), *values_a)
    assert out(held, "item_id") == gr.skip() and out(held, "work") == gr.skip()
    assert out(held, "draft_choice") == gr.update(visible=True)
    line = out(held, "draft_state")
    assert line.startswith("Not opened") and " UTC" in line
    assert ui_store.get_draft("local", A)["data"]["question"] == "Typed in the other tab?"
    assert said and " UTC" in said[0] and not re.search(r"\dT\d", said[0])
