"""Saving over a conflict merges field by field (ui/conflict_merge), on a real store: what
only the other person changed is kept, what only I changed is mine, and of what both
changed the user chooses. "Save mine over it" used to revert the other side's edits."""
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui import conflict_merge as cm
from ui import conflict_rows as cr
from ui import editor_model as em
from ui.editor_handlers import EditorHandlers

BOX = {"x0": 10, "y0": 20, "x1": 40, "y1": 60}


def edit(editor, work, user, clue_text=None, **changes):
    """Save `work` with `changes` to its form (and clue 1's text); (work, outcome)."""
    form = editor.form_values(work["item"]) | changes
    if clue_text is not None:
        rows = em.clue_rows(work["item"])
        rows[0][1] = clue_text
        form["clues"] = rows
    return editor.save(work, form, None, "", user)


def conflicted(ui_store):
    """alice saves the question, GT reasoning and clue 1; bob, from version 1, changes the
    question and the aliases: his save is a conflict."""
    editor = EditorHandlers(ui_store)
    alice, bob = editor.load("ui/alpha", "alice"), editor.load("ui/alpha", "bob")
    _, outcome = edit(editor, alice, "alice", clue_text="The sign reads EXIT 12 (alice)",
                      question="Alice's question?", gt_reasoning="alice's reasoning")
    assert outcome["kind"] == "saved"
    bob, outcome = edit(editor, bob, "bob", question="Bob's question?", aliases="twelve")
    assert outcome["kind"] == "conflict"
    return editor, bob, outcome


def test_the_conflict_says_who_changed_each_part_numbered_as_the_editor_does(ui_store):
    _, _, outcome = conflicted(ui_store)
    rows = {row[0]: row for row in outcome["diff"]}
    assert rows["question"] == ["question", "both (you choose)", "Alice's question?",
                                "Bob's question?"]
    assert rows["GT reasoning"][1] == "them (theirs kept)"
    assert rows["aliases"][1:] == ["you (yours kept)", "", "twelve"]
    assert rows["clue 1"][1] == "them (theirs kept)"
    assert rows["clue 1"][2].startswith("The sign reads EXIT 12 (alice)\nreasoning: signs")
    assert outcome["both"] == ["question"]


def test_save_merged_keeps_their_changes_to_what_i_did_not_change(ui_store):
    editor, bob, outcome = conflicted(ui_store)
    form = editor.form_values(bob["item"])
    _, saved = editor.save(bob, form, None, "", "bob", base_version=outcome["current_version"])
    assert saved["kind"] == "saved", saved
    item = ui_store.get_item("ui/alpha")
    assert item["question"] == "Bob's question?"                 # both: mine by default
    assert item["aliases"] == ["twelve"]                          # only mine
    assert item["gt_reasoning"] == "alice's reasoning"            # only theirs: kept
    assert item["clues"][0]["text"] == "The sign reads EXIT 12 (alice)"


def test_of_the_parts_both_changed_the_ticked_ones_are_theirs(ui_store):
    editor, bob, outcome = conflicted(ui_store)
    form = editor.form_values(bob["item"])
    _, saved = editor.save(bob, form, None, "", "bob", base_version=outcome["current_version"],
                           take_saved=["question"])
    assert saved["kind"] == "saved"
    item = ui_store.get_item("ui/alpha")
    assert (item["question"], item["aliases"]) == ("Alice's question?", ["twelve"])


def test_a_version_saved_after_the_conflict_is_a_new_conflict(ui_store):
    editor, bob, outcome = conflicted(ui_store)
    carol = editor.load("ui/alpha", "carol")
    edit(editor, carol, "carol", domain="Carol's domain")
    _, again = editor.save(bob, editor.form_values(bob["item"]), None, "", "bob",
                           base_version=outcome["current_version"])
    assert again["kind"] == "conflict" and again["current_version"] == 3
    assert ui_store.get_item("ui/alpha")["domain"] == "Carol's domain"


