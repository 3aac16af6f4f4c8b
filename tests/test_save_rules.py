"""What a save does besides storing the edit (ui/save_rules), through the editor's handlers
on a real store: import problems follow the item, a verified item changed goes back to
review, and the revision's comment says what the save did."""
from store import Store
from tests.live_server import make_scene
from tests.test_conflict_merge import conflicted
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui import editor_ops as ops
from ui import save_rules as rules
from ui.editor_handlers import EditorHandlers

NOT_FOUND = "image file not found: image 3 (a file at that path inside the image folder)"
"""Image 3 lost at import: two images added leave it (a rule can tell), a third clears it."""
MC2 = {"id": "dailyclue/mc2", "dataset": "dailyclue", "question": "Which jar?",
       "answer_type": "open", "answer": "Z",
       "options": [{"label": "A", "text": "jam", "image": None},
                   {"label": "B", "text": "honey", "image": None}],
       "problems": ["gold answer has no option: it is none of the 2 option labels", NOT_FOUND,
                    "options on a non-multiple-choice item: an item of type open has no "
                    "options (2 given); remove them or make it multiple_choice"]}


def last_revision(store: Store, item_id: str) -> dict:
    return store.history(item_id)[0]


def test_problems_the_rules_check_clear_at_save_and_the_others_once_marked_resolved(
        ui_store, tmp_path):
    """dailyclue/mc2, imported with 3 problems (image 3 not found, gold Z no option, options
    on an open item); the annotator added 2 images, made it multiple choice with gold A and
    saved: still flagged, still all three listed."""
    ui_store.create_item(MC2, "import")
    editor = EditorHandlers(ui_store)
    work = editor.load("dailyclue/mc2", "ann")
    item = editor.collect(work, editor.form_values(work["item"]), None)
    for n in (1, 2):
        sha = ui_store.add_image(make_scene(tmp_path / f"jar{n}.png", color=f"#{n}0a0c0"),
                                 f"jar{n}.png").sha256
        item, _ = ops.add_image(item, sha)
    work = {**work, "item": item}
    form = editor.form_values(item) | {"answer_type": "multiple_choice", "answer": "A"}
    work, outcome = editor.save(work, form, None, "fixed the gold", "ann")
    assert outcome["kind"] == "saved", outcome
    saved = ui_store.get_item("dailyclue/mc2")
    assert (saved["problems"], saved["flagged"]) == ([NOT_FOUND], True)
    assert last_revision(ui_store, "dailyclue/mc2")["comment"] == (
        "fixed the gold · import problems fixed: " + MC2["problems"][0] + "; "
        + MC2["problems"][2])
    # the one that still holds (2 images of 3): marked resolved by the annotator, kept in the draft
    marked = rules.mark_resolved(editor.collect(work, editor.form_values(work["item"]), None),
                                 [NOT_FOUND])
    work = {**work, "item": marked}
    editor.keep_draft(work, marked, "ann")
    work = editor.load("dailyclue/mc2", "ann")              # a reload keeps the mark
    assert work["item"]["problems"] == [] and work["item"][rules.RESOLVED] == [NOT_FOUND]
    _, outcome = editor.save(work, editor.form_values(work["item"]), None, "", "ann")
    assert outcome["kind"] == "saved", outcome
    saved = ui_store.get_item("dailyclue/mc2")
    assert (saved["problems"], saved["flagged"]) == ([], False)
    revision = last_revision(ui_store, "dailyclue/mc2")
    assert (revision["author"], revision["comment"]) == (
        "ann", "import problems marked resolved: " + NOT_FOUND)
    assert ui_store.list_items(flagged=True) == []


