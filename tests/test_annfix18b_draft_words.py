"""The Annotate page's draft line in words that say what happened (annotator review): "clues
added" after adding one clue, and "a new box without a clue" of a box relabelled."""
from __future__ import annotations

import pytest

from store import Store
from tests.live_server import build_ui_db
from ui.editor_handlers import EditorHandlers


@pytest.fixture
def editor(tmp_path):
    build_ui_db(tmp_path / "ui.db")
    store = Store.open(tmp_path / "ui.db")
    yield EditorHandlers(store)
    store.close()


def test_the_draft_line_numbers_the_clues_added(editor):
    work = editor.load("ui/alpha", "ann")
    form = editor.form_values(work["item"])
    one = form | {"clues": [*form["clues"], ["clue 2", "A red roof", "", "0"]]}
    assert editor.autosave(work, one, None, "ann", "t") == \
        "unsaved edits: clue 2 added (draft kept)"
    two = form | {"question": "Which exit?",
                  "clues": [*one["clues"], ["clue 3", "A tall mast", "", "0"]]}
    assert editor.autosave(work, two, None, "ann", "t") == \
        "unsaved edits of question; clues 2 and 3 added (draft kept)"


def test_the_draft_line_says_a_box_was_relabelled(editor):
    work = editor.load("ui/alpha", "cy")
    box = {"label": "clue 1", "color": (0, 0, 0), "xmin": 2, "ymin": 2, "xmax": 20, "ymax": 20}
    _, outcome = editor.save(work, editor.form_values(work["item"]), [box], "", "cy")
    assert outcome["kind"] == "saved", outcome
    work = editor.load("ui/alpha", "cy")
    line = editor.autosave(work, editor.form_values(work["item"]),
                           [{**box, "label": "clue 9"}], "cy", "t")
    assert line == ("unsaved edits of clue 1; box of clue 1 relabelled “clue 9”, no such "
                    "clue (draft kept)"), line
    new = {**box, "label": "", "xmin": 30, "xmax": 40}
    line = editor.autosave(work, editor.form_values(work["item"]), [box, new], "cy", "t")
    # a box whose clue picker is still open is not kept (test_annfix20a_drafts.py)
    assert line == "", line
