"""An annotator's review of saving, through the editor's handlers on a real store: an empty
gold answer past draft, a merged save that adds nothing, and import problems ticked but not
marked resolved before the save."""
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui.editor_handlers import EditorHandlers


def test_an_item_past_draft_is_not_saved_with_an_empty_gold_answer(ui_store):
    """An empty gold answer saved on an item in review, with no word."""
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "ann")
    form = editor.form_values(work["item"]) | {"answer": "", "status": "in_review"}
    _, outcome = editor.save(work, form, None, "", "ann")
    assert outcome == {"kind": "invalid", "message": (
        "Gold answer: empty: an item in review needs its gold answer; keep it a draft until "
        "it has one")}
    assert ui_store.get_item("ui/alpha")["version"] == 1
    for status in ("candidate", "verified", "rejected"):
        _, outcome = editor.save(work, form | {"status": status}, None, "", "ann")
        assert outcome["message"] == (f"Gold answer: empty: a {status} item needs its gold "
                                      "answer; keep it a draft until it has one")
    # a draft may wait for its answer, and the save says it has none
    _, outcome = editor.save(work, form | {"status": "draft"}, None, "", "ann")
    assert outcome["kind"] == "saved", outcome
    assert outcome["message"] == ("Saved ui/alpha as version 2. It has no gold answer yet: "
                                  "it stays a draft until it has one.")
    assert ui_store.get_item("ui/alpha")["answer"] == ""