def test_clues_added_at_the_end_are_kept_beside_an_edit_of_the_others():
    """They added clue 2 while I edited clue 1: the clue list was one part, so a merge kept
    my list (their new clue lost) or theirs (my edit lost). Now both are kept."""
    base = {"clues": [{"text": "a", "reasoning": "", "boxes": []}], "images": ["s1"]}
    theirs = {"clues": base["clues"] + [{"text": "b", "reasoning": "",
                                         "boxes": [{"image": "s1", **BOX}]}], "images": ["s1"]}
    mine = {"clues": [{"text": "a!", "reasoning": "", "boxes": []}], "images": ["s1"]}
    rows = cr.rows(base, theirs, mine)
    assert [r[:2] for r in rows] == [["clue 1", "you (yours kept)"],
                                     ["clues they added", "them (theirs kept)"]]
    assert "1 box: (10,20)-(40,60) on image 1" in rows[1][2]
    assert cm.merge(base, theirs, mine)["clues"] == [mine["clues"][0], theirs["clues"][1]]


def test_clues_both_added_are_both_kept_theirs_first():
    """A review found two annotators' new clue 5s merged into one list with one of them:
    'Save merged' kept only one person's clue, and said nothing."""
    base = {"clues": [{"text": "a", "reasoning": "", "boxes": []}], "images": ["s1"]}
    theirs = {"clues": base["clues"] + [{"text": "BOB", "reasoning": "r", "boxes": []}],
              "images": ["s1"]}
    mine = {"clues": base["clues"] + [{"text": "ALICE", "reasoning": "", "boxes": []}],
            "images": ["s1"]}
    assert cm.both_changed(base, theirs, mine) == []          # nothing to choose
    assert [r[:2] for r in cr.rows(base, theirs, mine)] == [
        ["clues they added", "them (theirs kept)"], ["clues you added", "you (yours kept)"]]
    assert [c["text"] for c in cm.merge(base, theirs, mine)["clues"]] == ["a", "BOB", "ALICE"]
    removed = {"clues": [], "images": ["s1"]}    # they removed the base's clue, I added one
    assert [r[:2] for r in cr.rows(base, removed, mine)] == [
        ["clue 1", "them (theirs kept)"], ["clues you added", "you (yours kept)"]]
    assert [c["text"] for c in cm.merge(base, removed, mine)["clues"]] == ["ALICE"]
    edited = {"clues": [{"text": "b", "reasoning": "", "boxes": []}], "images": ["s1"]}
    # a clue they removed and I edited: mine or their removal, my choice
    assert [r[:3] for r in cr.rows(base, removed, {**edited, "clues": edited["clues"] * 2})] \
        == [["clue 1", "both (you choose)", "(removed)"],
            ["clues you added", "you (yours kept)", ""]]


def test_save_merged_drops_my_boxes_on_an_image_they_removed_and_says_so(ui_store, tmp_path):
    """They removed image 2 while I boxed clue 1 on image 1, clue 1 having a box on image 2:
    every Save merged failed ("box on no image of the item"), and the only way out threw my
    new box away. The merge drops the boxes on the removed image and says how many."""
    from tests.live_server import make_scene
    from ui import editor_ops as ops
    second = ui_store.add_image(make_scene(tmp_path / "two.png", color="#123456"),
                                "two.png").sha256
    item = ui_store.get_item("ui/alpha")
    first = item["images"][0]
    item["images"] = [first, second]
    item["clues"][0]["boxes"] = [{"image": first, **BOX}, {"image": second, **BOX}]
    ui_store.save_item(item, item["version"], "carol", "two images")
    editor = EditorHandlers(ui_store)
    alice, bob = editor.load("ui/alpha", "alice"), editor.load("ui/alpha", "bob")
    alice["item"], _ = ops.remove_image(alice["item"], 1)
    _, outcome = editor.save(alice, editor.form_values(alice["item"]), None, "", "alice")
    assert outcome["kind"] == "saved"
    bob["image_index"] = 1                                  # bob was on image 2
    bob["item"]["clues"][0]["boxes"].append({"image": first, "x0": 50, "y0": 50, "x1": 90,
                                             "y1": 90})
    # a box bob drew on image 2 too (the box there before is removed with it, as a set)
    bob["item"]["clues"][0]["boxes"].append({"image": second, "x0": 60, "y0": 60, "x1": 95,
                                             "y1": 95})
    form = editor.form_values(bob["item"])
    _, outcome = editor.save(bob, form, None, "", "bob")
    assert outcome["kind"] == "conflict"
    after, outcome = editor.save(bob, form, None, "", "bob",
                                 base_version=outcome["current_version"])
    assert outcome["kind"] == "saved", outcome
    assert "1 box on an image alice removed was dropped." in outcome["message"]
    saved = ui_store.get_item("ui/alpha")
    assert saved["images"] == [first]
    assert [(b["x0"], b["image"]) for b in saved["clues"][0]["boxes"]] == [(10, first),
                                                                            (50, first)]
    assert after["image_index"] == 0                 # image 2 of 1 showed an empty canvas


