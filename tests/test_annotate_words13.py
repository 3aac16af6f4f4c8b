"""An annotator reviewer's confusions on the Annotate page, tested on the handlers and a real
store: a refused delete that said "you edited" in a stored ISO time and left the user there,
and a save merged over an approving review that said the status twice. (The page's progress
timers, the review toast and the API link: tests/browser/test_annotate_words13.py.)"""
import re

from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui.editor_handlers import EditorHandlers
from ui.lifecycle_handlers import LifecycleHandlers
from ui.editor_model import EditError


def test_a_delete_refused_over_a_newer_version_says_what_was_open_and_what_to_do(
        ui_store):  # noqa: F811
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "ann1")                  # version 1, only open
    ui_store.save_item({**ui_store.get_item("ui/alpha"), "question": "Which exit?"}, 1,
                       "ann2", "")
    try:
        LifecycleHandlers(ui_store).delete(work, "", "ann1")
    except EditError as err:
        said = str(err)
    else:
        raise AssertionError("deleted over version 2")
    assert "you edited" not in said, said
    assert "you had version 1 open" in said and "by ann2" in said, said
    assert not re.search(r"\dT\d\d:\d\d", said), said              # no raw ISO time
    assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", said), said
    assert "to see version 2, then delete it if you still want to" in said, said


def test_a_save_over_an_approving_review_says_it_is_back_in_review_once(ui_store):  # noqa: F811
    """"Merged over ann2's review: approved; status in_review. It was verified: changed, it
    is back in review (status in_review).": the status twice, reading as a contradiction."""
    ui_store.save_item({**ui_store.get_item("ui/alpha"), "status": "in_review"}, 1, "ann1", "")
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "ann1")                  # version 2, in review
    ui_store.add_review("ui/alpha", 2, "ann2", "approve", "")     # version 3, verified
    assert ui_store.get_item("ui/alpha")["status"] == "verified"
    form = editor.form_values(work["item"]) | {"question": "Which exit is it?"}
    _, outcome = editor.save(work, form, None, "", "ann1")
    assert outcome["kind"] == "saved" and outcome["version"] == 4, outcome
    said = outcome["message"]
    assert said.count("in_review") == 1 and said.count("review") == 2, said
    assert said.startswith("Saved ui/alpha as version 4. ann2 had approved version 2. Your "
                           "changes put the verified item back in review (status in_review)."), said
    assert ui_store.get_item("ui/alpha")["status"] == "in_review"
