"""Item menu → Undo delete brought the item back with the save bar empty (a toast alone,
which fades), while Restore (admins) and Delete say theirs there. Tested on the page's own
handlers (ui.server.build_app's events, called as plain functions on a real SQLite store)."""
from __future__ import annotations

from tests.test_annotate_page_fixes import PAGE, handlers, out  # noqa: F401
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui import messages
from ui.editor_handlers import EditorHandlers


def test_undo_delete_says_restored_and_the_version_in_the_save_bar(ui_store, handlers):
    work = EditorHandlers(ui_store).load("ui/beta", "local")
    ids = ui_store.item_ids()
    deleted = handlers["delete_item"](work, "oops", ids, PAGE)
    assert "Deleted ui/beta" in out(deleted, "save_message")
    shown = handlers["undo_delete"](out(deleted, "work"), "ui/beta", PAGE)
    version = ui_store.get_item("ui/beta")["version"]
    assert out(shown, "save_message") == messages.status(
        f"Restored ui/beta (version {version}).")
    assert out(shown, "item_id") == "ui/beta"
