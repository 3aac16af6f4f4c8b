"""Text-direction controls (domain.item_ids.DIRECTION_MARKS) a save brings in are refused,
as comments are, naming the part and the control: the Annotate editor saved a clue text
typed with U+202E without a word while an import flagged the same text. The controls an item
was imported with stay saveable (flagged, kept): an edit of another part saves, the flag
stays. An option image's file name with one is flagged at import as a clue text is."""
import json

from formats import import_path
from judges.direction_parts import introduced_problem
from tests.test_conflict_merge import edit
from tests.test_import_upload_files import upload
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui.editor_handlers import EditorHandlers

RLO = "\u202e"


def test_a_clue_text_typed_with_a_control_is_refused_named(ui_store):
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "ann")
    _, outcome = edit(editor, work, "ann", clue_text=f"tiny cat {RLO}evil")
    assert outcome["kind"] == "invalid", outcome
    assert outcome["message"].startswith(
        "clue 1 text holds a text-direction control (U+202E); remove it"), outcome["message"]
    assert "evil" not in outcome["message"]
    assert ui_store.get_item("ui/alpha")["version"] == 1
    for field, name in (("question", "question"), ("gt_reasoning", "GT reasoning"),
                        ("answer", "gold answer")):
        _, outcome = edit(editor, work, "ann", **{field: f"a\u2066b{RLO}c"})
        assert outcome["kind"] == "invalid", (field, outcome)
        assert outcome["message"].startswith(
            f"{name} holds text-direction controls (U+202E, U+2066); remove them"), outcome
    assert edit(editor, work, "ann", clue_text="tiny cat evil")[1]["kind"] == "saved"


def test_options_and_aliases_are_checked_too(ui_store):
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/gamma", "ann")
    form = editor.form_values(work["item"])
    rows = [list(r) for r in form["options"]]
    rows[1][1] = f"red{RLO}"
    _, outcome = editor.save(work, form | {"options": rows}, None, "", "ann")
    assert outcome["kind"] == "invalid" and outcome["message"].startswith(
        "option B holds a text-direction control (U+202E)"), outcome
    base = ui_store.get_item("ui/alpha")
    assert introduced_problem({**base, "aliases": ["x\u200f"]}, base).startswith(
        "alias 1 holds a text-direction control (U+200F)")


def test_an_imported_control_stays_saveable_and_flagged(store, tmp_path):
    source = tmp_path / "d.jsonl"
    source.write_text(json.dumps({
        "id": "t/d", "dataset": "t", "question": "Which?", "answer_type": "open",
        "answer": "x", "clues": [{"text": f"tiny cat {RLO}evil", "reasoning": "r"},
                                 {"text": "second", "reasoning": ""}]}) + "\n")
    upload(store, "jsonl", source)
    assert store.get_item("t/d")["flagged"]
    editor = EditorHandlers(store)
    work = editor.load("t/d", "ann")
    work, outcome = edit(editor, work, "ann", question="Which one?")
    assert outcome["kind"] == "saved", outcome
    item = store.get_item("t/d")
    assert item["clues"][0]["text"] == f"tiny cat {RLO}evil" and item["flagged"]
    assert any(p.startswith("text-direction characters: clue 1 text") for p in item["problems"])
    # the clue itself edited, its control kept (not one more): saved; one more: refused
    work, outcome = edit(editor, work, "ann", clue_text=f"tiny cat {RLO}evil!")
    assert outcome["kind"] == "saved", outcome
    _, outcome = edit(editor, work, "ann", clue_text=f"tiny {RLO}cat {RLO}evil!")
    assert outcome["kind"] == "invalid" and "clue 1 text" in outcome["message"], outcome
    # the clues reordered: the text moved, no control brought in
    saved = store.get_item("t/d")
    moved = {**saved, "clues": saved["clues"][::-1]}
    assert introduced_problem(moved, saved) is None


def test_an_option_images_file_name_with_a_control_is_flagged(store, tmp_path, make_png):
    make_png(tmp_path / f"cat{RLO}gnp.exe.png")
    make_png(tmp_path / "dog.png")
    source = tmp_path / "o.jsonl"
    source.write_text(json.dumps({
        "id": "t/o", "dataset": "t", "question": "Which?", "answer_type": "multiple_choice",
        "answer": "A", "options": [{"label": "A", "text": "", "image": "dog.png"},
                                   {"label": "B", "text": "", "image": f"cat{RLO}gnp.exe.png"}]})
        + "\n")
    import_path(store, "jsonl", source)
    item = store.get_item("t/o")
    assert item["flagged"] and item["options"][1]["image"], item["problems"]
    assert any(p.startswith("text-direction characters: option B image file name (U+202E")
               for p in item["problems"]), item["problems"]
