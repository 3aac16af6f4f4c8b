"""Save merged merges the edits as the conflict panel showed them (panel17): edits changed
since the panel was shown are not saved, the panel is shown again and the edits stay a
draft; "Nothing to save … replaced by" credits each part to who changed it."""
from __future__ import annotations

from tests.test_conflict_merge import edit
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui.editor_handlers import CHANGED_SINCE_PANEL, EditorHandlers


def _merge(editor, work, form, outcome, take=()):
    return editor.save(work, form, None, "", "bob", base_version=outcome["current_version"],
                       take_saved=list(take), session="B1")


def test_a_question_typed_after_ticking_theirs_is_not_lost(ui_store):
    """bob's tab B2 saved the GT reasoning (2), alice the question (3); bob's tab B1 saved a
    new question: the panel offered "question"; bob ticked it, typed the question again and
    Save merged said "Nothing to save … replaced by version 3, saved by alice and by you in
    another tab or window": his new text in no revision, his draft deleted."""
    editor = EditorHandlers(ui_store)
    b1, b2 = editor.load("ui/alpha", "bob"), editor.load("ui/alpha", "bob")
    assert edit(editor, b2, "bob", gt_reasoning="bob's reasoning")[1]["kind"] == "saved"
    alice = editor.load("ui/alpha", "alice")
    assert edit(editor, alice, "alice", question="Alice's question?")[1]["kind"] == "saved"
    form = editor.form_values(b1["item"]) | {"question": "Bob's question?"}
    b1, outcome = editor.save(b1, form, None, "", "bob", session="B1")
    assert outcome["kind"] == "conflict" and outcome["both"] == ["question"], outcome
    again = form | {"question": "Bob's question, edited AFTER ticking theirs?"}
    b1, refreshed = _merge(editor, b1, again, outcome, ["question"])
    assert refreshed["kind"] == "conflict", refreshed
    assert CHANGED_SINCE_PANEL in refreshed["message"]
    assert refreshed["ticked"] == ["question"] and refreshed["both"] == ["question"]
    rows = {row[0]: row for row in refreshed["diff"]}
    assert rows["question"][3] == "Bob's question, edited AFTER ticking theirs?", rows
    assert ui_store.get_item("ui/alpha")["version"] == 3
    draft = ui_store.get_draft("bob", "ui/alpha")
    assert draft["data"]["question"] == "Bob's question, edited AFTER ticking theirs?"
    # asked again, bob keeps his choice: alice's question, credited to her alone
    _, said = _merge(editor, b1, again, refreshed, ["question"])
    assert said == {"kind": "unchanged", "message": (
        "Nothing to save: ui/alpha is as saved (version 3). Your edits of question were "
        "replaced by version 3, saved by alice.")}, said


def test_a_part_only_they_changed_is_not_saved_over_unasked(ui_store):
    """alice saved a question (2); bob's save of a GT reasoning: "question — them (theirs
    kept)", no checkbox. bob typed a question, another GT reasoning and a clue, and Save
    merged wrote version 3 with his question over alice's, unasked."""
    editor = EditorHandlers(ui_store)
    alice, bob = editor.load("ui/alpha", "alice"), editor.load("ui/alpha", "bob")
    assert edit(editor, alice, "alice", question="Alice's question?")[1]["kind"] == "saved"
    form = editor.form_values(bob["item"]) | {"gt_reasoning": "bob's reasoning"}
    bob, outcome = editor.save(bob, form, None, "", "bob", session="B1")
    assert outcome["kind"] == "conflict" and outcome["both"] == [], outcome
    assert {r[0]: r[1] for r in outcome["diff"]}["question"] == "them (theirs kept)"
    rows = form["clues"]
    rows[0][1] = "bob's clue"
    typed = form | {"question": "Bob's question?", "gt_reasoning": "bob's second reasoning",
                    "clues": rows}
    bob, refreshed = _merge(editor, bob, typed, outcome)
    assert refreshed["kind"] == "conflict", refreshed
    assert CHANGED_SINCE_PANEL in refreshed["message"]
    assert refreshed["both"] == ["question"] and refreshed["ticked"] == []
    said = {r[0]: r for r in refreshed["diff"]}
    assert said["question"][1] == "both (you choose)", said
    assert said["GT reasoning"][3] == "bob's second reasoning"
    assert said["clue 1"][1] == "you (yours kept)", said
    saved = ui_store.get_item("ui/alpha")
    assert saved["version"] == 2 and saved["question"] == "Alice's question?"
    assert ui_store.get_draft("bob", "ui/alpha")["data"]["question"] == "Bob's question?"
    # the panel as shown now, bob takes alice's question: the rest of his edits are saved
    _, done = _merge(editor, bob, typed, refreshed, ["question"])
    assert done["kind"] == "saved", done
    saved = ui_store.get_item("ui/alpha")
    assert (saved["question"], saved["gt_reasoning"], saved["clues"][0]["text"]) == (
        "Alice's question?", "bob's second reasoning", "bob's clue")


def test_a_save_merged_of_the_edits_the_panel_showed_saves(ui_store):
    """Nothing changed since the panel: Save merged saves at once, as before."""
    editor = EditorHandlers(ui_store)
    alice, bob = editor.load("ui/alpha", "alice"), editor.load("ui/alpha", "bob")
    assert edit(editor, alice, "alice", question="Alice's question?")[1]["kind"] == "saved"
    form = editor.form_values(bob["item"]) | {"gt_reasoning": "bob's reasoning"}
    bob, outcome = editor.save(bob, form, None, "", "bob", session="B1")
    _, done = _merge(editor, bob, form, outcome)
    assert done["kind"] == "saved", done


def test_a_status_their_edit_changed_is_a_part_of_the_panel(ui_store):
    """alice's edit of a verified item put it back in review; bob's save from the verified
    version: the panel listed no status (his own save would have made the same change), and
    his tab kept showing "verified"."""
    item = ui_store.get_item("ui/alpha")
    ui_store.save_item({**item, "status": "verified"}, item["version"], "carol")
    editor = EditorHandlers(ui_store)
    alice, bob = editor.load("ui/alpha", "alice"), editor.load("ui/alpha", "bob")
    _, done = edit(editor, alice, "alice", question="Alice's question?")
    assert done["kind"] == "saved" and ui_store.get_item("ui/alpha")["status"] == "in_review"
    form = editor.form_values(bob["item"]) | {"gt_reasoning": "bob's reasoning"}
    bob, outcome = editor.save(bob, form, None, "", "bob", session="B1")
    assert outcome["kind"] == "conflict", outcome
    rows = {row[0]: row for row in outcome["diff"]}
    assert rows["status"][1:] == ["them (theirs kept)", "in_review", "verified"], rows
    _, saved = _merge(editor, bob, form, outcome)
    assert saved["kind"] == "saved", saved
    stored = ui_store.get_item("ui/alpha")
    assert (stored["status"], stored["question"], stored["gt_reasoning"]) == (
        "in_review", "Alice's question?", "bob's reasoning")


def test_replaced_parts_are_credited_each_to_who_changed_it():
    from ui import conflict_authors as ca
    base = {"question": "q", "gt_reasoning": "r"}
    versions = [("bob", {**base, "gt_reasoning": "r2"}),
                ("alice", {"question": "q3", "gt_reasoning": "r2"})]
    keys = {"question": ["question"], "GT reasoning": ["gt_reasoning"]}
    assert ca.replaced_by(base, versions, "bob", {"question": ["question"]}) == "alice"
    assert ca.replaced_by(base, versions, "bob", keys) == (
        "alice (question) and you in another tab or window (GT reasoning)")