def _texts(clues: list[dict]) -> list[str]:
    return [c["text"] for c in clues]


def test_a_clue_moved_on_one_side_is_merged_with_an_edit_of_it_on_the_other():
    """I moved clue 3 up while they edited clue 2: merged by place, their clue 2 edit went
    over my moved clue (the fridge clue twice, the window clue and its boxes gone); then a
    move made the whole list one choice. Clues are matched by identity: their edit goes to
    the fridge clue wherever I moved it, and the order is a part of its own (mine)."""
    fridge = {"text": "fridge note", "reasoning": "", "boxes": [{"image": "s1", **BOX}]}
    window = {"text": "window dark", "reasoning": "", "boxes": [{"image": "s1", **BOX}]}
    first = {"text": "bin", "reasoning": "", "boxes": []}
    base = {"clues": [first, fridge, window], "images": ["s1"]}
    theirs = {"clues": [first, {**fridge, "text": "fridge note (yellow)"}, window],
              "images": ["s1"]}
    mine = {"clues": [first, window, fridge], "images": ["s1"]}
    assert [r[:2] for r in cr.rows(base, theirs, mine)] == [       # numbered as in my table
        ["clue 3", "them (theirs kept)"], ["clue order", "you (yours kept)"]]
    assert _texts(cm.merge(base, theirs, mine)["clues"]) == [
        "bin", "window dark", "fridge note (yellow)"]
    more = {"clues": [first, window, fridge, {"text": "new", "reasoning": "", "boxes": []}],
            "images": ["s1"]}
    assert _texts(cm.merge(base, theirs, more)["clues"]) == [
        "bin", "window dark", "fridge note (yellow)", "new"]


def test_reordering_clues_keeps_a_clue_the_colleague_removed_removed():
    """A review: I reordered the clues while a colleague removed one; the conflict panel
    showed one part "clues" and Save merged (mine kept) brought the removed clue back."""
    a, b, c, d = ({"text": t, "reasoning": "", "boxes": []} for t in "abcd")
    base = {"clues": [a, b, c, d]}
    theirs = {"clues": [a, b, d]}                          # removed c
    mine = {"clues": [d, {**a, "reasoning": "why"}, b, c]}  # moved d up, edited a
    rows = [r[:3] for r in cr.rows(base, theirs, mine)]
    assert ["clue 4", "them (theirs kept)", "(removed)"] in rows and \
        [r[:2] for r in rows if r[0] != "clue 4"] == [["clue 2", "you (yours kept)"],
                                                      ["clue order", "you (yours kept)"]]
    assert cm.both_changed(base, theirs, mine) == []
    merged = cm.merge(base, theirs, mine)["clues"]
    assert _texts(merged) == ["d", "a", "b"] and merged[1]["reasoning"] == "why"
    # they added a clue after b: it stays after b in my order
    added = {"clues": [a, b, {"text": "e", "reasoning": "", "boxes": []}, c, d]}
    assert _texts(cm.merge(base, added, mine)["clues"]) == ["d", "a", "b", "e", "c"]