def test_a_verified_item_changed_is_back_in_review_and_the_save_says_so(ui_store):
    """A box edit saved on a verified item kept it verified."""
    item = ui_store.get_item("ui/alpha")
    ui_store.save_item({**item, "status": "verified"}, item["version"], "rev", "approve")
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "ann")
    form = editor.form_values(work["item"]) | {"question": "Which exit is signposted here?"}
    _, outcome = editor.save(work, form, None, "", "ann")
    assert outcome["message"] == ("Saved ui/alpha as version 3. Your changes put the "
                                  "verified item back in review (status in_review).")
    assert ui_store.get_item("ui/alpha")["status"] == "in_review"
    # the status alone is the user's own choice
    work = editor.load("ui/alpha", "ann")
    _, outcome = editor.save(work, editor.form_values(work["item"]) | {"status": "verified"},
                             None, "", "ann")
    assert outcome["message"] == "Saved ui/alpha as version 4."
    assert ui_store.get_item("ui/alpha")["status"] == "verified"


def test_save_merged_says_so_in_the_revision(ui_store):
    """A merged revision had no comment saying it was a merge."""
    editor, bob, outcome = conflicted(ui_store)
    _, saved = editor.save(bob, editor.form_values(bob["item"]), None, "my question",
                           "bob", base_version=outcome["current_version"])
    assert saved["kind"] == "saved", saved
    assert last_revision(ui_store, "ui/alpha")["comment"] == (
        "my question · merged with version 2 by alice (bob's kept over alice's: question)")


def test_a_merged_revision_names_the_parts_where_mine_replaced_theirs(ui_store):
    """A review: a Save merged that kept bob's question over alice's (both changed it, left
    unticked) said only "merged with version 2 by alice": her question was gone without a
    trace. The comment and the save's message name it, beside the parts taken."""
    editor, bob, outcome = conflicted(ui_store)
    assert outcome["both"] == ["question"]
    _, saved = editor.save(bob, editor.form_values(bob["item"]), None, "", "bob",
                           base_version=outcome["current_version"])
    assert saved["kind"] == "saved", saved
    assert ui_store.get_item("ui/alpha")["question"] == "Bob's question?"
    assert last_revision(ui_store, "ui/alpha")["comment"] == (
        "merged with version 2 by alice (bob's kept over alice's: question)")
    assert "Merged with version 2 by alice (yours kept over theirs: question)." in \
        saved["message"]


def test_a_merged_revision_names_the_parts_taken_from_theirs(ui_store):
    """A review: with "question" ticked (theirs taken) the comment said only "merged with
    version 2 by alice": a reviewer could not see that bob had dropped his question."""
    editor, bob, outcome = conflicted(ui_store)
    assert outcome["both"] == ["question"]
    _, saved = editor.save(bob, editor.form_values(bob["item"]), None, "", "bob",
                           base_version=outcome["current_version"], take_saved=["question"])
    assert saved["kind"] == "saved", saved
    assert last_revision(ui_store, "ui/alpha")["comment"] == (
        "merged with version 2 by alice (alice's taken over bob's: question)")


def test_a_save_over_a_review_says_the_version_changed_no_content():
    assert rules.revision_comment("", (3, "ann2", [], False)) == (
        "saved over version 3 by ann2, which changed no content")


def test_an_image_lost_at_import_and_an_invalid_box_clear_once_fixed_as_the_editor_says():
    """The editor says "Image lost at import ... Add image adds one" and to draw a clue's
    box again; both problems stayed flagged after exactly that ("no rule can check it")."""
    from judges.gold_check import still_holds
    lost = "image file not found: image 2 (a file at that path inside the image folder)"
    assert still_holds(lost, {"images": ["a"]}) is True
    assert still_holds(lost, {"images": ["a", "b"]}) is False
    box = "invalid box: clue 1: expected [x0, y0, x1, y1] (kept in metadata.invalid_boxes)"
    assert still_holds(box, {"clues": [{"boxes": []}]}) is True
    assert still_holds(box, {"clues": [{"boxes": [{"x0": 1}]}]}) is False
    assert still_holds("duplicate id in file: imported as 'd/1-2'", {}) is None
