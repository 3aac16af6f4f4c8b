"""The save-conflict merge after an annotator review (annfix15), on a real store: an
option's text and image merged apart, a box on an image they removed said before saving,
the changes of several authors since the base each named, History's merge comments naming
the people, and a delete with its undo said as one."""
from __future__ import annotations

from tests.live_server import make_scene
from tests.test_conflict_merge import edit
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui import conflict_merge as cm
from ui import conflict_rows as cr
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
    assert [r[:2] for r in cr.rows(base, theirs, mine)] == [
        ["option B", "both (you choose: text; the rest merged)"]]
    assert cm.both_changed(base, theirs, mine) == ["option B"]
    assert cm.merge(base, theirs, mine, ["option B"])["options"] == [
        {"label": "B", "text": "€5.30 (deal)", "image": "s1"}]
    assert cm.merge(base, theirs, mine)["options"] == [
        {"label": "B", "text": "€5.40", "image": "s1"}]
    same = {**base, "options": [{**was, "text": "€5.40"}]}
    assert [r[1] for r in cr.rows(base, theirs, same)] == ["both (you choose)"]


def _two_tabs_and_alice(ui_store):
    """bob's tab 2 opens ui/alpha (version 1); alice saves the question and GT reasoning
    (2); bob's tab 1, also from 1, saves aliases, merged (3); tab 2 changes the question:
    (editor, tab 2's work, the conflict)."""
    editor = EditorHandlers(ui_store)
    tab2, tab1 = editor.load("ui/alpha", "bob"), editor.load("ui/alpha", "bob")
    alice = editor.load("ui/alpha", "alice")
    assert edit(editor, alice, "alice", question="Alice's question?",
                gt_reasoning="alice's reasoning")[1]["kind"] == "saved"
    tab1, outcome = edit(editor, tab1, "bob", aliases="twelve")
    assert outcome["kind"] == "conflict"
    _, saved = editor.save(tab1, editor.form_values(tab1["item"]), None, "", "bob",
                           base_version=outcome["current_version"])
    assert saved["kind"] == "saved" and saved["version"] == 3, saved
    tab2, outcome = edit(editor, tab2, "bob", question="Bob's question?")
    assert outcome["kind"] == "conflict", outcome
    return editor, tab2, outcome


def test_a_colleagues_changes_are_not_credited_to_my_other_tab(ui_store):
    """"was changed by you, in another tab or window", and alice's changes read "your
    other tab (its edit kept)": alice was named nowhere."""
    editor, tab2, outcome = _two_tabs_and_alice(ui_store)
    assert "was changed by alice and by you in another tab or window at " in \
        outcome["message"], outcome["message"]
    rows = {row[0]: row[1] for row in outcome["diff"]}
    assert rows["GT reasoning"] == "alice (theirs kept)"
    assert rows["aliases"] == "your other tab (its edit kept)"
    assert rows["question"] == "both (alice and this tab; you choose)"
    assert outcome["by"] == "alice"        # the one choice, the question, is alice's alone
    # keeping none of this tab's edits: who replaced them, in words that read right; the
    # question only alice changed is credited to her alone (panel17: it said "by alice and
    # by you in another tab or window")
    _, said = editor.save(tab2, editor.form_values(tab2["item"]), None, "", "bob",
                          base_version=outcome["current_version"], take_saved=["question"])
    assert said["message"] == (
        "Nothing to save: ui/alpha is as saved (version 3). Your edits of question were "
        "replaced by version 3, saved by alice.")


def test_a_part_changed_by_several_names_them_all():
    both = cr.rows({"question": "a"}, {"question": "b"}, {"question": "a"},
                   authors={"question": ["alice", "your other tab"]},
                   everyone=["alice", "your other tab"])
    assert both[0][1] == "them (alice, your other tab; theirs kept)"


def test_a_box_on_an_image_they_removed_is_said_before_saving(ui_store, tmp_path):
    """bob added a clue boxed on image 2, alice removed image 2: "clues you added — you
    (yours kept)", no warning; only after Save merged "1 box … was dropped"."""
    from ui import editor_ops as ops
    second = ui_store.add_image(make_scene(tmp_path / "two.png", color="#123456"),
                                "two.png").sha256
    item = ui_store.get_item("ui/alpha")
    first = item["images"][0]
    ui_store.save_item({**item, "images": [first, second]}, item["version"], "carol")
    editor = EditorHandlers(ui_store)
    alice, bob = editor.load("ui/alpha", "alice"), editor.load("ui/alpha", "bob")
    alice["item"], _ = ops.remove_image(alice["item"], 1)
    assert editor.save(alice, editor.form_values(alice["item"]), None, "",
                       "alice")[1]["kind"] == "saved"
    bob["item"]["clues"].append({"text": "a bakery sign", "reasoning": "", "boxes": [
        {"image": second, "x0": 60, "y0": 60, "x1": 95, "y1": 95}]})
    form = editor.form_values(bob["item"])
    _, outcome = editor.save(bob, form, None, "", "bob")
    assert outcome["kind"] == "conflict", outcome
    rows = {row[0]: row[1] for row in outcome["diff"]}
    assert rows["clues you added"] == (
        "you (yours kept), but 1 box on image 2 goes: alice removed image 2")
    assert rows["images"] == "them (theirs kept)"
    assert any("1 box on image 2 goes: alice removed image 2" in r[1] for r in outcome["table"])
    _, saved = editor.save(bob, form, None, "", "bob", base_version=outcome["current_version"])
    assert "1 box on an image alice removed was dropped." in saved["message"]