def test_both_reordering_the_clues_is_a_choice_of_order():
    a, b, c = ({"text": t, "reasoning": "", "boxes": []} for t in "abc")
    base, theirs, mine = {"clues": [a, b, c]}, {"clues": [c, a, b]}, {"clues": [b, a, c]}
    assert cm.both_changed(base, theirs, mine) == ["clue order"]
    assert _texts(cm.merge(base, theirs, mine)["clues"]) == ["b", "a", "c"]
    assert _texts(cm.merge(base, theirs, mine, ["clue order"])["clues"]) == ["c", "a", "b"]
    # they moved, I removed one: their order without it
    assert _texts(cm.merge(base, theirs, {"clues": [a, c]})["clues"]) == ["c", "a"]
    # I removed a clue they moved and edited: my choice; taken, it is back at its place
    # (the order is that of the clues both kept, which their move did not change)
    edited = {"clues": [{**c, "reasoning": "r"}, a, b]}
    assert cm.both_changed(base, edited, {"clues": [a, b]}) == ["clue 1 (you removed it)"]
    merged = cm.merge(base, edited, {"clues": [a, b]}, ["clue 1 (you removed it)"])["clues"]
    assert _texts(merged) == ["a", "b", "c"] and merged[2]["reasoning"] == "r"


def test_boxes_both_added_to_one_clue_are_both_kept():
    """Each drew a box for clue 1: the panel offered one person's clue or the other's, and
    one box was lost. Changes that fit together are both kept: boxes added on each side, or
    the text on one side and the reasoning on the other; two rewrites of the text still ask."""
    other = {"x0": 100, "y0": 100, "x1": 140, "y1": 150}
    clue = {"text": "a sign", "reasoning": "", "boxes": [{"image": "s1", **BOX}]}
    base = {"clues": [clue], "images": ["s1"]}
    theirs = {"clues": [{**clue, "boxes": clue["boxes"] + [{"image": "s1", **other}]}],
              "images": ["s1"]}
    mine = {"clues": [{**clue, "reasoning": "why", "boxes": clue["boxes"] + [
        {"image": "s1", "x0": 5, "y0": 5, "x1": 9, "y1": 9}]}], "images": ["s1"]}
    assert [r[:2] for r in cr.rows(base, theirs, mine)] == [[
        "clue 1", "both, merged: your reasoning, your new box added, their new box added"]]
    assert cm.both_changed(base, theirs, mine) == []
    [merged] = cm.merge(base, theirs, mine)["clues"]
    assert merged["reasoning"] == "why" and [b["x0"] for b in merged["boxes"]] == [10, 5, 100]
    rewritten = {"clues": [{**clue, "text": "a red sign"}], "images": ["s1"]}
    mine_text = {"clues": [{**clue, "text": "a blue sign"}], "images": ["s1"]}
    assert [r[1] for r in cr.rows(base, rewritten, mine_text)] == [
        "both (you choose: text; the rest merged)"]


def test_versions_that_changed_no_content_are_no_conflict(ui_store):
    """A delete and its undo (or a review) saved new versions with the content as it was:
    the save was a conflict with no part to choose. It is saved, merged over them."""
    editor = EditorHandlers(ui_store)
    bob = editor.load("ui/alpha", "bob")
    ui_store.delete_item("ui/alpha", "alice", "by mistake")
    ui_store.restore_deleted("ui/alpha", "alice")
    newest = ui_store.get_item("ui/alpha")["version"]
    assert newest > bob["base_version"]
    _, outcome = edit(editor, bob, "bob", question="Bob's question?")
    assert outcome["kind"] == "saved", outcome
    assert outcome["version"] == newest + 1
    assert ui_store.get_item("ui/alpha")["question"] == "Bob's question?"
    _, again = edit(editor, editor.load("ui/alpha", "carol"), "carol")
    assert again["kind"] == "unchanged"


def test_an_empty_status_or_answer_type_is_none_given_not_draft(ui_store):
    """A caller of the save event sending status '' (no choice of the dropdown) saved the
    item as draft, silently: '' is no status given, the saved one is kept."""
    editor = EditorHandlers(ui_store)
    ui_store.save_item({**ui_store.get_item("ui/alpha"), "status": "candidate"}, 1, "alice")
    work = editor.load("ui/alpha", "bob")
    _, outcome = edit(editor, work, "bob", question="New?", status="", answer_type="")
    assert outcome["kind"] == "saved", outcome
    item = ui_store.get_item("ui/alpha")
    assert (item["status"], item["answer_type"]) == ("candidate", work["item"]["answer_type"])


