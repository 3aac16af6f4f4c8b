"""A save or an autosave whose answer type is not the working copy's: the page's Answer type
list changed (chosen with the keys) while the form stayed as for the old type. The save
wrote the new type with the old gold dropped, unsaid; now it converts as the switch does,
saves nothing, and shows the switched form with the switch's words. Tested on the page's
own handlers (ui.server.build_app's events) over a real SQLite store."""
from __future__ import annotations

import pytest

from tests.test_annotate_page_fixes import PAGE, handlers, out, switch_values  # noqa: F401
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui import answer_form as af
from ui import messages
from ui.annotate_drafts import draft_key
from ui.editor_handlers import EditorHandlers


def open_with_options_aside(store) -> dict:
    """ui/gamma (multiple choice, gold A, options A blue and B red) switched to open as the
    page switches it: gold 'blue', the two options set aside."""
    work = EditorHandlers(store).load("ui/gamma", "local")
    item, _ = af.switch_type(work["item"], "open")
    assert (item["answer"], len(item[af.OPTIONS_ASIDE])) == ("blue", 2)
    return {**work, "item": item}


def test_a_save_with_the_type_changed_but_not_the_form_converts_and_saves_nothing(
        ui_store, handlers):
    work = open_with_options_aside(ui_store)
    # the list says yes_no, the form is the open one's, its gold box typed 'Green'
    values = switch_values(work["item"], answer_type="yes_no", answer="Green")
    shown = handlers["save_item"](PAGE, work, *values, "", [])
    assert out(shown, "save_message") == messages.status(
        "Not saved: the answer type says yes_no but the form still showed the open answer; it "
        "is switched now. The gold answer 'Green' is not a valid yes_no answer: it is set "
        "aside (it comes back if you switch back to open before saving). Enter the gold "
        "answer again in the control shown. Check the answer, then save again.")
    saved = ui_store.get_item("ui/gamma")
    assert (saved["version"], saved["answer_type"], saved["answer"]) == \
        (1, "multiple_choice", "A")
    switched = out(shown, "work")["item"]
    assert (switched["answer_type"], switched["answer"], switched[af.GOLD_ASIDE]) == \
        ("yes_no", "", "Green")
    assert len(switched[af.OPTIONS_ASIDE]) == 2 and switched["options"] == []
    assert out(shown, "answer_type") == "yes_no"        # the form shows the new type now
    # switched back to open on the page, the set-aside gold and the options come back
    back, _ = af.switch_type(switched, "open")
    assert back["answer"] == "Green" and len(back[af.OPTIONS_ASIDE]) == 2


def test_the_switched_form_then_saves_the_new_types_gold(ui_store, handlers):
    work = open_with_options_aside(ui_store)
    shown = handlers["save_item"](PAGE, work, *switch_values(work["item"],
                                                             answer_type="yes_no"), "", [])
    switched = out(shown, "work")
    values = switch_values(switched["item"], answer_yes_no="Yes")
    handlers["save_item"](PAGE, switched, *values, "", [])
    saved = ui_store.get_item("ui/gamma")
    assert (saved["version"], saved["answer_type"], saved["answer"], saved["options"]) == \
        (2, "yes_no", "Yes", [])


def test_an_autosave_with_the_type_changed_keeps_the_typed_gold_aside(ui_store, handlers):
    """The draft held the new type with the gold box's typed text lost."""
    editor = EditorHandlers(ui_store)
    work = open_with_options_aside(ui_store)
    values = switch_values(work["item"], answer_type="numeric", answer="Green")
    handlers["autosave_draft"](PAGE, draft_key(work), work, "", *values)
    draft = editor.load("ui/gamma", "local")["item"]
    assert (draft["answer_type"], draft["answer"], draft[af.GOLD_ASIDE]) == \
        ("numeric", "", "Green")
    assert draft["options"] == [] and len(draft[af.OPTIONS_ASIDE]) == 2


def test_a_gold_naming_an_image_option_is_set_aside_not_saved_under_open(ui_store, handlers):
    """ui/gamma's options are images only (no text) and its gold is A: switched to open, the
    toast said 'A' was set aside, but the gold box kept "A" and the save stored an open
    item whose gold was "A". Now, as a numeric switch does, the box is empty, "A" waits
    aside (it is back on multiple choice) and a save past draft is refused for no gold."""
    work = EditorHandlers(ui_store).load("ui/gamma", "local")
    image = work["item"]["images"][0]
    options = [{**o, "text": "", "image": image} for o in work["item"]["options"]]
    work = {**work, "item": {**work["item"], "options": options}}
    with pytest.warns(UserWarning, match="'A' comes back if you switch back"):
        shown = handlers["switch_answer_type"](PAGE, work, *switch_values(
            work["item"], answer_type="open"))
    switched = shown[0]["item"]
    assert (switched["answer_type"], switched["answer"], switched[af.GOLD_ASIDE]) == \
        ("open", "", "A")
    values = switch_values(switched, status="in_review")
    after = handlers["save_item"](PAGE, shown[0], *values, "", [])
    assert "needs its gold answer" in out(after, "save_message")
    saved = ui_store.get_item("ui/gamma")
    assert (saved["version"], saved["answer_type"], saved["answer"]) == \
        (1, "multiple_choice", "A")
    back, _ = af.switch_type(switched, "multiple_choice")
    assert back["answer"] == "A" and len(back["options"]) == 2
