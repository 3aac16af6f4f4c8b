"""A draft restored on an older version names the parts changed since, and by whom: bob's
draft on a version without an image read "no image yet" while ann had added one, and the
notice said only that saving would show the differences."""
from __future__ import annotations

from tests.test_conflict_merge import edit
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui.editor_handlers import EditorHandlers


def test_the_restore_notice_names_what_changed_since_the_draft(ui_store):
    editor = EditorHandlers(ui_store)
    bob = editor.load("ui/alpha", "bob")
    form = editor.form_values(bob["item"]) | {"gt_reasoning": "bob's reasoning"}
    editor.autosave(bob, form, None, "bob", session="B1")
    assert ui_store.get_draft("bob", "ui/alpha") is not None
    ann = editor.load("ui/alpha", "ann")
    assert edit(editor, ann, "ann", question="Ann's question?")[1]["kind"] == "saved"
    again = editor.load("ui/alpha", "bob")
    notice = again["notice"]
    assert "It is based on version 1, but the item is now at version 2" in notice, notice
    assert "since your draft's version, ann changed question (your draft shows that part " \
           "as it was)" in notice, notice
