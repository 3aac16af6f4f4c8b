"""The conflict panel after two others saved (ann opened, bob saved the question, carol the
GT reasoning, ann changed both): the tick-box question said "take from bob's version" above
a column headed "carol's save (version 3, after bob's)", and a row read "bob and this tab
(you choose)" where a two-person row reads "both (you choose)"."""
from __future__ import annotations

from tests.test_annfix23b_conflict_heading import three_saves
from tests.test_conflict_merge import edit
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui.conflict_marks import table_value
from ui.conflict_merge import take_saved_label
from ui.editor_handlers import EditorHandlers


def test_the_question_names_the_version_its_column_shows(ui_store):
    outcome = three_saves(ui_store)
    heading = table_value(outcome["table"], outcome["saved_heading"])["headers"][2]
    assert heading == "carol's save (version 3, after bob's)"
    assert take_saved_label(outcome["take_from"]) == (
        "Both of you changed these. Tick the ones to take from version 3 (carol's save, "
        "after bob's); the others keep yours.")
    rows = {row[0]: row[1] for row in outcome["diff"]}
    assert rows["question"] == "both (bob and this tab; you choose)", rows
    assert rows["GT reasoning"] == "both (carol and this tab; you choose)", rows


def test_two_people_read_as_before(ui_store):
    editor = EditorHandlers(ui_store)
    ann, bob = editor.load("ui/alpha", "ann"), editor.load("ui/alpha", "bob")
    assert edit(editor, bob, "bob", question="Bob's?")[1]["kind"] == "saved"
    _, outcome = edit(editor, ann, "ann", question="Ann's?")
    assert outcome["take_from"] == "version 2 (bob's save)"
    assert {r[0]: r[1] for r in outcome["diff"]}["question"] == "both (you choose)"
