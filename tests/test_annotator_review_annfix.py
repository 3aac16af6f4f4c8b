"""An annotator's review of the Annotate page, through the handlers on a real store: a
numeric alias that is a number and a description ("100 cm bookcase"), the draft notice
after one's own delete and its undo, the restored-draft line after a save, what Add option
and Set option image say, the letters after a removed option."""
import gradio as gr
import pytest

from tests.live_server import make_scene
from tests.test_annotate_page_fixes import switch_values
from tests.test_ui_answers import save
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from domain.numbers import read_quantity
from judges.gold_check import numeric_value
from judges.rules import judge_numeric
from ui import editor_model as em
from ui import editor_ops as ops
from ui.editor_handlers import EditorHandlers
from ui.lifecycle_handlers import LifecycleHandlers
from ui.server import build_app

PAGE = gr.Request(headers={"origin": "http://127.0.0.1:7860"})     # a page of this site


@pytest.mark.parametrize("text, value", [
    ("100 cm bookcase", None), ("3 km away", None), ("8 minutes walk", None),
    ("100 cm", 100.0), ("8 minutes", 8.0), ("3 apples", 3.0), ("50 km/h", 50.0),
    ("20 m²", 20.0), ("45 per cent", 45.0), ("12 sq ft", 12.0), ("60 km per hour", 60.0),
    ("5.30 €", 5.3), ("−5 °C", -5.0), ("8 min.", 8.0)])
def test_a_numeric_value_is_a_number_with_at_most_a_unit(text, value):
    """"100 cm bookcase" read as 100 with the unit "cm bookcase": a description after the
    number is no unit. One rule for the save and the scorer (domain/numbers)."""
    assert numeric_value(text) == value
    assert (read_quantity(text) or (None,))[0] == value


def test_a_numeric_alias_with_words_after_its_unit_is_refused_naming_it(ui_store):
    outcome, stored = save(ui_store, "ui/alpha", answer_type="numeric", answer_number="100",
                           aliases="100 cm\n100 cm bookcase")
    assert outcome["kind"] == "invalid", outcome
    assert ("Accepted aliases: the alias '100 cm bookcase' is no number the scorer can "
            "read: write one number") in outcome["message"]
    assert "3 km" in outcome["message"]          # it says what would do
    assert "'100 cm'" not in outcome["message"]
    assert stored["version"] == 1
    outcome, stored = save(ui_store, "ui/alpha", answer_type="numeric", answer_number="100",
                           aliases="100 cm")
    assert outcome["kind"] == "saved" and stored["aliases"] == ["100 cm"]
    # the scorer still finds the number in a reply that says more
    assert judge_numeric("the 100 cm bookcase", "100").value == "correct"


def test_after_undoing_ones_own_delete_the_draft_notice_says_it_was_ones_own(ui_store):
    """It said "the item is now at version 3 (saved by ann …): saving will show the
    differences first", a colleague's change, of the annotator's own delete and its undo."""
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "ann")
    form = editor.form_values(work["item"]) | {"question": "Edited before the delete?"}
    assert editor.autosave(work, form, None, "ann", "tab1") == "unsaved edits of question (draft kept)"
    menu = LifecycleHandlers(ui_store)
    menu.delete(work, "", "ann")
    menu.undo_own_delete("ui/alpha", "ann")
    notice = editor.load("ui/alpha", "ann")["notice"]
    assert notice.startswith("Restored your unsaved draft from ")
    assert notice.endswith(" It is based on version 1; since then you deleted the item and "
                           "undid the delete (now version 3), which changed none of its "
                           "content: saving keeps your edits."), notice
    assert "saved by" not in notice and "differences" not in notice
    # a colleague's change of the content is still theirs, and said so
    ui_store.save_item({**ui_store.get_item("ui/alpha"), "question": "bob's"}, 3, "bob", "")
    notice = editor.load("ui/alpha", "ann")["notice"]
    assert "now at version 4 (saved by bob at " in notice
    assert notice.endswith("saving will show the differences first.")
    # and the author's own change, in another tab, is the user's
    ui_store.save_item({**ui_store.get_item("ui/alpha"), "question": "mine"}, 4, "ann", "")
    assert "(saved by you, in another tab or window at " in editor.load("ui/alpha", "ann")["notice"]


def test_the_restored_draft_line_goes_when_a_save_finds_nothing_to_save(ui_store):
    """"Restored your unsaved draft" stayed after the edits were undone and saved ("Nothing
    to save"): the draft was gone, the line said it was there."""
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "ann")
    as_saved = editor.form_values(work["item"])
    editor.autosave(work, as_saved | {"question": "Typed, then undone"}, None, "ann", "tab1")
    work = editor.load("ui/alpha", "ann")
    assert work["notice"].startswith("Restored your unsaved draft")
    assert editor.without_restored_notice(work, "ann") is work     # the draft is still there
    after, outcome = editor.save(work, as_saved, None, "", "ann", session="tab1")
    assert outcome["kind"] == "unchanged"
    assert ui_store.get_draft("ann", "ui/alpha") is None
    assert "Restored" not in editor.without_restored_notice(after, "ann")["notice"]


@pytest.fixture
def handlers(ui_store):
    return {fn.api_name: fn.fn for fn in build_app(ui_store).fns.values()}


def test_add_option_and_set_option_image_say_what_they_did(ui_store, handlers, tmp_path,
                                                           capsys):
    """Remove option said what it removed; Add option and a first option image said
    nothing. The toast shows in the save bar's message box (assets/toasts.js), escaped."""
    work = EditorHandlers(ui_store).load("ui/gamma", "local")
    values = switch_values(work["item"])
    shown = handlers["add_option"](PAGE, work, "", *values)
    assert [o["label"] for o in shown[0]["item"]["options"]] == ["A", "B", "C"]
    assert "Option C added. Not saved yet: Discard draft takes it out." in \
        capsys.readouterr().out
    image = make_scene(tmp_path / "one.png", color="#102030")
    handlers["set_option_image"](PAGE, work, "B", str(image), *values)
    assert 'Image set for option B "red".' in capsys.readouterr().out
    handlers["set_option_image"](PAGE, work, "E", str(image), *values)
    assert "Option E added, with the image." in capsys.readouterr().out
    with pytest.raises(gr.Error, match="reads as markup.*1 to 4 capital letters"):
        handlers["set_option_image"](PAGE, work, "<b>E</b>", str(image), *values)   # ctrlchars


def test_an_option_added_after_a_removal_takes_the_letter_after_the_last():
    """Option B removed, one added: it took the freed B and was listed last (A, C, D, B).
    The letters stay in order; the options keep theirs (a relabel would change what the
    gold and the history name)."""
    item = {"answer": "A", "options": [{"label": x, "text": x, "image": None} for x in "ABCD"]}
    item, label = ops.add_option(ops.remove_option(item, "B"))
    assert label == "E"
    assert [row[0] for row in em.option_rows(item)] == ["A", "C", "D", "E"]
    assert item["answer"] == "A"
    # the last one removed and one added: its letter again (the gold names none of them)
    item, label = ops.add_option(ops.remove_option(item, "E"))
    assert label == "E"
    # labels that are no letters (an import's 1, 2): the first letter
    assert ops.add_option({"options": [{"label": "1", "text": "x", "image": None}]})[1] == "A"
