"""An id someone types (the id box, `?item=`, load_item, a new or duplicate id, the command
line's ITEM) that is over the id limit or holds a control or text-direction character is
refused in words that never quote it: load_item answered "no item with id 'iii…'", all
1,000,018 characters, and sent line breaks and U+202E back raw (a security review)."""
from __future__ import annotations

import pytest

from domain.item_ids import typed_id_refusal
from domain.limits import MAX_ITEM_ID
from tests.live_server import build_ui_db
from tests.test_cli import cli
from tests.test_ui_handlers import ui_store  # noqa: F401 - the fixture
from ui.editor_handlers import EditorHandlers
from ui.editor_model import EditError
from ui.lifecycle_handlers import LifecycleHandlers

HUGE = "i" * 1_000_000
HOSTILE = "ui/alpha\n\u202eforged line"


def test_the_refusal_says_the_length_or_the_characters_never_the_id():
    assert typed_id_refusal(HUGE) == "the id is 1,000,000 characters; ids are at most 200"
    assert typed_id_refusal(HOSTILE) == ("the id holds control, invisible or text-direction "
                                         "characters (U+000A, U+202E); ids hold none")
    assert typed_id_refusal("demo/bus-stop-wait") is None
    assert typed_id_refusal("x" * MAX_ITEM_ID) is None


@pytest.mark.parametrize("typed", [HUGE, HOSTILE])
def test_the_editor_and_the_item_menu_refuse_without_quoting(ui_store, typed):  # noqa: F811
    editor, menu = EditorHandlers(ui_store), LifecycleHandlers(ui_store)
    calls = (lambda: editor.load(typed, "ann"),
             lambda: menu.new_item_id(typed, "a question?", "ui"),
             lambda: menu.duplicate("ui/alpha", typed, "ann"))
    for call in calls:
        with pytest.raises(EditError) as refused:
            call()
        message = str(refused.value)
        assert len(message) < 200 and "iiii" not in message, message[:300]
        assert "\n" not in message and "\u202e" not in message and "forged" not in message


def test_a_store_lookup_of_a_long_id_is_cut_short(ui_store):  # noqa: F811
    from store import NotFoundError
    with pytest.raises(NotFoundError) as missing:
        ui_store.get_item(HUGE)
    assert len(str(missing.value)) < 300


def test_the_command_lines_item_commands_refuse_without_quoting(tmp_path):
    db = tmp_path / "c.db"
    build_ui_db(db)
    long_id = "i" * 100_000                     # what one argument of a command may hold
    for words in (("delete", long_id), ("restore", HOSTILE), ("duplicate", "ui/alpha", long_id),
                  ("duplicate", "ui/alpha", HOSTILE), ("reopen", long_id, "--reason", "r")):
        done = cli("item", *words, "--db", db)
        assert done.returncode == 2, words[0]
        assert len(done.stderr) < 200 and "iiii" not in done.stderr, done.stderr[:300]
        assert "\u202e" not in done.stderr and "forged" not in done.stderr
    assert "100,000 characters; ids are at most 200" in cli("item", "delete", long_id,
                                                            "--db", db).stderr
