"""Who may review a version is decided on content (store/revisions.unreviewed_writer,
store/diffs.held_changes): a person's unapproved change bars them from reviewing a version
only while that version still holds some field they changed with the value they gave it.

The review: bob saved the question (version 2); ann, from version 1, saved the question and
the GT reasoning, and in the conflict panel kept her question (version 3: "yours kept over
theirs: question"). bob's "revise" of version 3 was refused, "version 3 holds" the changes
of version 2 — it held none of them."""
import pytest

from store.diffs import held_changes
from tests.test_conflict_merge import edit
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui.editor_handlers import EditorHandlers
from ui.editor_model import EditError
from ui.history_handlers import HistoryHandlers


def merged_over_bob(ui_store, take_saved=()):
    """bob saves the question; ann saves question and GT reasoning from version 1, a
    conflict, then Save merged with `take_saved` ticked (version 3)."""
    editor = EditorHandlers(ui_store)
    ann, bob = editor.load("ui/alpha", "ann"), editor.load("ui/alpha", "bob")
    _, outcome = edit(editor, bob, "bob", question="Bob's question?")
    assert outcome["kind"] == "saved"
    ann, outcome = edit(editor, ann, "ann", question="Ann's question?",
                        gt_reasoning="ann's reasoning")
    assert outcome["kind"] == "conflict" and outcome["both"] == ["question"]
    _, saved = editor.save(ann, editor.form_values(ann["item"]) | {
        "question": "Ann's question?", "gt_reasoning": "ann's reasoning"}, None, "", "ann",
        base_version=outcome["current_version"], take_saved=list(take_saved))
    assert saved["kind"] == "saved", saved
    return ui_store.get_item("ui/alpha")


def test_bob_may_review_a_merge_that_replaced_his_only_change(ui_store):
    item = merged_over_bob(ui_store)
    assert (item["version"], item["question"]) == (3, "Ann's question?")
    line = HistoryHandlers(ui_store).review("ui/alpha", 3, "bob", "revise", "reword it")
    assert line.startswith("Reviewed version 3: revise.")
    assert [(r["version"], r["reviewer"]) for r in ui_store.reviews("ui/alpha")] == [
        (3, "bob")]


def test_bob_may_not_review_a_merge_that_kept_his_question(ui_store):
    item = merged_over_bob(ui_store, take_saved=["question"])
    assert (item["version"], item["question"]) == (3, "Bob's question?")
    with pytest.raises(EditError) as refused:
        HistoryHandlers(ui_store).review("ui/alpha", 3, "bob", "revise", "reword it")
    assert str(refused.value) == (
        "Review not recorded: item ui/alpha: bob wrote the changes of version 2, not yet "
        "approved by anyone else, and version 3 still holds bob's question, so bob may not "
        "review it: ask someone who did not write it.")
    assert ui_store.reviews("ui/alpha") == []


def test_held_changes_compares_part_by_part():
    """A clue's text kept while another moved before it is still held; a clue bob added is
    held while one of its text stands; a part another rewrote is not."""
    a, b = {"text": "alpha", "reasoning": "r"}, {"text": "beta", "reasoning": "s"}
    before = {"question": "q", "clues": [a, b]}
    mine = {"question": "q", "clues": [a, {**b, "reasoning": "bob's"},
                                       {"text": "gamma", "reasoning": ""}]}
    assert held_changes(before, mine, mine) == ["clues[1].reasoning", "clues[2]"]
    rewritten = {"question": "q", "clues": [{"text": "new", "reasoning": "n"}, a,
                                            {**b, "reasoning": "ann's"}]}
    assert held_changes(before, mine, rewritten) == []
    moved = {"question": "q2", "clues": [{**b, "reasoning": "bob's"}, a,
                                         {"text": "gamma", "reasoning": "ann's"}]}
    assert held_changes(before, mine, moved) == ["clues[1].reasoning", "clues[2]"]


def test_the_creator_of_an_item_is_held_by_the_fields_they_filled(ui_store):
    """bob made the item (version 1, no import): ann rewrote his question, his answer is
    still there, so bob may not review, told which of his fields it still holds (an empty
    list of them read "still holds bob's , so")."""
    from store import ValidationError
    item = {**ui_store.get_item("ui/beta"), "id": "ui/bobs", "question": "Bob's?",
            "answer": "bob's answer", "gt_reasoning": "", "clues": [], "aliases": []}
    for key in ("version", "updated_at", "updated_by", "flagged"):
        item.pop(key, None)
    ui_store.create_item(item, "bob", "new item")
    ui_store.save_item({**ui_store.get_item("ui/bobs"), "question": "Ann's?"}, 1, "ann", "")
    with pytest.raises(ValidationError) as refused:
        ui_store.add_review("ui/bobs", 2, "bob", "revise")
    said = str(refused.value)
    assert "bob wrote the changes of version 1" in said and "still holds bob's " in said
    assert "question" not in said.partition("still holds")[2].partition(", so")[0], said
    assert "answer" in said.partition("still holds")[2], said
