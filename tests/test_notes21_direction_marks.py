"""Text-direction controls in a revision comment or a review note are refused, named, the
text never quoted: "fixed typo \\u202egnp.exe\\u202c done" was listed in History as "fixed
typo exe.png done". A comment over its limit in spaces is refused in a draft too: checked
stripped, 6,000,001 characters were kept and sent back at every reload."""
import pytest

from store import TooLargeError, ValidationError
from tests.test_conflict_merge import edit
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui.editor_handlers import EditorHandlers

SPOOF = "fixed typo \u202egnp.exe\u202c done"


def test_a_comment_or_note_with_direction_marks_is_refused(ui_store):
    item = ui_store.get_item("ui/alpha")
    with pytest.raises(ValidationError, match=r"U\+202C, U\+202E") as err:
        ui_store.save_item({**item, "question": "Q?"}, item["version"], "ann", SPOOF)
    assert "gnp" not in str(err.value)
    with pytest.raises(ValidationError, match="text-direction"):
        ui_store.add_review("ui/alpha", item["version"], "rev", "revise", SPOOF)
    assert ui_store.get_item("ui/alpha")["version"] == item["version"]
    assert ui_store.reviews("ui/alpha") == []
    # lines and tabs stay a note's own
    ui_store.add_review("ui/alpha", item["version"], "rev", "revise", "one\n\ttwo")


def test_the_page_says_why_and_saves_nothing(ui_store):
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "ann")
    form = editor.form_values(work["item"]) | {"question": "Changed?"}
    _, outcome = editor.save(work, form, None, SPOOF, "ann")
    assert outcome["kind"] == "invalid" and "text-direction" in outcome["message"], outcome
    assert "gnp" not in outcome["message"]
    assert edit(editor, work, "ann", question="Changed?")[1]["kind"] == "saved"


def test_a_draft_comment_over_its_limit_in_spaces_is_refused(ui_store):
    spaces = " " * 3000 + "Z" + " " * 3000
    with pytest.raises(TooLargeError, match="the revision comment is 6,001 characters"):
        ui_store.save_draft("ann", "ui/alpha", 1, {"question": "x"}, comment=spaces)
    assert ui_store.get_draft("ann", "ui/alpha") is None
