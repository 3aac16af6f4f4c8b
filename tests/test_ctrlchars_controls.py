"""Invisible control characters (domain.item_ids.INVISIBLE_CONTROLS: C0 controls but tab,
LF and CR, DEL, C1 controls, U+FEFF, U+2028, U+2029, U+200B) go the text-direction
controls' one way: a save that brings one in is refused, naming the part and the character
by its code; a comment, a review note, a run label is refused; an import keeps and flags
them. "Should the bins go\\u0000 out tonight?" was saved from Annotate, and SQLite's search
stopped at the NUL. The zero-width joiners U+200C/U+200D stay allowed."""
import json

import pytest

from domain.item_ids import direction_marks_problem
from store import ValidationError
from tests.test_conflict_merge import edit
from tests.test_import_upload_files import upload
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui.editor_handlers import EditorHandlers
from ui.history_handlers import EditError, HistoryHandlers

CONTROLS = ["\x00", "\x1b", "\x07", "\x08", "\x7f", "\x85", "\x9b", "\ufeff", "\u2028",
            "\u2029", "\u200b"]


def test_the_set_holds_what_it_says():
    from domain.item_ids import INVISIBLE_CONTROLS
    assert {ord(c) for c in CONTROLS} <= INVISIBLE_CONTROLS
    assert not {0x09, 0x0A, 0x0D, 0x200C, 0x200D, 0x20, 0xA0} & INVISIBLE_CONTROLS


def test_a_question_typed_with_a_control_is_refused_named_by_code(ui_store):
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "ann")
    for ch in CONTROLS:
        _, outcome = edit(editor, work, "ann", question=f"Should the bins go{ch} out tonight?")
        assert outcome["kind"] == "invalid", (hex(ord(ch)), outcome)
        assert outcome["message"].startswith(
            f"question holds an invisible control character (U+{ord(ch):04X}); remove it"), \
            outcome["message"]
    assert ui_store.get_item("ui/alpha")["version"] == 1
    # the joiners a script needs, and tabs and line breaks, stay
    _, outcome = edit(editor, work, "ann", question="می\u200cخواهم 👩\u200d💻?\tand\nmore")
    assert outcome["kind"] == "saved", outcome


def test_every_part_is_checked(ui_store):
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "ann")
    for field, name in (("gt_reasoning", "GT reasoning"), ("answer", "gold answer")):
        _, outcome = edit(editor, work, "ann", **{field: "a\x00b\u202ec"})
        assert outcome["kind"] == "invalid", (field, outcome)
        assert outcome["message"].startswith(
            f"{name} holds text-direction and invisible control characters (U+0000, U+202E)"), \
            outcome["message"]
    _, outcome = edit(editor, work, "ann", clue_text="tiny cat\x1b[31m")
    assert outcome["message"].startswith("clue 1 text holds an invisible control character "
                                         "(U+001B)"), outcome
    _, outcome = edit(editor, work, "ann", aliases="twelve\ufeff")
    assert outcome["message"].startswith("alias 1 holds an invisible control character "
                                         "(U+FEFF)"), outcome
    _, outcome = edit(editor, work, "ann", aliases="twelve\u2028xii")   # one alias, not two
    assert outcome["message"].startswith("alias 1 holds an invisible control character "
                                         "(U+2028)"), outcome
    _, outcome = edit(editor, work, "ann", question="Q?", domain="Spatial\u200b")
    assert outcome["kind"] == "invalid", outcome
    work = editor.load("ui/gamma", "ann")
    form = editor.form_values(work["item"])
    rows = [list(r) for r in form["options"]]
    rows[1][1] = "red\x00"
    _, outcome = editor.save(work, form | {"options": rows}, None, "", "ann")
    assert outcome["kind"] == "invalid" and outcome["message"].startswith(
        "option B holds an invisible control character (U+0000)"), outcome


def test_comments_and_review_notes_are_refused(ui_store):
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "ann")
    form = editor.form_values(work["item"]) | {"question": "Changed?"}
    _, outcome = editor.save(work, form, None, "typo\x00fixed", "ann")
    assert outcome["kind"] == "invalid" and "U+0000" in outcome["message"], outcome
    item = ui_store.get_item("ui/alpha")
    with pytest.raises(ValidationError, match=r"U\+2028"):
        ui_store.add_review("ui/alpha", item["version"], "rev", "revise", "a\u2028b")
    with pytest.raises(EditError, match=r"the review note holds an invisible control "
                                        r"character \(U\+0007\)"):
        HistoryHandlers(ui_store).review("ui/alpha", item["version"], "rev", "revise", "x\x07")
    assert ui_store.reviews("ui/alpha") == []
    assert direction_marks_problem("A tag name", "ok\tfine\n") is None


def test_an_import_keeps_and_flags_them(store, tmp_path):
    source = tmp_path / "c.jsonl"
    source.write_text(json.dumps({
        "id": "t/c", "dataset": "t", "question": "Should the bins go\x00 out tonight?",
        "answer_type": "open", "answer": "yes",
        "clues": [{"text": "bins\u2028at the kerb", "reasoning": "r\u202e"}]}) + "\n")
    upload(store, "jsonl", source)
    item = store.get_item("t/c")
    assert item["question"] == "Should the bins go\x00 out tonight?" and item["flagged"]
    flags = [p for p in item["problems"] if p.startswith("invisible control characters:")]
    assert flags and flags[0].startswith(
        "invisible control characters: question, clue 1 text (U+0000, U+2028"), item["problems"]
    assert any(p.startswith("text-direction characters: clue 1 reasoning")
               for p in item["problems"]), item["problems"]
    # an edit of another part saves; the question fixed, its flag goes
    editor = EditorHandlers(store)
    work = editor.load("t/c", "ann")
    work, outcome = edit(editor, work, "ann", gt_reasoning="checked")
    assert outcome["kind"] == "saved", outcome
    work, outcome = edit(editor, work, "ann", question="Should the bins go out tonight?",
                         clue_text="bins at the kerb")
    assert outcome["kind"] == "saved", outcome
    assert not any(p.startswith("invisible control characters")
                   for p in store.get_item("t/c")["problems"])


def test_read_only_tables_write_them_out():
    """History's diff of a question imported with a NUL showed before and after alike."""
    from ui.text import marks_shown
    assert marks_shown("go\x00 out\u2028now\u200d") == "go\u27e8U+0000\u27e9 out\u27e8U+2028\u27e9now\u200d"
