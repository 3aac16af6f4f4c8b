"""A released item needs a clue (annotator review): an admin set an item with no clue at all
to released, although a benchmark of visual clues has nothing to give models of it."""
from __future__ import annotations

import pytest

from store import Store
from tests.live_server import build_ui_db
from ui.editor_handlers import EditorHandlers


@pytest.fixture
def ui_store(tmp_path):
    build_ui_db(tmp_path / "ui.db")
    store = Store.open(tmp_path / "ui.db")
    yield store
    store.close()


def test_an_item_without_a_clue_is_not_released(ui_store):
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "admin")
    form = editor.form_values(work["item"])
    item = editor.collect(work, form, None)
    assert item["clues"], "the fixture's item has clues"
    bare = {**work, "item": {**work["item"], "clues": []}}
    form = editor.form_values(bare["item"])
    _, outcome = editor.save(bare, form | {"status": "released"}, None, "", "admin",
                             may_release=True)
    assert outcome == {"kind": "invalid", "message": (
        "Clues: none yet: a released item needs at least one clue with its text; add one "
        "(Add clue), or choose another status until it has one")}, outcome
    assert ui_store.get_item("ui/alpha")["status"] != "released"
    # other statuses may wait for clues; with a clue, the release is made
    _, outcome = editor.save(bare, form | {"status": "in_review"}, None, "", "admin",
                             may_release=True)
    assert outcome["kind"] == "saved", outcome
    work = editor.load("ui/alpha", "admin")
    assert work["item"]["clues"] == []
    clued = {**work, "item": {**work["item"], "clues": item["clues"]}}
    _, outcome = editor.save(clued, editor.form_values(clued["item"]) | {"status": "released"},
                             None, "", "admin", may_release=True)
    assert outcome["kind"] == "saved", outcome
    assert ui_store.get_item("ui/alpha")["status"] == "released"