def test_a_review_verdict_saved_since_is_no_conflict_for_the_author(ui_store):
    """rev sent bob's version back ("revise": a status-only revision); bob's next save was
    refused with the conflict panel listing "status" changed by them."""
    from ui.history_handlers import HistoryHandlers

    editor = EditorHandlers(ui_store)
    bob = editor.load("ui/alpha", "bob")
    _, outcome = edit(editor, bob, "bob", question="Bob's first?")
    assert outcome["kind"] == "saved"
    bob = editor.load("ui/alpha", "bob")
    HistoryHandlers(ui_store).review("ui/alpha", outcome["version"], "rev", "revise")
    _, again = edit(editor, bob, "bob", question="Bob's second?")
    assert again["kind"] == "saved", again
    item = ui_store.get_item("ui/alpha")
    assert item["question"] == "Bob's second?" and item["status"] == "in_review"


def test_a_clue_removed_on_one_side_stays_removed_when_the_other_edited_another(ui_store):
    """anna removed a clue and saved; bob meanwhile edited another clue's reasoning: the
    panel showed one part "clues" (both, you choose) and Save merged brought the removed
    clue back (or, ticked, lost bob's edit)."""
    editor = EditorHandlers(ui_store)
    item = ui_store.get_item("ui/alpha")
    clues = item["clues"] + [{"text": "The clock says 9", "reasoning": "r", "boxes": []},
                             {"text": "A queue forms", "reasoning": "r", "boxes": []}]
    ui_store.save_item({**item, "clues": clues}, 1, "setup", "")
    bob = editor.load("ui/alpha", "bob")
    fresh = ui_store.get_item("ui/alpha")
    ui_store.save_item({**fresh, "clues": [c for c in fresh["clues"]
                                           if c["text"] != "The clock says 9"]},
                       fresh["version"], "anna", "")
    form = editor.form_values(bob["item"])
    rows = em.clue_rows(bob["item"])
    rows[-1][2] = "bob's reasoning"
    bob, outcome = editor.save(bob, {**form, "clues": rows}, None, "", "bob")
    assert outcome["kind"] == "conflict"
    parts = {row[0]: row for row in outcome["diff"]}
    assert parts[f"clue {len(clues) - 1}"][1:3] == ["them (theirs kept)", "(removed)"]
    assert parts[f"clue {len(clues)}"][1] == "you (yours kept)" and outcome["both"] == []
    _, saved = editor.save(bob, {**form, "clues": rows}, None, "", "bob",
                           base_version=outcome["current_version"])
    assert saved["kind"] == "saved", saved
    texts = [(c["text"], c["reasoning"]) for c in ui_store.get_item("ui/alpha")["clues"]]
    assert ("The clock says 9", "r") not in [(t, r) for t, r in texts]
    assert texts[-1] == ("A queue forms", "bob's reasoning")
    assert len(texts) == len(clues) - 1


def test_a_box_dragged_past_the_edge_is_cut_to_the_image_and_saves(ui_store):
    """The canvas handed back a box dragged to the bottom edge a pixel too tall (its scale
    rounded: 545 px / 0.495 = 1101 of 1100); every save then failed, naming
    "clues[2].boxes[1]"."""
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "bob")
    sha = work["item"]["images"][0]
    width, height = ui_store.image_sizes([sha])[sha]
    drawn = {"label": "clue 1", "color": (0, 0, 0), "xmin": width - 30, "ymin": height - 20,
             "xmax": width + 1, "ymax": height + 1}
    _, outcome = editor.save(work, editor.form_values(work["item"]), [drawn], "", "bob")
    assert outcome["kind"] == "saved", outcome
    boxes = ui_store.get_item("ui/alpha")["clues"][0]["boxes"]
    assert {"x1": float(width), "y1": float(height)}.items() <= boxes[-1].items()


def test_a_store_refusal_names_clues_and_boxes_as_the_editor_numbers_them():
    from ui.save_rules import in_words
    assert in_words("item d/x: clues[2].boxes[1]: box (1, 2, 3, 4) is outside the 9x9 image") \
        == "item d/x: clue 3 box 2: box (1, 2, 3, 4) is outside the 9x9 image"
    assert in_words("options[0].label: empty") == "option 1 label: empty"


