"""annfix20b: what the annotator's round found, tested on the handlers (real SQLite)."""
import json

from cli import main as cli_main
from store import Store
from ui import editor_model as em
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui.editor_handlers import EditorHandlers
from ui.import_roots import ImportRoots
from ui.io_handlers import IoHandlers, import_summary
from ui.lifecycle_handlers import LifecycleHandlers

LIMIT = ("while this page is open; after a reload only an admin can restore it (Item menu → "
         "Deleted items (admin) → Restore, or `python app.py item restore ui/alpha`).")


def test_the_delete_says_undo_lasts_while_the_page_is_open_and_who_restores_after(ui_store):
    """'"Undo delete of X" (in the Item menu) brings it back' had no limit; after a reload
    the Undo is gone and only an admin (or the command line) brings the item back."""
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "ann")
    assert work["delete_question"].startswith(
        "Delete item ui/alpha? Undo delete (in the Item menu) brings it back, with your "
        "unsaved edits of it if any, " + LIMIT), work["delete_question"]
    said = LifecycleHandlers(ui_store).delete(work, "", "ann")
    assert said == ('Deleted ui/alpha. "Undo delete of ui/alpha" (in the Item menu) brings it '
                    "back and opens it " + LIMIT), said


def write_lines(path, *lines):
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def test_a_box_beyond_the_lines_images_is_said_so_not_as_a_missing_field(tmp_path, capsys):
    """'"image": 5' with all four coordinates, on a line of one (refused) image: it said "a
    box needs image (an index into images) and x0, y0, x1, y1", a missing field."""
    box = {"image": 5, "x0": 1, "y0": 2, "x1": 30, "y1": 40}
    source = write_lines(tmp_path / "lines.jsonl", {
        "id": "t/one", "dataset": "t", "question": "Which?", "images": ["gone.png"],
        "clues": [{"text": "a sign", "boxes": [box, {"image": 0, "x0": 1}]}]})
    db = tmp_path / "a.db"
    assert cli_main(["import", "--db", str(db), "--format", "jsonl", str(source)]) == 0
    store = Store.open(db)
    try:
        item = store.get_item("t/one")
    finally:
        store.close()
    assert item["metadata"]["invalid_boxes"][0] == {"clue": 0, "box": box}
    assert ("invalid box: clue 1: its image index 5 — image 6 — is beyond the line's 1 image, "
            "so it is on no image of the item (kept in metadata.invalid_boxes)"
            ) in item["problems"], item["problems"]
    # a box that does lack a coordinate says which
    assert ("invalid box: clue 1: a box needs x0, y0, x1, y1 (missing: y0, x1, y1) (kept in "
            "metadata.invalid_boxes)") in item["problems"], item["problems"]
    assert not any("needs image" in p for p in item["problems"])
    capsys.readouterr()


def save_clue(editor, work, user, text, reasoning=None, **kwargs):
    form = editor.form_values(work["item"])
    rows = em.clue_rows(work["item"])
    rows[0][1] = text
    if reasoning is not None:
        rows[0][2] = reasoning
    return editor.save(work, {**form, "clues": rows}, None, "", user, **kwargs)


ALICE, BOB = "The blue sign reads EXIT 12 (alice)", "The blue sign reads EXIT 12 (bob)"
ALICE2, BOB2 = "The blue sign reads EXIT 13 (alice)", "The blue sign reads EXIT 13 (bob)"


def test_taking_their_clue_names_the_parts_of_it_taken(ui_store):
    """alice changed clue 1's text; bob, from the same version, its text and its reasoning.
    Ticking "clue 1" took alice's text and kept bob's reasoning (the merge goes by the
    clue's parts), and the message said "theirs taken: clue 1"."""
    editor = EditorHandlers(ui_store)
    alice, bob = editor.load("ui/alpha", "alice"), editor.load("ui/alpha", "bob")
    assert save_clue(editor, alice, "alice", ALICE)[1]["kind"] == "saved"
    bob, outcome = save_clue(editor, bob, "bob", BOB, "signs name exits (bob)")
    assert outcome["kind"] == "conflict", outcome
    _, saved = save_clue(editor, bob, "bob", BOB, "signs name exits (bob)",
                         take_saved=["clue 1"], base_version=outcome["current_version"])
    assert saved["kind"] == "saved", saved
    clue = ui_store.get_item("ui/alpha")["clues"][0]
    assert (clue["text"], clue["reasoning"]) == (ALICE, "signs name exits (bob)")
    assert "(theirs taken: clue 1 text)" in saved["message"], saved["message"]
    comment = ui_store.history("ui/alpha")[0]["comment"]
    assert "(alice's taken over bob's: clue 1 text)" in comment, comment
    # not ticked: what is kept of bob's over alice's is named the same way
    alice, bob = editor.load("ui/alpha", "alice"), editor.load("ui/alpha", "bob")
    assert save_clue(editor, alice, "alice", ALICE2, "signs name (alice)")[1]["kind"] == "saved"
    bob, outcome = save_clue(editor, bob, "bob", BOB2, "signs name (bob)")
    _, saved = save_clue(editor, bob, "bob", BOB2, "signs name (bob)",
                         base_version=outcome["current_version"])
    assert "(yours kept over theirs: clue 1 text, reasoning)" in saved["message"], saved


def test_the_import_report_names_the_datasets_it_went_into(tmp_path, capsys):
    """A file whose lines name dataset "t" and one malformed line (imported under the file's
    name, "lines") made two datasets, and the report named neither."""
    source = write_lines(tmp_path / "lines.jsonl", {"id": "t/one", "dataset": "t",
                                                     "question": "Which?"})
    with source.open("a", encoding="utf-8") as out:
        out.write("{not json\n")
    db = tmp_path / "a.db"
    assert cli_main(["import", "--db", str(db), "--format", "jsonl", str(source)]) == 0
    printed = capsys.readouterr().out
    assert "as jsonl into 2 datasets\n" in printed, printed
    assert "  datasets:   t: 1 item (new), lines: 1 item (new)\n" in printed, printed
    # the Import page: its report is the same text, its toast names them too
    again = write_lines(tmp_path / "more.jsonl", {"id": "t/two", "dataset": "t",
                                                  "question": "Which one?"})
    store = Store.open(db)
    try:
        result = IoHandlers(store, ImportRoots()).run_import("jsonl", str(again), "", "", "",
                                                             author="tester")
    finally:
        store.close()
    assert "  datasets:   t: 1 item\n" in result["text"], result["text"]
    assert result["datasets"] == {"t": 1} and result["new_datasets"] == []
    assert import_summary(result)[1].startswith("imported 1 item into t (1): "), result
