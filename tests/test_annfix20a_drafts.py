"""Two Annotate-page draft defects (an annotator's report, round 20):

1. The revision comment typed in the save bar was lost at a reload: the draft brought the
   GT reasoning back ("Restored your unsaved draft …") and the comment box came back empty,
   unsaid; a save after a refused one and a reopen saved an empty comment. It is kept with
   the draft now (store/drafts.py: a `comment` column), put back into the box with the
   draft, and dropped with it on save or discard.
2. A box whose clue picker was still open at a reload came back as a black box labelled
   "(pick a clue)" (the draft kept it). Such a box is not kept in the draft now, as the
   picker's Cancel drops it.

Tested on the page's own handlers (ui.server.build_app's events called as plain functions
on a real store); the page itself in tests/browser/test_annfix20a_reload.py."""
from __future__ import annotations

import gradio as gr
import pytest

from store import Store
from store.migrations import MIGRATIONS, apply_migrations
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui import editor_model as em
from ui.annotate_drafts import draft_key
from ui.annotate_render import Renderer
from ui.editor_handlers import FIELDS, EditorHandlers
from ui.server import build_app

PAGE = gr.Request(headers={"origin": "http://127.0.0.1:7860"}, session_hash="tab-1")
A = "ui/alpha"
COMMENT = "my long careful comment"


@pytest.fixture
def fns(ui_store):  # noqa: F811
    return {fn.api_name: fn for fn in build_app(ui_store).fns.values()}


def out(values: list, name: str):
    return values[Renderer.OUTPUTS.index(name)]


def typed(editor, work, annotator=None, **changes) -> list:
    """The form's values and the annotator's, as the page sends them, with `changes`."""
    form = {**editor.form_values(work["item"]), **changes}
    return [*(form.get(field) for field in FIELDS), annotator]


def reopened(fns, work) -> list:
    """The outputs of opening A again (a reload opens the item as this does)."""
    return fns["load_item"].fn(A, work, [], [], [], PAGE)


def test_the_comment_is_kept_with_the_draft_and_comes_back_into_its_box(
        ui_store, fns):  # noqa: F811
    editor = EditorHandlers(ui_store)
    work = editor.load(A, "local")
    values = typed(editor, work, gt_reasoning="A longer, careful reasoning.")
    autosave = fns["autosave_draft"].fn
    autosave(PAGE, draft_key(work), work, "", *values, "")
    # the comment typed after the edit: its own typing keeps it
    autosave(PAGE, draft_key(work), work, "", *values, COMMENT)
    assert ui_store.get_draft("local", A)["comment"] == COMMENT
    # an event that changes the item itself (it does not read the comment box) keeps it
    ui_store_draft = ui_store.get_draft("local", A)
    editor.keep_draft(work, {**ui_store_draft["data"], "question": "Which exit, then?"},
                      "local", "tab-1")
    assert ui_store.get_draft("local", A)["comment"] == COMMENT
    shown = reopened(fns, work)
    assert out(shown, "gt_reasoning") == "A longer, careful reasoning."
    assert out(shown, "comment") == COMMENT
    assert "Restored your unsaved draft and its revision comment" in out(shown, "notice")
    # shown once: the work the page keeps does not put it back at the next render
    assert "draft_comment" not in out(shown, "work")
    # saved with the comment as it came back, and the draft and its comment go
    opened = out(shown, "work")
    values = typed(editor, opened)
    saved = fns["save_item"].fn(PAGE, opened, *values, out(shown, "comment"), [])
    assert [h["comment"] for h in ui_store.history(A) if h["version"] == 2] == [COMMENT]
    assert ui_store.get_draft("local", A) is None
    assert out(saved, "comment") == ""
    assert out(reopened(fns, out(saved, "work")), "comment") == ""


def test_a_comment_kept_after_a_refused_save_is_saved_after_the_reopen(
        ui_store, fns):  # noqa: F811
    editor = EditorHandlers(ui_store)
    work = editor.load(A, "local")
    values = typed(editor, work, question="")     # refused: the question is empty
    fns["autosave_draft"].fn(PAGE, draft_key(work), work, "", *values, COMMENT)
    refused = fns["save_item"].fn(PAGE, work, *values, COMMENT, [])
    assert "Not saved" in str(out(refused, "save_message"))
    shown = reopened(fns, work)
    assert out(shown, "comment") == COMMENT
    opened = out(shown, "work")
    fns["save_item"].fn(PAGE, opened, *typed(editor, opened, question="Which exit?"),
                        out(shown, "comment"), [])
    assert [h["comment"] for h in ui_store.history(A) if h["version"] == 2] == [COMMENT]


