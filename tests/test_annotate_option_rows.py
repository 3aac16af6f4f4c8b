"""An annotator's review of the Annotate page, tested on the page's own handlers
(ui.server.build_app's events, called as plain functions on a real SQLite store): Remove
option acting on the option row selected on the item before, removals and replaced option
images said nowhere, a save silent about the aliases it left out, and the refusal of a
numeric gold that named its field twice and never the comma."""
from __future__ import annotations

import gradio as gr
import pytest

from tests.test_annotate_page_fixes import out, switch_values
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from tests.live_server import make_scene
from ui import answer_form as af
from ui import editor_ops as ops
from ui.editor_handlers import EditorHandlers
from ui.server import build_app

PAGE = gr.Request(headers={"origin": "http://127.0.0.1:7860"})     # a page of this site


@pytest.fixture
def handlers(ui_store):
    return {fn.api_name: fn.fn for fn in build_app(ui_store).fns.values()}


def test_an_item_opened_has_no_option_row_and_no_clue_row_selected(ui_store, handlers):
    """The Selected option box kept "C" of the item left: Remove option then removed option
    C of the item opened, without a word. Every item opened empties it (and the clue row
    selected); a switch of the answer type, which sets the options aside, empties it too."""
    work = EditorHandlers(ui_store).load("ui/alpha", "local")
    for opened in (handlers["load_item"]("ui/gamma", work, [], [], None, PAGE),
                   handlers["discard_draft"](work, PAGE)):
        assert out(opened, "option_label") == "" and out(opened, "selected_clue") is None
    gamma = EditorHandlers(ui_store).load("ui/gamma", "local")
    with pytest.warns(UserWarning, match="options are set aside"):
        switched = handlers["switch_answer_type"](
            PAGE, gamma, *switch_values(gamma["item"], answer_type="open"))
    assert switched[-2] == ""


def test_remove_option_wants_a_row_and_says_what_it_removed(ui_store, handlers, capsys):
    work = EditorHandlers(ui_store).load("ui/gamma", "local")
    values = switch_values(work["item"])
    with pytest.raises(gr.Error, match="select an option row first"):
        handlers["remove_option"](PAGE, work, "", *values)
    shown = handlers["remove_option"](PAGE, work, "B", *values)
    assert [o["label"] for o in shown[0]["item"]["options"]] == ["A"]
    assert 'Removed option B "red". Not saved yet: Discard draft brings it back.' in \
        capsys.readouterr().out
    item = {"options": [{"label": "C", "text": "", "image": "sha"}]}
    assert ops.removed_option_note(item, "C") == \
        "Removed option C (an image). Not saved yet: Discard draft brings it back."


def test_an_option_image_replaced_or_removed_is_said(ui_store, handlers, tmp_path, capsys):
    """Set option image replaced the image an option had, without a word (of whichever
    option the Selected option box named)."""
    work = EditorHandlers(ui_store).load("ui/gamma", "local")
    values = switch_values(work["item"])
    first, second = (make_scene(tmp_path / f"{n}.png", color=c)
                     for n, c in (("one", "#102030"), ("two", "#405060")))
    shown = handlers["set_option_image"](PAGE, work, "A", str(first), *values)
    assert "Replaced" not in capsys.readouterr().out      # a first image replaces nothing
    work = shown[0]
    shown = handlers["set_option_image"](PAGE, work, "A", str(second), *values)
    assert 'Replaced the image of option A "blue". Not saved yet: Discard draft brings it ' \
        'back.' in capsys.readouterr().out
    handlers["clear_option_image"](PAGE, shown[0], "A", *values)
    assert 'Removed the image of option A "blue".' in capsys.readouterr().out
    with pytest.raises(gr.Error, match="select an option row first"):
        handlers["set_option_image"](PAGE, work, "", str(first), *values)


def test_a_save_says_the_aliases_and_options_it_left_out(ui_store):
    """Numeric with two aliases switched to multiple choice: the note said "2 accepted
    alias(es) wait aside … a save leaves them out", and the save said only "Saved … as
    version 2"."""
    editor = EditorHandlers(ui_store)
    item = ui_store.get_item("ui/alpha")
    ui_store.save_item({**item, "answer_type": "numeric", "aliases": ["12 km", "twelve km"]},
                       item["version"], "fixture")
    work = editor.load("ui/alpha", "local")
    switched, _ = af.switch_type(work["item"], "multiple_choice")
    assert af.answer_notes(switched)[-1].startswith("2 accepted aliases wait aside")
    switched["options"] = [{"label": "A", "text": "12", "image": None}]
    form = editor.form_values(switched) | {"answer": "A"}
    _, outcome = editor.save({**work, "item": switched}, form, None, "", "local")
    assert outcome["kind"] == "saved", outcome
    assert "2 accepted aliases were left out (multiple_choice takes none)." in \
        outcome["message"]
    assert ui_store.get_item("ui/alpha")["aliases"] == []
    # options left aside: a multiple-choice item saved as open
    gamma = editor.load("ui/gamma", "local")
    opened, _ = af.switch_type(gamma["item"], "open")
    _, outcome = editor.save({**gamma, "item": opened},
                             editor.form_values(opened) | {"answer": "blue"}, None, "",
                             "local")
    assert "2 options were left out (open has no options)." in outcome["message"]
    one = af.left_out_note({"answer_type": "numeric", af.ALIASES_ASIDE: ["bayern"]})
    assert one == "1 accepted alias was left out (not valid for numeric)."


def test_a_numeric_gold_refused_names_the_comma_once(ui_store):
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "local")
    form = editor.form_values(work["item"]) | {"answer_type": "numeric",
                                               "answer_number": "3,14159"}
    switched, _ = af.switch_type(work["item"], "numeric")
    _, outcome = editor.save({**work, "item": switched}, form, None, "", "local")
    assert outcome["kind"] == "invalid"
    assert outcome["message"] == (
        "the gold answer '3,14159' is no number the scorer can read: write one number, a "
        "unit or currency allowed (12.8, 5.30 €, €5.30, 3 km, 8 minutes), nothing after the "
        "unit; a comma before three digits groups thousands (1,200), before one or two it is a decimal comma (5,30)")