def test_my_new_box_on_a_clue_of_the_base_is_said_too():
    clue = {"text": "a sign", "reasoning": "", "boxes": []}
    base = {"clues": [clue], "images": ["s1", "s2"]}
    theirs = {"clues": [clue], "images": ["s1"]}
    box = {"image": "s2", "x0": 1, "y0": 1, "x1": 5, "y1": 5}
    mine = {"clues": [{**clue, "boxes": [box]}], "images": ["s1", "s2"]}
    lost = cr.lost_boxes(base, theirs, mine, "alice")
    assert lost == {"clues.0": "its box on image 2 goes: alice removed image 2"}
    assert cr.rows(base, theirs, mine, lost=lost)[0][:2] == [
        "clue 1", "you (yours kept), but its box on image 2 goes: alice removed image 2"]


def test_a_merges_stored_comment_names_the_people_not_yours_and_theirs(ui_store):
    """History read "merged with version 4 by bob (yours kept over theirs: option A)":
    whose "yours" is, for another reader? The saver's and the others' names now."""
    editor, tab2, outcome = _two_tabs_and_alice(ui_store)
    _, saved = editor.save(tab2, editor.form_values(tab2["item"]), None, "", "bob",
                           base_version=outcome["current_version"])
    assert saved["kind"] == "saved", saved
    comment = ui_store.history("ui/alpha")[0]["comment"]
    assert comment == ("merged with versions 2 (alice) and 3 (bob, other tab) (bob's kept "
                       "over alice's: question)"), comment
    # the saver's message keeps its "yours" and names who changed version 3
    # the versions named as the stored comment names them (round 19: the message said one)
    assert ("Merged with versions 2 (alice) and 3 (bob, other tab) (yours kept over theirs: "
            "question).") in saved["message"], saved["message"]
    assert save_rules.merge_choices(["question"], [], ("bob's", "alice's")) == \
        " (alice's taken over bob's: question)"


def test_a_save_merged_over_a_delete_and_its_undo_says_so(ui_store):
    """"Merged over versions 2, 3 by alice (no content changed)": the revisions tell it."""
    editor = EditorHandlers(ui_store)
    bob = editor.load("ui/alpha", "bob")
    ui_store.delete_item("ui/alpha", "alice", "by mistake")
    ui_store.restore_deleted("ui/alpha", "alice")
    _, outcome = edit(editor, bob, "bob", question="Bob's question?")
    assert outcome["kind"] == "saved", outcome
    assert "Merged over a delete and its undo (versions 2, 3 by alice); status " in \
        outcome["message"], outcome["message"]
    review = save_rules.merged_over([], [{"version": 3, "author": "bob", "comment": "x"}],
                                    "draft")
    assert review == "Merged over version 3 by bob (no content changed); status draft."


def test_the_clue_order_row_names_each_clue_by_its_text_now():
    """A clue moved and rewritten was named by its old text in "clue order"."""
    a, b = ({"text": t, "reasoning": "", "boxes": []} for t in ("a red sign", "a bakery"))
    base = {"clues": [a, b]}
    theirs = {"clues": [b, {**a, "text": "a red sign, left"}]}
    mine = {"clues": [a, {**b, "reasoning": "why"}]}
    [row] = [r for r in cr.rows(base, theirs, mine) if r[0] == "clue order"]
    assert row[2:] == ["a bakery\na red sign, left", "a red sign\na bakery"]


def test_a_clue_brought_back_is_not_said_added(ui_store):
    """alice removed clue 1; bob's tab 1 restored version 1; bob's tab 2 (from alice's
    version) read the clue as "clues they added"."""
    item = ui_store.get_item("ui/alpha")
    ui_store.save_item({**item, "clues": item["clues"][1:]}, 1, "alice")
    editor = EditorHandlers(ui_store)
    tab2 = editor.load("ui/alpha", "bob")
    ui_store.restore("ui/alpha", 1, "bob", 2)
    tab2, outcome = edit(editor, tab2, "bob", question="Bob's question?")
    assert outcome["kind"] == "conflict", outcome
    rows = {row[0]: row[1] for row in outcome["diff"]}
    assert rows[cr.RESTORED] == "your other tab (its edit kept)", rows
    assert "clues they added" not in rows


def test_save_merged_over_several_authors_does_not_say_your_other_tab():
    """The message's "Both changes kept — …" said "your other tab's text" of any change
    when the head version was the saver's own, whoever had made it."""
    was = {"label": "B", "text": "€5.30"}
    base = {"options": [was]}
    theirs, mine = {"options": [{**was, "text": "€5.30 (deal)"}]}, \
        {"options": [{**was, "image": "s1"}]}
    assert cm.combined(base, theirs, mine, "them") == ["option B: their text, this tab's image"]
    assert cm.combined(base, theirs, mine, True) == [
        "option B: your other tab's text, this tab's image"]