def test_discard_drops_the_comment_with_the_draft(ui_store, fns):  # noqa: F811
    editor = EditorHandlers(ui_store)
    work = editor.load(A, "local")
    values = typed(editor, work, gt_reasoning="Edited.")
    fns["autosave_draft"].fn(PAGE, draft_key(work), work, "", *values, COMMENT)
    work = out(reopened(fns, work), "work")
    shown = fns["discard_draft"].fn(work, PAGE)
    assert out(shown, "comment") == ""
    assert ui_store.get_draft("local", A) is None
    ui_store.save_draft("local", A, work["base_version"], work["saved"])
    assert ui_store.get_draft("local", A)["comment"] == ""


def test_the_migration_adds_the_comment_to_drafts_kept_before(tmp_path):
    store = Store.open(tmp_path / "old.db")
    try:
        store.db.execute("ALTER TABLE drafts DROP COLUMN comment")
        store.db.execute("DELETE FROM migrations WHERE name = '0021_draft_comments'")
        store.db.execute("INSERT INTO drafts (user, item_id, base_version, data, updated_at) "
                         "VALUES ('ann', 'x/1', 1, '{}', '2026-01-01T00:00:00Z')")
        assert apply_migrations(store.db, MIGRATIONS) == ["0021_draft_comments"]
        assert store.get_draft("ann", "x/1")["comment"] == ""
    finally:
        store.close()


def test_a_box_whose_clue_was_never_picked_is_not_kept_in_the_draft(
        ui_store, fns):  # noqa: F811
    editor = EditorHandlers(ui_store)
    work = editor.load(A, "local")
    sha = work["item"]["images"][0]
    picking = {"label": em.PICK_LABEL, "color": (127, 127, 127),
               "xmin": 40, "ymin": 40, "xmax": 140, "ymax": 120}
    # the picker open over the new box: nothing to keep, nothing said kept
    line, _, _ = fns["autosave_draft"].fn(PAGE, draft_key(work), work, "",
                                          *typed(editor, work, {"boxes": [picking]}))
    assert line == ""
    assert ui_store.get_draft("local", A) is None
    # with another edit the draft is kept, without that box
    boxes = {"boxes": [picking, {**picking, "label": "", "xmin": 200, "xmax": 260}]}
    line, _, _ = fns["autosave_draft"].fn(
        PAGE, draft_key(work), work, "", *typed(editor, work, boxes, question="Which exit?"))
    assert "box" not in line, line
    assert ui_store.get_draft("local", A)["data"]["_unassigned"] == []
    shown = reopened(fns, work)
    assert out(shown, "question") == "Which exit?"
    assert [b["label"] for b in out(shown, "annotator")["boxes"]
            if b["label"] == em.PICK_LABEL] == []
    # a draft kept before the fix with such a box: not brought back either
    data = {**ui_store.get_draft("local", A)["data"],
            "_unassigned": [{"image": sha, "x0": 40, "y0": 40, "x1": 140, "y1": 120,
                             "label": em.PICK_LABEL}]}
    ui_store.save_draft("local", A, work["base_version"], data)
    assert editor.load(A, "local")["item"]["_unassigned"] == []
    # a box labelled with no such clue is still kept (Save says what to do with it)
    named = {**picking, "label": "clue 9"}
    fns["autosave_draft"].fn(PAGE, draft_key(work), work, "",
                             *typed(editor, work, {"boxes": [named]}))
    assert [b["label"] for b in ui_store.get_draft("local", A)["data"]["_unassigned"]] == \
        ["clue 9"]


def test_a_box_kept_without_a_clue_is_drawn_in_the_grey_the_refusal_names():
    """A box labelled with no such clue is kept (Save refuses it, saying it is "drawn in
    grey"): it came back black."""
    item = {"images": ["a"], "clues": [], "_unassigned": [
        {"image": "a", "x0": 1, "y0": 2, "x1": 30, "y1": 40, "label": "clue 9"}]}
    shown = em.boxes_for_image(item, "a")
    assert [(b["label"], tuple(b["color"])) for b in shown] == [("clue 9", (127, 127, 127))]
    with pytest.raises(em.EditError, match="drawn in grey"):
        em.check_saveable({**item, "question": "q"})
