"""An admin's release of an item no approving review covers says so: t/mc, approved at
version 6 and then edited back to in_review, was released with "Saved … released" alone."""
from __future__ import annotations

from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui.editor_handlers import EditorHandlers


def _release(editor, item_id):
    admin = editor.load(item_id, "admin")
    return editor.save(admin, editor.form_values(admin["item"]) | {"status": "released"},
                       None, "", "admin", may_release=True)[1]


def test_a_release_from_review_names_the_last_approval(ui_store):
    editor = EditorHandlers(ui_store)
    item = ui_store.get_item("ui/alpha")
    ui_store.save_item({**item, "status": "candidate"}, item["version"], "ann", "")
    ui_store.add_review("ui/alpha", 2, "rev", "approve", "")
    item = ui_store.get_item("ui/alpha")
    ui_store.save_item({**item, "question": "Changed after the approval?",
                        "status": "in_review"}, item["version"], "ann", "")
    done = _release(editor, "ui/alpha")
    assert done["kind"] == "saved", done
    assert "released from in_review: no approving review of what it holds (the last " \
           "approval is of version 2)" in done["message"], done["message"]


def test_a_release_of_a_verified_item_says_nothing_more(ui_store):
    editor = EditorHandlers(ui_store)
    item = ui_store.get_item("ui/alpha")
    ui_store.save_item({**item, "status": "verified"}, item["version"], "rev", "")
    done = _release(editor, "ui/alpha")
    assert done["message"].startswith("Saved ui/alpha as version 3, released (read-only)."), \
        done["message"]