def test_a_removal_beside_an_edit_on_the_same_side_is_still_merged_clue_by_clue():
    """alice removed clue 3 and edited clue 2's reasoning; bob edited clue 1's text: one
    whole-list part, and Save merged brought clue 3 back and undid alice's reasoning."""
    c = [{"text": f"clue {i} text", "reasoning": "r", "boxes": []} for i in range(3)]
    alice = {"clues": [c[0], {**c[1], "reasoning": "Alice R2"}]}
    bob = {"clues": [{**c[0], "text": "Bob text T1"}, c[1], c[2]]}
    assert [r[:2] for r in cr.rows({"clues": c}, alice, bob)] == [
        ["clue 1", "you (yours kept)"], ["clue 2", "them (theirs kept)"],
        ["clue 3", "them (theirs kept)"]]
    merged = cm.merge({"clues": c}, alice, bob)["clues"]
    assert [(x["text"], x["reasoning"]) for x in merged] == [("Bob text T1", "r"),
                                                             ("clue 1 text", "Alice R2")]


def _option(label: str, text: str) -> dict:
    return {"label": label, "text": text, "image": None}


def test_options_are_merged_by_label_when_one_side_removed_one_and_the_other_added_one():
    """A review: ann1 removed option A while ann2 edited option C and added E; the panel had
    one part "options" (both, you choose) and Save merged lost ann2's edit and option E."""
    base = {"options": [_option(x, f"{x} text") for x in "ABCD"], "answer": "C",
            "answer_type": "multiple_choice"}
    theirs = {**base, "options": [*base["options"][:2], _option("C", "The bookcase (100 cm)"),
                                  base["options"][3], _option("E", "A small shelf")]}
    mine = {**base, "options": base["options"][1:]}
    assert [r[:2] for r in cr.rows(base, theirs, mine)] == [
        ["option A", "you (yours kept)"], ["option C", "them (theirs kept)"],
        ["option E", "them (theirs kept)"]]
    assert cm.both_changed(base, theirs, mine) == []
    merged = cm.merge(base, theirs, mine)["options"]
    assert [(o["label"], o["text"]) for o in merged] == [
        ("B", "B text"), ("C", "The bookcase (100 cm)"), ("D", "D text"), ("E", "A small shelf")]


def test_an_option_my_gold_names_is_not_removed_without_asking():
    """A review: I changed the gold to D while they removed option D; Save merged built an
    item the store refused ("gold answer has no option: 'D'") and the panel offered nothing.
    The option is a part both changed: kept by default, theirs (removed) if ticked."""
    base = {"options": [_option(x, x) for x in "ABCD"], "answer": "C",
            "answer_type": "multiple_choice"}
    theirs = {**base, "options": base["options"][:3]}
    mine = {**base, "answer": "D"}
    together = "option D, answer — taken together"
    assert cm.both_changed(base, theirs, mine) == [together]       # one choice
    merged = cm.merge(base, theirs, mine)
    assert merged["answer"] == "D" and [o["label"] for o in merged["options"]] == list("ABCD")
    merged = cm.merge(base, theirs, mine, [together])        # theirs: both, never one
    assert (merged["answer"], [o["label"] for o in merged["options"]]) == ("C", list("ABC"))
    assert cm.refused_choice(base, theirs, mine, ["answer"]) == (
        "answer is taken from their version only with the rest of "
        "'option D, answer — taken together': choose that")
    # I removed option B while they set the gold to B: kept as mine (gold C, no B) or both
    # theirs (gold B with its option); Save merged built "gold answer has no option: 'B'"
    gold_b = {**base, "answer": "B"}
    no_b = {**base, "options": [o for o in base["options"] if o["label"] != "B"]}
    assert cm.both_changed(base, gold_b, no_b) == ["option B, answer — taken together"]
    merged = cm.merge(base, gold_b, no_b)
    assert (merged["answer"], [o["label"] for o in merged["options"]]) == ("C", list("ACD"))
    merged = cm.merge(base, gold_b, no_b, ["option B, answer — taken together"])
    assert (merged["answer"], [o["label"] for o in merged["options"]]) == ("B", list("ABCD"))
    # their removal of an option no answer names is theirs, no question
    assert cm.both_changed(base, {**base, "options": base["options"][1:]}, mine) == []


