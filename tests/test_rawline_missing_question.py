"""rawline: an imported line with no readable question stored the made-up question
"[missing question]", which the Annotate page showed as the question's own text, as if an
annotator could keep it. Its question is empty now: the box shows an empty field with a hint,
a save past draft is refused ("the question is empty"), exports write no made-up question, and
databases that hold the old placeholder read as new ones do (store/legacy.py).

Real SQLite store, the real import (cli → formats.importer.run_import), the page's own
handlers (ui.server.build_app's events called as plain functions)."""
from __future__ import annotations

import json

import gradio as gr

from cli import main as cli_main
from store import Store
from ui.annotate_render import Renderer
from ui.editor_handlers import FIELDS, EditorHandlers
from ui.server import build_app

PAGE = gr.Request(headers={"origin": "http://127.0.0.1:7860"}, session_hash="tab-1")
GOOD = json.dumps({"id": "t/good", "dataset": "t", "question": "Which?", "answer": "a sign"})
BROKEN = '{"id":"t/broken", "dataset": "t", "question": "oops <b>bold</b>"'
NO_QUESTION = json.dumps({"id": "t/blank", "dataset": "t", "answer": "a door"})
LEGACY = "[missing question]"


def imported(tmp_path, *lines) -> Store:
    source = tmp_path / "t.jsonl"
    source.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    db = tmp_path / "a.db"
    assert cli_main(["import", "--db", str(db), "--format", "jsonl", str(source)]) == 0
    return Store.open(db)


def question_out(values: list):
    return values[Renderer.OUTPUTS.index("question")]


def test_an_unreadable_line_and_a_line_without_question_store_an_empty_question(
        tmp_path, capsys):
    store = imported(tmp_path, GOOD, BROKEN, NO_QUESTION)
    try:
        broken, blank = store.get_item("t/line-2"), store.get_item("t/blank")
        assert broken["question"] == "" and blank["question"] == ""
        # the problems still say why: the line, and the missing field
        assert any(p.startswith("malformed line") for p in broken["problems"])
        assert broken["metadata"]["raw_line"] == BROKEN
        assert any(p.startswith("missing field: question") for p in blank["problems"])
        assert broken["flagged"] and blank["flagged"]
        # nothing in the store reads the made-up text
        assert sorted(r["question"] for r in store.list_items()) == ["", "", "Which?"]
        assert store.revision("t/line-2", 1)["question"] == ""
    finally:
        store.close()
    capsys.readouterr()


def test_the_question_box_is_empty_with_a_hint_and_a_save_past_draft_is_refused(
        tmp_path, capsys):
    store = imported(tmp_path, GOOD, BROKEN, NO_QUESTION)
    try:
        fns = {fn.api_name: fn for fn in build_app(store).fns.values()}
        good = fns["load_item"].fn("t/good", None, [], [], [], PAGE)
        assert question_out(good) == "Which?"            # a plain value: no hint to set
        shown = fns["load_item"].fn("t/line-2", good[0], [], [], [], PAGE)
        question = question_out(shown)
        assert isinstance(question, dict), question
        assert question["value"] == ""
        assert question["placeholder"] == ("no question: the imported line could not be "
                                           "read — type it")
        # the raw line is still shown under its problem, escaped
        notice = shown[Renderer.OUTPUTS.index("notice")]
        assert "the line as the file has it" in notice and "<b>bold" not in notice
        blank = question_out(fns["load_item"].fn("t/blank", shown[0], [], [], [], PAGE))
        assert blank["value"] == "" and blank["placeholder"] == (
            "no question: the imported file gave none — type it")
        # back on a real question, the hint goes
        again = question_out(fns["load_item"].fn("t/good", shown[0], [], [], [], PAGE))
        assert again["value"] == "Which?" and again["placeholder"] == ""

        editor = EditorHandlers(store)
        work = editor.load("t/line-2", "ann")
        form = editor.form_values(work["item"]) | {"answer": "a sign"}
        for status in ("candidate", "in_review", "verified"):
            _, outcome = editor.save(work, form | {"status": status}, None, "", "ann")
            assert outcome == {"kind": "invalid", "message": "the question is empty"}, outcome
        assert store.get_item("t/line-2")["version"] == 1
        _, outcome = editor.save(work, form | {"question": "Which sign?",
                                               "status": "candidate"}, None, "", "ann")
        assert outcome["kind"] == "saved", outcome
        assert store.get_item("t/line-2")["question"] == "Which sign?"
    finally:
        store.close()
    capsys.readouterr()


def test_a_database_holding_the_old_placeholder_reads_as_a_new_one(tmp_path, capsys):
    """Items imported before the fix hold "[missing question]" (and their history does):
    read, exported and checked, they are items without a question."""
    store = imported(tmp_path, GOOD)
    try:
        store.create_item({"id": "t/old", "dataset": "t", "question": LEGACY,
                           "answer_type": "open", "answer": "a door", "status": "candidate",
                           "problems": ["malformed line: Expecting ',' delimiter"]}, "import")
        assert store.get_item("t/old")["question"] == ""
        assert store.revision("t/old", 1)["question"] == ""
        assert {r["id"]: r["question"] for r in store.list_items()}["t/old"] == ""
        assert {i["id"]: i["question"] for i in store.iter_items()}["t/old"] == ""
        out = tmp_path / "out.jsonl"
        assert cli_main(["export", "--db", str(tmp_path / "a.db"), "--format", "jsonl",
                         str(out)]) == 0
        assert LEGACY not in out.read_text(encoding="utf-8")
        editor = EditorHandlers(store)
        work = editor.load("t/old", "ann")
        _, outcome = editor.save(work, editor.form_values(work["item"]), None, "", "ann")
        assert outcome == {"kind": "invalid", "message": "the question is empty"}, outcome
    finally:
        store.close()
    capsys.readouterr()


def test_the_page_sends_the_question_as_a_plain_value_when_the_hint_does_not_change(
        tmp_path, capsys):
    """An update of a textbox's placeholder rebuilds it (ui/annotate_render.render): sent
    only when the hint differs from the one of the item shown before."""
    store = imported(tmp_path, GOOD, BROKEN, BROKEN.replace("broken", "broken2"))
    try:
        fns = {fn.api_name: fn for fn in build_app(store).fns.values()}
        first = fns["load_item"].fn("t/line-2", None, [], [], [], PAGE)
        second = fns["load_item"].fn("t/line-3", first[0], [], [], [], PAGE)
        assert question_out(second) == ""
        assert FIELDS[0] == "question"
    finally:
        store.close()
    capsys.readouterr()
