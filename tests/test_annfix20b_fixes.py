"""annfix20b: what the annotator's round found, tested on the handlers (real SQLite)."""
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui.editor_handlers import EditorHandlers
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
