"""A clue both people changed is merged by its parts (ui/conflict_merge.clue_merge), on a
real store: its text, reasoning and boxes each come from the side that changed them, the
boxes as a set (one removed on a side stays removed, one added on either is kept), and only
a field both changed differently is a choice. A review: ann1 deleted one of clue 1's boxes,
ann2 appended " (B)" to its text: the panel offered the whole clue ("both (you choose)"),
and Save merged, left unticked, brought the deleted box back with no word."""
import pytest

from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from tests.test_conflict_merge import edit
from ui.editor_handlers import EditorHandlers

BOXES = [{"x0": x, "y0": 20, "x1": x + 30, "y1": 60} for x in (10, 50, 90)]


def _three_boxes(ui_store) -> str:
    """Clue 1 of ui/alpha with three boxes (x0 10, 50, 90); its text."""
    item = ui_store.get_item("ui/alpha")
    item["clues"][0]["boxes"] = [{"image": item["images"][0], **b} for b in BOXES]
    ui_store.save_item(item, item["version"], "carol", "three boxes")
    return item["clues"][0]["text"]


def _conflict(ui_store, their_text=None):
    """alice removes clue 1's second box (and sets its text to `their_text`); bob, from the
    same version, appends " (B)" to its text: (editor, bob, the conflict, the text)."""
    text = _three_boxes(ui_store)
    editor = EditorHandlers(ui_store)
    alice, bob = editor.load("ui/alpha", "alice"), editor.load("ui/alpha", "bob")
    del alice["item"]["clues"][0]["boxes"][1]
    _, outcome = edit(editor, alice, "alice", their_text)
    assert outcome["kind"] == "saved", outcome
    bob, outcome = edit(editor, bob, "bob", text + " (B)")
    assert outcome["kind"] == "conflict", outcome
    return editor, bob, outcome, text


def _merged(ui_store, editor, bob, outcome, take=()):
    form = editor.form_values(bob["item"])    # bob's edits, kept in his work
    _, saved = editor.save(bob, form, None, "", "bob",
                           base_version=outcome["current_version"], take_saved=list(take))
    assert saved["kind"] in ("saved", "unchanged"), saved   # all theirs: their version
    clue = ui_store.get_item("ui/alpha")["clues"][0]
    return clue["text"], [b["x0"] for b in clue["boxes"]]


def test_their_box_removed_and_my_text_are_both_kept(ui_store):
    editor, bob, outcome, text = _conflict(ui_store)
    assert [r[:2] for r in outcome["diff"] if r[0] == "clue 1"] == [[
        "clue 1", "both, merged: your text, the box they removed stays removed"]]
    assert outcome["both"] == []
    assert _merged(ui_store, editor, bob, outcome) == (text + " (B)", [10, 90])


@pytest.mark.parametrize("take", [False, True], ids=["mine", "theirs"])
def test_only_the_text_both_changed_is_a_choice(ui_store, take):
    """Both rewrote the text, alice also removed a box: the text is the choice, the box
    stays removed whichever text is taken."""
    editor, bob, outcome, text = _conflict(ui_store, their_text="alice's text")
    assert [r[:2] for r in outcome["diff"] if r[0] == "clue 1"] == [
        ["clue 1", "both (you choose: text; the rest merged)"]]
    assert outcome["both"] == ["clue 1"]
    assert _merged(ui_store, editor, bob, outcome, ["clue 1"] if take else []) == (
        "alice's text" if take else text + " (B)", [10, 90])


def test_boxes_removed_and_added_on_each_side_merge_as_a_set(ui_store):
    """alice removed box 2, bob removed box 3 and added one: both removals hold, his new
    box is kept."""
    _three_boxes(ui_store)
    editor = EditorHandlers(ui_store)
    alice, bob = editor.load("ui/alpha", "alice"), editor.load("ui/alpha", "bob")
    del alice["item"]["clues"][0]["boxes"][1]
    assert edit(editor, alice, "alice")[1]["kind"] == "saved"
    boxes = bob["item"]["clues"][0]["boxes"]
    boxes[2] = {**boxes[2], "x0": 130, "x1": 160}
    bob, outcome = edit(editor, bob, "bob")
    assert outcome["kind"] == "conflict" and outcome["both"] == []
    assert _merged(ui_store, editor, bob, outcome)[1] == [10, 130]