def test_of_two_identical_clues_the_removal_is_of_the_one_the_colleague_left_alone():
    """A review: clues 4 and 5 both "Same words"; ann1 removed clue 4 while ann2 gave clue 5
    a reasoning: the panel said ann1 had removed clue 5, and Save merged lost ann2's
    reasoning."""
    other = {"text": "A sign", "reasoning": "", "boxes": []}
    twin = {"text": "Same words", "reasoning": "", "boxes": []}
    base = {"clues": [other, twin, dict(twin)]}
    theirs = {"clues": [other, twin, {**twin, "reasoning": "ann2 on the third"}]}
    mine = {"clues": [other, twin]}
    assert [r[:2] for r in cr.rows(base, theirs, mine)] == [
        ["clue 2 (you removed it)", "you (yours kept)"], ["clue 2", "them (theirs kept)"]]
    merged = cm.merge(base, theirs, mine)["clues"]
    assert [(c["text"], c["reasoning"]) for c in merged] == [
        ("A sign", ""), ("Same words", "ann2 on the third")]


def test_of_two_clues_of_the_same_text_the_removed_one_is_the_one_whose_boxes_went():
    box = {"image": "s1", **BOX}
    first = {"text": "Same words", "reasoning": "", "boxes": [box]}
    second = {"text": "Same words", "reasoning": "", "boxes": [{**box, "x0": 1}]}
    base = {"clues": [first, second]}
    theirs = {"clues": [first, {**second, "reasoning": "theirs"}]}
    mine = {"clues": [second]}                            # I removed the first
    merged = cm.merge(base, theirs, mine)["clues"]
    assert merged == [{**second, "reasoning": "theirs"}]


def test_a_move_of_clues_with_alike_texts_keeps_the_colleague_s_edit_whatever_the_boxes():
    """A review: ann1 moved "The alcove is 110 cm wide …" past "The bookcase is 100 cm wide
    …" (texts 62% alike) while ann2 edited the bookcase clue; the browser's copy of the boxes
    differed in the least, every clue compared as rewritten, the two paired in place, and
    Save merged dropped ann2's edit (ticked, it kept the bookcase twice and lost the alcove)."""
    def boxed(text: str, x: float) -> dict:
        return {"text": text, "reasoning": "r",
                "boxes": [{"image": "s1", **BOX, "x0": float(x), "y0": 20.0}]}
    alcove = boxed("The alcove is 110 cm wide and 60 cm deep", 10)
    bookcase = boxed("The bookcase is 100 cm wide (and shallow)", 20)
    wardrobe = boxed("The wardrobe is 120 cm and the desk 140 cm wide", 30)
    base = {"clues": [alcove, bookcase, wardrobe]}
    theirs = {"clues": [alcove, {**bookcase, "reasoning": "ann2 on the bookcase"}, wardrobe]}
    noisy = [{**c, "boxes": [{**b, "x0": int(b["x0"]), "y0": int(b["y0"])} for b in c["boxes"]]}
             for c in (bookcase, alcove, wardrobe)]  # moved, boxes as the browser sends them
    mine = {"clues": noisy}
    assert cm.both_changed(base, theirs, mine) == []
    merged = cm.merge(base, theirs, mine)["clues"]
    assert [(c["text"][:12], c["reasoning"]) for c in merged] == [
        ("The bookcase", "ann2 on the bookcase"), ("The alcove i", "r"), ("The wardrobe", "r")]


def test_two_options_both_added_under_one_letter_are_both_kept():
    """A review: both pressed Add option and typed an option E; the panel had one part
    "option E" (you choose) and one person's new option was lost unless ticked. Theirs,
    saved, keeps its letter; mine moves to the next free one."""
    base = {"options": [_option(x, x) for x in "ABCD"], "answer": "C",
            "answer_type": "multiple_choice"}
    theirs = {**base, "options": [*base["options"], _option("E", "€7.50")]}
    mine = {**base, "options": [*base["options"], _option("E", "€4.00")]}
    assert cm.both_changed(base, theirs, mine) == []
    merged = cm.merge(base, theirs, mine)["options"]
    assert [(o["label"], o["text"]) for o in merged][4:] == [("E", "€7.50"), ("F", "€4.00")]
    assert sorted(r[:2] for r in cr.rows(base, theirs, mine)) == [
        ["option E", "them (theirs kept)"], ["option F (your E)", "you (yours kept)"]]

