"""The conflict panel's choices, through the editor's handlers on a real store (read back
from SQLite): an option both added under one letter, linked parts offered as one choice,
aliases merged as sets, and who changed each part said as it is (an annotator's review)."""
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui import conflict_merge as cm
from ui.editor_handlers import EditorHandlers
from ui.history_handlers import HistoryHandlers


def _form(editor, work, **changes):
    form = {**editor.form_values(work["item"]), **changes}
    form["options"] = [row[:] for row in form["options"]]
    return form


def _conflict(ui_store, item_id, theirs, mine):
    """alice saves the form `theirs` makes, bob from the same version the one `mine` makes
    (each a function of a form): a conflict. (editor, bob's work, bob's form, outcome)."""
    editor = EditorHandlers(ui_store)
    alice, bob = editor.load(item_id, "alice"), editor.load(item_id, "bob")
    _, outcome = editor.save(alice, theirs(_form(editor, alice)), None, "", "alice")
    assert outcome["kind"] == "saved", outcome
    form = mine(_form(editor, bob))
    bob, outcome = editor.save(bob, form, None, "", "bob")
    assert outcome["kind"] == "conflict", outcome
    return editor, bob, form, outcome


def _merge(editor, bob, form, outcome, take=()):
    return editor.save(bob, form, None, "", "bob", base_version=outcome["current_version"],
                       take_saved=list(take))[1]


def _added(label, text, gold=False):
    def change(form):
        form["options"].append([label, text, ""])
        if gold:
            form["answer"] = label
        return form
    return change


def _options(ui_store, item_id="ui/gamma"):
    item = ui_store.get_item(item_id)
    return item["answer"], [(o["label"], o["text"]) for o in item["options"]]


def test_an_option_both_added_under_one_letter_keeps_their_saved_letter_and_gold(ui_store):
    """A review: alice (saved first) added option C "Salt" and made it the gold; bob added C
    "Cocoa". Save merged moved alice's Salt to D and left her gold C: the saved gold named
    bob's Cocoa. Theirs keeps its letter, mine moves to the next free one."""
    editor, bob, form, outcome = _conflict(ui_store, "ui/gamma", _added("C", "Salt", True),
                                           _added("C", "Cocoa"))
    rows = {row[0]: row[1:] for row in outcome["diff"]}
    assert rows["option C"] == ["them (theirs kept)", "C: Salt", ""]
    assert rows["option D (your C)"] == ["you (yours kept)", "", "D: Cocoa"]
    assert outcome["both"] == []
    assert _merge(editor, bob, form, outcome)["kind"] == "saved"
    assert _options(ui_store) == ("C", [("A", "blue"), ("B", "red"), ("C", "Salt"),
                                        ("D", "Cocoa")])
    history = HistoryHandlers(ui_store).diff("ui/gamma", 2, 3)
    assert [row[0] for row in history] == ["option D"], history      # only mine added


def test_my_answer_naming_my_moved_option_moves_with_it(ui_store):
    editor, bob, form, outcome = _conflict(ui_store, "ui/gamma", _added("C", "Salt", True),
                                           _added("C", "Cocoa", True))
    assert outcome["both"] == ["answer"]              # her gold Salt, mine Cocoa
    assert {row[0]: row[2:] for row in outcome["diff"]}["answer"] == ["C", "D"]
    assert _merge(editor, bob, form, outcome)["kind"] == "saved"
    assert _options(ui_store)[0] == "D"                # Cocoa, mine
    # (new texts: options of the same text are refused, judges.option_duplicates)
    editor, bob, form, outcome = _conflict(ui_store, "ui/gamma", _added("E", "Pepper", True),
                                           _added("E", "Sugar", True))
    assert _merge(editor, bob, form, outcome, ["answer"])["kind"] == "saved"
    assert _options(ui_store)[0] == "E"                # taken: hers, Pepper
    assert ("E", "Pepper") in _options(ui_store)[1]


def _to_open(form):
    form.update(answer_type="open", answer="blue", options=[])
    return form


def test_linked_parts_are_one_choice_and_who_changed_each_is_said(ui_store):
    """A review: alice switched multiple choice to open while bob added option C and made
    it the gold; the panel had a checkbox each (answer type, option C, answer), ticking
    "answer type" alone took all, and bob's option and gold went with "Nothing to save"."""
    editor, bob, form, outcome = _conflict(ui_store, "ui/gamma", _to_open,
                                           _added("C", "green", True))
    choice = "answer type, options A–C, answer — taken together"
    assert outcome["both"] == [choice]
    rows = {row[0]: row[1] for row in outcome["diff"]}
    assert rows == {"answer type": "them (you choose, taken together)",
                    "option A": "them (you choose, taken together)",
                    "option B": "them (you choose, taken together)",
                    "option C": "you (you choose, taken together)",
                    "answer": "both (you choose, taken together)"}
    refused = _merge(editor, bob, form, outcome, ["answer type"])
    assert refused["kind"] == "invalid" and choice in refused["message"]
    assert ui_store.get_item("ui/gamma")["version"] == 2
    assert _merge(editor, bob, form, outcome)["kind"] == "saved"     # nothing ticked: mine
    assert _options(ui_store) == ("C", [("A", "blue"), ("B", "red"), ("C", "green")])


def test_a_merge_keeping_none_of_my_edits_says_which_were_replaced(ui_store):
    editor, bob, form, outcome = _conflict(ui_store, "ui/gamma", _to_open,
                                           _added("C", "green", True))
    said = _merge(editor, bob, form, outcome, outcome["both"])
    assert said == {"kind": "unchanged", "message": (
        "Nothing to save: ui/gamma is as saved (version 2). Your edits of option C, answer "
        "were replaced by version 2, saved by alice.")}


def test_options_linked_are_named_by_runs_of_letters():
    base = {"answer_type": "multiple_choice",          # in the item's field order
            "options": [{"label": x, "text": x, "image": None} for x in "ABCDEG"], "answer": "A"}
    theirs = {**base, "answer_type": "open", "answer": "a", "options": []}
    mine = {**base, "answer": "G"}
    assert cm.together(base, theirs, mine) == \
        "answer type, options A–E, G, answer — taken together"


def _aliases(text):
    def change(form):
        form["aliases"] = text
        return form
    return change


def test_aliases_both_changed_are_merged_as_sets(ui_store):
    """A review: both added an alias: "aliases · both (you choose)", one always lost."""
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "alice")
    assert editor.save(work, _aliases("one\ntwo\nthree")(_form(editor, work)), None, "",
                       "alice")[1]["kind"] == "saved"
    editor, bob, form, outcome = _conflict(ui_store, "ui/alpha", _aliases("one\nthree\nx"),
                                           _aliases("one\ntwo\ny"))
    assert outcome["both"] == []
    assert {row[0]: row[1] for row in outcome["diff"]} == {
        "aliases": "both, merged: your new alias added, their new alias added, "
                   "the alias they removed stays removed, the alias you removed stays removed"}
    assert _merge(editor, bob, form, outcome)["kind"] == "saved"
    assert ui_store.get_item("ui/alpha")["aliases"] == ["one", "x", "y"]
