"""Concurrent edits of each scalar field (domain, subtask, GT reasoning, aliases, question),
and of an item whose answer type one side switched, through the editor's handlers on a real
store: the conflict panel offers the choice, Save merged stores exactly what was chosen
(read back from SQLite through the store), nothing the other side changed in a field I did
not touch is lost, and the revision history names the merge and the parts taken."""
import pytest

from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui.editor_handlers import EditorHandlers
from ui.history_handlers import HistoryHandlers

# field: (form key, their value, my value, as the store holds theirs, mine, panel label)
FIELDS = {
    "domain": ("domain", "Alice's domain", "Bob's domain", "Alice's domain", "Bob's domain",
               "domain"),
    "subtask": ("subtask", "Alice's subtask", "Bob's subtask", "Alice's subtask",
                "Bob's subtask", "subtask"),
    "gt_reasoning": ("gt_reasoning", "alice's reasoning", "bob's reasoning",
                     "alice's reasoning", "bob's reasoning", "GT reasoning"),
    "aliases": ("aliases", "twelve\nxii", "12th", ["twelve", "xii"], ["12th"], "aliases"),
    "question": ("question", "Alice's question?", "Bob's question?", "Alice's question?",
                 "Bob's question?", "question"),
}


def _save(editor, work, user, **changes):
    form = {**editor.form_values(work["item"]), **changes}
    return editor.save(work, form, None, "", user)


def _conflict(ui_store, theirs: dict, mine: dict, item_id="ui/alpha"):
    """alice saves `theirs` (form changes); bob, from the same version, saves `mine`: a
    conflict. (editor, bob's work, bob's form, the outcome)."""
    editor = EditorHandlers(ui_store)
    alice, bob = editor.load(item_id, "alice"), editor.load(item_id, "bob")
    _, outcome = _save(editor, alice, "alice", **theirs)
    assert outcome["kind"] == "saved", outcome
    form = {**editor.form_values(bob["item"]), **mine}
    bob, outcome = editor.save(bob, form, None, "", "bob")
    assert outcome["kind"] == "conflict", outcome
    return editor, bob, form, outcome


def _merge(editor, bob, form, outcome, take=()):
    _, saved = editor.save(bob, form, None, "", "bob",
                           base_version=outcome["current_version"], take_saved=list(take))
    assert saved["kind"] == "saved", saved
    return saved


def _comment(ui_store, item_id="ui/alpha") -> str:
    return ui_store.history(item_id)[0]["comment"]


def _history_fields(ui_store, version_a, version_b, item_id="ui/alpha") -> list[str]:
    return [row[0] for row in HistoryHandlers(ui_store).diff(item_id, version_a, version_b)]


@pytest.mark.parametrize("field", [f for f in FIELDS if f != "aliases"])   # aliases: a union
@pytest.mark.parametrize("take", [False, True], ids=["mine", "theirs"])
def test_both_changing_one_field_is_offered_and_saved_as_chosen(ui_store, field, take):
    key, theirs, mine, stored_theirs, stored_mine, name = FIELDS[field]
    # alice also changes the answer, which bob leaves alone: it must survive either way;
    # bob also changes a field alice leaves alone: his, either way
    extra = "subtask" if field != "subtask" else "domain"
    editor, bob, form, outcome = _conflict(ui_store, {key: theirs, "answer": "13"},
                                           {key: mine, extra: "Bob's other"})
    rows = {row[0]: row for row in outcome["diff"]}
    assert rows[name][1] == "both (you choose)" and outcome["both"] == [name]
    assert rows["answer"][1] == "them (theirs kept)"
    assert rows[extra][1] == "you (yours kept)"
    saved = _merge(editor, bob, form, outcome, [name] if take else [])
    item = ui_store.get_item("ui/alpha")
    assert item[field] == (stored_theirs if take else stored_mine)
    assert (item["answer"], item[extra]) == ("13", "Bob's other")
    assert item["version"] == saved["version"] == 3
    comment = _comment(ui_store)
    assert "merged with version 2 by alice" in comment
    assert (f"alice's taken over bob's: {name}" in comment) == take
    assert (f"bob's kept over alice's: {name}" in comment) == (not take)
    changed = _history_fields(ui_store, 1, 3)
    assert name in changed and "answer" in changed


