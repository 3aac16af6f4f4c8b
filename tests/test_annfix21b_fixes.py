"""annfix21b: what the annotator's round found, tested on the handlers (real SQLite)."""
import json

from cli import main as cli_main
from store import Store
from ui.editor_handlers import EditorHandlers
from ui.problems_wiring import problems_html

BROKEN = '{"id":"t/broken", "dataset": "t", "question": "oops <b>bold</b>"'


def import_lines(tmp_path, *lines):
    source = tmp_path / "t.jsonl"
    source.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    db = tmp_path / "a.db"
    assert cli_main(["import", "--db", str(db), "--format", "jsonl", str(source)]) == 0
    return Store.open(db)


def test_the_import_empty_question_is_refused_past_draft(tmp_path, capsys):
    """A malformed line's item (its question then the placeholder "[missing question]",
    empty since rawline) was saved as a candidate with a gold answer: the placeholder passed
    the rules that refuse an empty gold."""
    good = json.dumps({"id": "t/good", "dataset": "t", "question": "Which?"})
    store = import_lines(tmp_path, good, good.replace("good", "ok"), BROKEN)
    try:
        assert store.get_item("t/line-3")["question"] == ""
        editor = EditorHandlers(store)
        work = editor.load("t/line-3", "ann")
        form = editor.form_values(work["item"]) | {"answer": "a sign", "status": "candidate"}
        for status in ("candidate", "in_review", "verified"):
            _, outcome = editor.save(work, form | {"status": status}, None, "", "ann")
            assert outcome == {"kind": "invalid", "message": "the question is empty"}, outcome
        assert store.get_item("t/line-3")["version"] == 1
        # typed, it saves
        _, outcome = editor.save(work, form | {"question": "Which sign?"}, None, "", "ann")
        assert outcome["kind"] == "saved", outcome
    finally:
        store.close()
    capsys.readouterr()


def test_the_import_problems_show_a_malformed_lines_raw_text(tmp_path, capsys):
    """The panel said only "malformed line: … column 53": the id and the question, kept in
    metadata.raw_line, could not be recovered from the page."""
    long_line = '{"id": "t/long", "question": "' + "x" * 5000
    good = json.dumps({"id": "t/good", "dataset": "t", "question": "Which?"})
    store = import_lines(tmp_path, good, BROKEN, long_line)
    try:
        item = store.get_item("t/line-2")
        shown = problems_html(item)
        assert "malformed line" in shown
        assert ("the line as the file has it:</i><pre class=\"cl-raw-line\">"
                "{&quot;id&quot;:&quot;t/broken&quot;, &quot;dataset&quot;: &quot;t&quot;, "
                "&quot;question&quot;: &quot;oops &lt;b&gt;bold&lt;/b&gt;&quot;</pre>") in shown
        assert "<b>bold" not in shown
        long = problems_html(store.get_item("t/line-3"))
        assert f"first 2,000 of {len(long_line):,} characters" in long, long
        assert "x" * 2001 not in long and "x" * 1900 in long
    finally:
        store.close()
    capsys.readouterr()


def test_images_are_numbered_from_1_and_a_box_on_no_image_is_marked_resolved(tmp_path, capsys):
    """"image file not found: image 1" counted from 1, "its image 2 is beyond the line's 1
    image (images count from 0)" from 0, in one list; and the save said "fix what it says"
    of that box, which no edit can fix (only Mark import problems resolved)."""
    line = {"id": "t/one", "dataset": "t", "question": "Which?", "images": ["gone.png"],
            "answer_type": "open", "answer": "the red door",
            "clues": [{"text": "a sign"}, {"text": "a door", "boxes": [
                {"image": 2, "x0": 1, "y0": 2, "x1": 30, "y1": 40}]}]}
    store = import_lines(tmp_path, json.dumps(line))
    try:
        problems = store.get_item("t/one")["problems"]
        assert any(p.startswith("image file not found: image 1 ") for p in problems), problems
        assert ("invalid box: clue 2: its image index 2 — image 3 — is beyond the line's 1 "
                "image, so it is on no image of the item (kept in metadata.invalid_boxes)"
                ) in problems, problems
        assert not any("count from 0" in p for p in problems)
        editor = EditorHandlers(store)
        work = editor.load("t/one", "ann")
        form = editor.form_values(work["item"]) | {"question": "Which door?"}
        _, outcome = editor.save(work, form, None, "", "ann")
        assert outcome["kind"] == "saved", outcome
        assert outcome["message"] == (
            "Saved t/one as version 2. 1 import problem still holds (image file not found): "
            "fix what it says (see Import problems), or mark it resolved. 1 import problem "
            "(invalid box) no edit can fix: check it, then mark it resolved (Mark import "
            "problems resolved)."), outcome["message"]
    finally:
        store.close()
    capsys.readouterr()


def test_two_options_with_the_same_image_are_refused_like_a_duplicated_label(tmp_path):
    """Options B and D got the same image (the same sha), D the gold: saved without a
    word, a question no model can answer."""
    from tests.live_server import build_ui_db
    build_ui_db(tmp_path / "ui.db")
    store = Store.open(tmp_path / "ui.db")
    try:
        gamma = store.get_item("ui/gamma")
        alpha = store.get_item("ui/alpha")
        sha, other = alpha["images"]
        options = [{"label": "A", "text": "", "image": other},
                   {"label": "B", "text": "", "image": sha},
                   {"label": "C", "text": "red", "image": None},
                   {"label": "D", "text": "", "image": sha}]
        store.save_item({**gamma, "options": options, "answer": "D"}, gamma["version"], "bob")
        editor = EditorHandlers(store)
        work = editor.load("ui/gamma", "ann")
        _, outcome = editor.save(work, editor.form_values(work["item"]) | {
            "question": "Which sign is blue?"}, None, "", "ann")
        assert outcome == {"kind": "invalid", "message": (
            "Options: duplicated option: options B and D have the same image")}, outcome
        # the same rule for two options of the same text
        from judges.gold_check import gold_problems
        same_text = {**gamma, "options": [{"label": "A", "text": "Red ", "image": None},
                                          {"label": "B", "text": "red", "image": None}]}
        assert [p.message for p in gold_problems(same_text)] == [
            "duplicated option: options A and B have the same text"]
    finally:
        store.close()


def test_restore_from_deleted_items_asks_first_and_says_what_it_did(tmp_path):
    """Admin Restore (Item menu → Deleted items) asked nothing and said nothing in the save
    bar, while Delete asks and reports."""
    from pathlib import Path

    from tests.live_server import build_ui_db
    from ui.lifecycle_handlers import LifecycleHandlers
    build_ui_db(tmp_path / "ui.db")
    store = Store.open(tmp_path / "ui.db")
    try:
        item = store.get_item("ui/beta")
        store.delete_item("ui/beta", "admin", "", item["version"])
        said = LifecycleHandlers(store).restore_deleted("ui/beta", "", "admin")
        assert said == f"Restored ui/beta (version {store.get_item('ui/beta')['version']}).", said
    finally:
        store.close()
    # the same mechanism as Delete's dialog: the page's confirm, keyed by the button's id
    script = (Path(__file__).parent.parent / "assets" / "confirm.js").read_text()
    assert '"restore-deleted": () =>' in script
    assert "Restore deleted item ${picked}?" in script
