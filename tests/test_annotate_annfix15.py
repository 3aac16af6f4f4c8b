"""The save-conflict merge after an annotator review (annfix15), on a real store: an
option's text and image merged apart, a box on an image they removed said before saving,
the changes of several authors since the base each named, History's merge comments naming
the people, and a delete with its undo said as one."""
from __future__ import annotations

from tests.live_server import make_scene
from tests.test_conflict_merge import edit
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui import conflict_merge as cm
from ui import save_rules
from ui.editor_handlers import EditorHandlers


def _option_text_and_image(ui_store, tmp_path, their_image=False):
    """alice changes ui/gamma's option B text and saves; bob, from version 1, sets an image
    on option B: (editor, bob's work, the conflict, the image)."""
    blue = ui_store.add_image(make_scene(tmp_path / "b.png", color="#2040c0"), "b.png").sha256
    editor = EditorHandlers(ui_store)
    bob = editor.load("ui/gamma", "bob")
    gamma = ui_store.get_item("ui/gamma")
    changed = {**gamma["options"][1], "text": "red (deal + croissant)"}
    ui_store.save_item({**gamma, "options": [gamma["options"][0], changed]}, 1, "alice")
    bob["item"]["options"][1]["image"] = blue
    bob, outcome = editor.save(bob, editor.form_values(bob["item"]), None, "", "bob")
    assert outcome["kind"] == "conflict", outcome
    return editor, bob, outcome, blue


def test_one_changing_an_options_text_and_the_other_its_image_keeps_both(ui_store, tmp_path):
    """"option B — both (you choose)", one checkbox: unticked, alice's text was gone."""
    editor, bob, outcome, blue = _option_text_and_image(ui_store, tmp_path)
    [row] = [r for r in outcome["diff"] if r[0] == "option B"]
    assert row[1] == "both, merged: their text, your image"
    assert outcome["both"] == []
    _, saved = editor.save(bob, editor.form_values(bob["item"]), None, "", "bob",
                           base_version=outcome["current_version"])
    assert saved["kind"] == "saved", saved
    option = ui_store.get_item("ui/gamma")["options"][1]
    assert (option["text"], option["image"]) == ("red (deal + croissant)", blue)


def test_an_option_part_both_changed_is_the_only_choice():
    """Both changed the text, one also the image: the text is the choice, the image kept."""
    was = {"label": "B", "text": "€5.30"}
    base = {"options": [was], "answer_type": "multiple_choice", "answer": "B"}
    theirs = {**base, "options": [{**was, "text": "€5.30 (deal)"}]}
    mine = {**base, "options": [{**was, "text": "€5.40", "image": "s1"}]}
    assert [r[:2] for r in cm.rows(base, theirs, mine)] == [
        ["option B", "both (you choose: text; the rest merged)"]]
    assert cm.both_changed(base, theirs, mine) == ["option B"]
    assert cm.merge(base, theirs, mine, ["option B"])["options"] == [
        {"label": "B", "text": "€5.30 (deal)", "image": "s1"}]
    assert cm.merge(base, theirs, mine)["options"] == [
        {"label": "B", "text": "€5.40", "image": "s1"}]
    same = {**base, "options": [{**was, "text": "€5.40"}]}
    assert [r[1] for r in cm.rows(base, theirs, same)] == ["both (you choose)"]
