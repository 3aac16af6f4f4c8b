"""A colleague's save while the conflict panel is open: Save merged is refused and the panel
rebuilt over the new version, and the message now says a new version arrived (it repeated
the first conflict's words, as if nothing had happened since)."""
from __future__ import annotations

from tests.test_conflict_merge import edit
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui.editor_handlers import EditorHandlers


def test_a_version_saved_while_comparing_is_named(ui_store):
    editor = EditorHandlers(ui_store)
    bob, alice = editor.load("ui/alpha", "bob"), editor.load("ui/alpha", "alice")
    assert edit(editor, alice, "alice", question="Alice's question?")[1]["kind"] == "saved"
    form = editor.form_values(bob["item"]) | {"question": "Bob's question?"}
    bob, outcome = editor.save(bob, form, None, "", "bob", session="B1")
    assert outcome["kind"] == "conflict" and outcome["current_version"] == 2, outcome
    carol = editor.load("ui/alpha", "carol")
    assert edit(editor, carol, "carol", gt_reasoning="carol's reasoning")[1]["kind"] == "saved"
    bob, again = editor.save(bob, form, None, "", "bob", base_version=2,
                             take_saved=["question"], session="B1")
    assert again["kind"] == "conflict" and again["current_version"] == 3, again
    said = again["message"]
    assert said.startswith("Not saved: while you compared with version 2, carol saved "
                           "version 3 at "), said
    assert "the comparison below now includes it" in said
    assert again["ticked"] == ["question"], again      # bob's choice still ticked
    assert ui_store.get_item("ui/alpha")["version"] == 3
    assert ui_store.get_draft("bob", "ui/alpha")["data"]["question"] == "Bob's question?"
