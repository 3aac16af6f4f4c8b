"""The conflict table's saved column after a third person's save (annotator review): ann
opened, bob saved, carol saved, ann saved; the column read "saved (bob and carol)" (cut to
"saved (ann…" in the narrow column), naming neither the version shown nor whose save it is.
It reads "carol's save (version 3, after bob's)"."""
from __future__ import annotations

from tests.test_conflict_merge import edit
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui.conflict_marks import table_value
from ui.editor_handlers import EditorHandlers


def three_saves(ui_store) -> dict:
    """ann opened; bob saved the question, carol the GT reasoning; ann's save of both: the
    conflict outcome."""
    editor = EditorHandlers(ui_store)
    ann = editor.load("ui/alpha", "ann")
    assert edit(editor, editor.load("ui/alpha", "bob"), "bob",
                question="Bob's question?")[1]["kind"] == "saved"
    assert edit(editor, editor.load("ui/alpha", "carol"), "carol",
                gt_reasoning="carol's reasoning")[1]["kind"] == "saved"
    form = editor.form_values(ann["item"]) | {"question": "Ann's question?",
                                               "gt_reasoning": "ann's reasoning"}
    _, outcome = editor.save(ann, form, None, "", "ann", session="A1")
    assert outcome["kind"] == "conflict" and outcome["current_version"] == 3, outcome
    return outcome


def test_the_saved_column_names_the_version_and_whose_save_it_is(ui_store):
    outcome = three_saves(ui_store)
    headers = table_value(outcome["table"], outcome["saved_heading"])["headers"]
    assert headers == ["part", "changed by", "carol's save (version 3, after bob's)", "yours"]


def test_one_save_since_and_the_own_other_tab(ui_store):
    editor = EditorHandlers(ui_store)
    first, second = editor.load("ui/alpha", "ann"), editor.load("ui/alpha", "ann")
    bob = editor.load("ui/alpha", "bob")
    assert edit(editor, first, "ann", question="Tab one?")[1]["kind"] == "saved"
    form = editor.form_values(second["item"]) | {"question": "Tab two?"}
    _, outcome = editor.save(second, form, None, "", "ann", session="A2")
    assert outcome["kind"] == "conflict", outcome
    assert outcome["saved_heading"] == "your other tab's save (version 2)"
    form = editor.form_values(bob["item"]) | {"question": "Bob's?"}
    _, outcome = editor.save(bob, form, None, "", "bob", session="B1")
    assert outcome["kind"] == "conflict", outcome
    assert outcome["saved_heading"] == "ann's save (version 2)"