@pytest.mark.parametrize("field", list(FIELDS))
def test_one_field_changed_on_each_side_keeps_both(ui_store, field):
    key, theirs, _, stored_theirs, _, name = FIELDS[field]
    other = "question" if field != "question" else "domain"
    mine_key, _, mine, _, stored_mine, mine_name = FIELDS[other]
    editor, bob, form, outcome = _conflict(ui_store, {key: theirs}, {mine_key: mine})
    rows = {row[0]: row[1] for row in outcome["diff"]}
    assert rows == {name: "them (theirs kept)", mine_name: "you (yours kept)"}
    assert outcome["both"] == []
    _merge(editor, bob, form, outcome)
    item = ui_store.get_item("ui/alpha")
    assert (item[field], item[other]) == (stored_theirs, stored_mine)
    assert "merged with version 2 by alice" in _comment(ui_store)
    assert set(_history_fields(ui_store, 2, 3)) == {mine_name}
    assert {name, mine_name} <= set(_history_fields(ui_store, 1, 3))


def test_a_conflict_after_they_switched_multiple_choice_to_open(ui_store):
    """alice switched ui/gamma from multiple choice to open (gold "blue") while bob edited
    option B and the question: the type is offered only with what depends on it; bob's
    question is kept; taken, alice's open item is saved whole as she left it."""
    editor = EditorHandlers(ui_store)
    alice, bob = editor.load("ui/gamma", "alice"), editor.load("ui/gamma", "bob")
    _, outcome = _save(editor, alice, "alice", answer_type="open", answer="blue")
    assert outcome["kind"] in ("saved", "switched"), outcome
    if outcome["kind"] == "switched":
        alice = _
        _, outcome = _save(editor, alice, "alice", answer="blue")
    assert outcome["kind"] == "saved", outcome
    theirs = ui_store.get_item("ui/gamma")
    assert (theirs["answer_type"], theirs["answer"]) == ("open", "blue")
    form = editor.form_values(bob["item"])
    form["options"] = [row[:] for row in form["options"]]
    form["options"][1][1] = "crimson"
    form["question"] = "Bob's question?"
    bob, outcome = editor.save(bob, form, None, "", "bob")
    assert outcome["kind"] == "conflict"
    assert outcome["both"] == ["answer type, options A, B, answer — taken together"], \
        outcome["diff"]
    # taken: their open item, with my question
    _, saved = editor.save(bob, form, None, "", "bob", base_version=outcome["current_version"],
                           take_saved=list(outcome["both"]))
    assert saved["kind"] == "saved", saved
    item = ui_store.get_item("ui/gamma")
    assert (item["answer_type"], item["answer"], item["question"]) == (
        "open", "blue", "Bob's question?")
    assert "alice's taken over bob's: answer type, options A, B, answer" in _comment(ui_store, "ui/gamma")


def test_a_conflict_after_they_switched_multiple_choice_to_open_kept_mine(ui_store):
    """The same, bob's multiple choice kept: his options (with his edit) and gold, and
    alice's question edit (a field he left alone) kept."""
    editor = EditorHandlers(ui_store)
    alice, bob = editor.load("ui/gamma", "alice"), editor.load("ui/gamma", "bob")
    alice["item"]["answer_type"] = "open"
    alice["item"]["answer"] = "blue"
    alice["item"]["options"] = []
    alice["item"]["question"] = "Alice's question?"
    ui_store.save_item({k: v for k, v in alice["item"].items() if not k.startswith("_")},
                       1, "alice", "")
    form = editor.form_values(bob["item"])
    form["options"] = [row[:] for row in form["options"]]
    form["options"][1][1] = "crimson"
    bob, outcome = editor.save(bob, form, None, "", "bob")
    assert outcome["kind"] == "conflict"
    assert outcome["both"] == ["answer type, options A, B, answer — taken together"], \
        outcome["diff"]
    _, saved = editor.save(bob, form, None, "", "bob", base_version=outcome["current_version"])
    assert saved["kind"] == "saved", saved
    item = ui_store.get_item("ui/gamma")
    assert (item["answer_type"], item["answer"]) == ("multiple_choice", "A")
    assert [(o["label"], o["text"]) for o in item["options"]] == [("A", "blue"),
                                                                  ("B", "crimson")]
    assert item["question"] == "Alice's question?"


