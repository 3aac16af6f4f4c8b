"""The save-conflict merge after an annotator review (annfix16a), on a real store: a box
dropped with an image a colleague removed is not said "added", and the stored comment says
it was dropped."""
from __future__ import annotations

from tests.live_server import make_scene
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui import editor_ops as ops
from ui import save_rules
from ui.editor_handlers import EditorHandlers


def test_a_box_dropped_with_a_removed_image_is_not_said_added(ui_store, tmp_path):
    """The row read "both, merged: your new box added, but its box on image 1 goes: alice
    removed image 1" and the message "clue 1: your new box added. 1 box on an image alice
    removed was dropped.": the new box was dropped, History's comment said nothing of it."""
    second = ui_store.add_image(make_scene(tmp_path / "two.png", color="#123456"),
                                "two.png").sha256
    item = ui_store.get_item("ui/alpha")
    first = item["images"][0]
    item["clues"][0]["boxes"] = [{"image": first, "x0": 1, "y0": 1, "x1": 9, "y1": 9}]
    ui_store.save_item({**item, "images": [first, second]}, item["version"], "carol")
    editor = EditorHandlers(ui_store)
    alice, bob = editor.load("ui/alpha", "alice"), editor.load("ui/alpha", "bob")
    alice["item"], _ = ops.remove_image(alice["item"], 0)
    assert editor.save(alice, editor.form_values(alice["item"]), None, "",
                       "alice")[1]["kind"] == "saved"
    bob["item"]["clues"][0]["boxes"].append(
        {"image": first, "x0": 20, "y0": 20, "x1": 40, "y1": 40})
    form = {**editor.form_values(bob["item"]), "question": "Which exit is marked?"}
    _, outcome = editor.save(bob, form, None, "", "bob")
    assert outcome["kind"] == "conflict", outcome
    rows = {row[0]: row[1] for row in outcome["diff"]}
    assert "added" not in rows["clue 1"], rows
    assert "its box on image 1 goes: alice removed image 1" in rows["clue 1"], rows
    _, saved = editor.save(bob, form, None, "", "bob", base_version=outcome["current_version"])
    assert saved["kind"] == "saved", saved
    assert "added" not in saved["message"], saved["message"]
    assert "1 box on an image alice removed was dropped." in saved["message"]
    comment = ui_store.history("ui/alpha")[0]["comment"]
    assert "dropped: 1 box of bob's on a removed image" in comment, comment


def test_a_merge_over_my_other_tab_and_a_colleague_credits_each_part_to_its_author(ui_store):
    """bob's tab 1 saved the question (2), alice clue 1 and the GT reasoning (3); bob's tab 2,
    from 1, changed both too. Stored: "merged with version 3 by alice (bob's other tab's and
    alice's taken over bob's: clue 1 text; bob's kept over bob's other tab's and alice's: GT
    reasoning)"; the panel asked to take from "your other tab and alice's version" and its
    rows read "both (you choose)"."""
    from tests.test_conflict_merge import edit
    editor = EditorHandlers(ui_store)
    tab1, tab2 = editor.load("ui/alpha", "bob"), editor.load("ui/alpha", "bob")
    assert edit(editor, tab1, "bob", question="Bob's question?")[1]["kind"] == "saved"
    alice = editor.load("ui/alpha", "alice")
    assert edit(editor, alice, "alice", clue_text="alice's clue",
                gt_reasoning="alice's")[1]["kind"] == "saved"
    tab2, outcome = edit(editor, tab2, "bob", clue_text="bob's clue", gt_reasoning="bob's")
    assert outcome["kind"] == "conflict", outcome
    rows = {row[0]: row[1] for row in outcome["diff"]}
    assert rows["GT reasoning"] == "both (alice and this tab; you choose)", rows
    assert rows["clue 1"].startswith("both (alice and this tab; you choose"), rows
    assert rows["question"] == "your other tab (its edit kept)", rows
    assert outcome["by"] == "alice"
    form = editor.form_values(tab2["item"])
    _, saved = editor.save(tab2, form, None, "", "bob", take_saved=["clue 1"],
                           base_version=outcome["current_version"])
    assert saved["kind"] == "saved", saved
    comment = ui_store.history("ui/alpha")[0]["comment"]
    assert comment == ("merged with versions 2 (bob, other tab) and 3 (alice) (alice's taken "
                       "over bob's: clue 1 text; bob's kept over alice's: GT reasoning)"), comment
    # the message after the save names the same versions (it said "version 3 by alice"
    # only: a review, round 19)
    assert "Merged with versions 2 (bob, other tab) and 3 (alice)" in saved["message"], saved


def test_each_side_numbers_its_images_as_it_has_them():
    """They removed image 1: the saved side read "image 2, image 3, image 4"."""
    from ui import conflict_rows as cr
    base = {"images": ["s1", "s2", "s3"], "question": "q"}
    theirs = {"images": ["s2", "s3"], "question": "q"}
    mine = {"images": ["s1", "s2", "s3"], "question": "q?"}
    row = {r[0]: r for r in cr.rows(base, theirs, mine)}["images"]
    assert row[2] == "image 1 (s2)\nimage 2 (s3)", row
    assert row[3] == "image 1 (s1)\nimage 2 (s2)\nimage 3 (s3)", row


def test_a_side_that_did_not_change_a_part_is_not_marked():
    """In an own-tab conflict "yours" marked the base text (mine unchanged) as my edit."""
    from ui import conflict_rows as cr
    from ui.conflict_marks import marked_rows
    base, theirs = {"question": "Which exit?"}, {"question": "Which exit is signposted?"}
    mine = {"question": "Which exit?", "gt_reasoning": "mine"}
    rows = cr.rows(base, theirs, base | mine, other_tab=True)
    table = marked_rows(rows, None, cr.row_sides(base, theirs, base | mine))
    question = {r[0]: r for r in table}["question"]
    assert "<mark" in question[2] and "<mark" not in question[3], question
    reasoning = {r[0]: r for r in table}["GT reasoning"]
    assert "<mark" not in reasoning[2] and "<mark" in reasoning[3], reasoning


def test_a_linked_choice_kept_names_only_the_parts_they_changed():
    """"option B, answer — taken together" kept read "yours kept over theirs: option B,
    answer": they never touched the answer."""
    from ui import conflict_merge as cm
    a, b = {"label": "A", "text": "red"}, {"label": "B", "text": "blue"}
    base = {"answer_type": "multiple_choice", "answer": "A", "options": [a, b]}
    theirs = {**base, "options": [a]}
    mine = {**base, "answer": "B"}
    assert cm.both_changed(base, theirs, mine) == ["answer, option B — taken together"]
    taken, kept, _ = cm.choices_made(base, theirs, mine, [])
    assert (taken, kept) == ([], ["option B"])
    assert save_rules.merge_choices(taken, kept) == " (yours kept over theirs: option B)"