def test_a_conflict_after_i_switched_to_numeric_while_they_edited_the_gold(ui_store):
    """bob switched ui/alpha from open to numeric (gold 12) while alice changed the open
    gold to "12a": the type and gold are one choice; kept mine, the item is numeric with
    bob's gold (not open with a numeric gold, nor numeric with "12a")."""
    editor = EditorHandlers(ui_store)
    alice, bob = editor.load("ui/alpha", "alice"), editor.load("ui/alpha", "bob")
    _, outcome = _save(editor, alice, "alice", answer="12a", domain="Alice's domain")
    assert outcome["kind"] == "saved", outcome
    bob, outcome = _save(editor, bob, "bob", answer_type="numeric")
    if outcome["kind"] == "switched":
        bob, outcome = _save(editor, bob, "bob")
    assert outcome["kind"] == "conflict", outcome
    assert outcome["both"] == ["answer type, answer — taken together"], outcome["diff"]
    form = editor.form_values(bob["item"])
    _, saved = editor.save(bob, form, None, "", "bob", base_version=outcome["current_version"])
    assert saved["kind"] == "saved", saved
    item = ui_store.get_item("ui/alpha")
    assert item["answer_type"] == "numeric" and item["answer"] in ("12", "12.0")
    assert item["domain"] == "Alice's domain"


def test_two_tabs_of_one_account_the_second_save_is_a_conflict(ui_store):
    """ann1 edits one item in two tabs (two browser sessions of one account), each typing
    (autosaved) then saving: the second save is refused with the conflict panel, naming
    the other tab, and Save merged keeps the first tab's edit."""
    editor = EditorHandlers(ui_store)
    one, two = editor.load("ui/alpha", "ann1"), editor.load("ui/alpha", "ann1")
    form_one = {**editor.form_values(one["item"]), "question": "From tab one?"}
    form_two = {**editor.form_values(two["item"]), "gt_reasoning": "from tab two"}
    assert editor.autosave(one, form_one, None, "ann1", "tab-1")
    editor.autosave(two, form_two, None, "ann1", "tab-2", force=True)
    _, first = editor.save(one, form_one, None, "", "ann1", session="tab-1")
    assert first["kind"] == "saved", first
    editor.autosave(two, form_two, None, "ann1", "tab-2")
    two, second = editor.save(two, form_two, None, "", "ann1", session="tab-2")
    assert second["kind"] == "conflict", second
    assert second["by"] == "your other tab"
    assert ui_store.get_item("ui/alpha")["question"] == "From tab one?"
    rows = {row[0]: row[1] for row in second["diff"]}
    assert rows == {"question": "your other tab (its edit kept)",
                    "GT reasoning": "this tab (yours kept)"}
    _, merged = editor.save(two, form_two, None, "", "ann1", session="tab-2",
                            base_version=second["current_version"])
    assert merged["kind"] == "saved", merged
    item = ui_store.get_item("ui/alpha")
    assert (item["question"], item["gt_reasoning"]) == ("From tab one?", "from tab two")
    assert "Merged with version 2 by you, in another tab or window." in merged["message"]
    assert "merged with version 2 by ann1" in _comment(ui_store)    # as others read it


def test_two_tabs_of_one_account_through_the_page_s_events(ui_store):
    """The same, through the page's own events (ui.server.build_app) from two browser
    sessions of one account: the second tab's save opens the conflict panel, and the first
    tab's save stays in the store."""
    import gradio as gr

    from tests.test_annotate_page_fixes import out, switch_values
    from ui.annotate_drafts import draft_key
    from ui.annotate_render import Renderer
    from ui.server import build_app

    events = {fn.api_name: fn.fn for fn in build_app(ui_store).fns.values()}
    tabs = [gr.Request(headers={"origin": "http://127.0.0.1:7860"}, session_hash=f"tab-{n}")
            for n in (1, 2)]
    editor = EditorHandlers(ui_store)
    works = [editor.load("ui/alpha", "local") for _ in tabs]
    typed = [switch_values(works[0]["item"], question="From tab one?"),
             switch_values(works[1]["item"], gt_reasoning="from tab two")]
    for tab, work, values in zip(tabs, works, typed):
        events["autosave_draft"](tab, draft_key(work), work, "", *values)
    first = events["save_item"](tabs[0], works[0], *typed[0], "", [])
    assert "version 2" in out(first, "save_message")
    events["autosave_draft"](tabs[1], draft_key(works[1]), works[1], "", *typed[1])
    second = events["save_item"](tabs[1], works[1], *typed[1], "", [])
    panel, message = second[len(Renderer.OUTPUTS)], second[len(Renderer.OUTPUTS) + 1]
    assert panel["visible"] is True and "another tab or window" in message, message
    item = ui_store.get_item("ui/alpha")
    assert (item["version"], item["question"], item["gt_reasoning"]) == (
        2, "From tab one?", "")
