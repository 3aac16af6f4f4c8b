"""An annotator's review of saving, through the editor's handlers on a real store: an empty
gold answer past draft, a merged save that adds nothing, and import problems ticked but not
marked resolved before the save."""
from gradio_client import Client

from store import Store
from tests.live_server import start_ui_server
from tests.test_conflict_merge import conflicted
from tests.test_save_rules import MC2, NOT_FOUND, last_revision
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from tests.test_ui_wiring import save_args
from ui import save_rules as rules
from ui.editor_handlers import EditorHandlers


def test_an_item_past_draft_is_not_saved_with_an_empty_gold_answer(ui_store):
    """An empty gold answer saved on an item in review, with no word."""
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "ann")
    form = editor.form_values(work["item"]) | {"answer": "", "status": "in_review"}
    _, outcome = editor.save(work, form, None, "", "ann")
    assert outcome == {"kind": "invalid", "message": (
        "Gold answer: empty: an item in review needs its gold answer; keep it a draft until "
        "it has one")}
    assert ui_store.get_item("ui/alpha")["version"] == 1
    for status in ("candidate", "verified", "rejected"):
        _, outcome = editor.save(work, form | {"status": status}, None, "", "ann")
        assert outcome["message"] == (f"Gold answer: empty: a {status} item needs its gold "
                                      "answer; keep it a draft until it has one")
    # a draft may wait for its answer, and the save says it has none
    _, outcome = editor.save(work, form | {"status": "draft"}, None, "", "ann")
    assert outcome["kind"] == "saved", outcome
    assert outcome["message"] == ("Saved ui/alpha as version 2. It has no gold answer yet: "
                                  "it stays a draft until it has one.")
    assert ui_store.get_item("ui/alpha")["answer"] == ""


def test_save_merged_after_reload_saved_version_makes_no_copy_of_it(ui_store):
    """Save merged after Reload saved version made version 3, alice's version 2 again,
    "merged with version 2 by alice"."""
    editor, bob, outcome = conflicted(ui_store)
    reloaded = editor.discard_draft(bob, "bob")                # Reload saved version
    work, saved = editor.save(reloaded, editor.form_values(reloaded["item"]), None, "", "bob",
                              base_version=outcome["current_version"])
    assert saved == {"kind": "unchanged",
                     "message": "Nothing to save: ui/alpha is as saved (version 2)."}
    assert ui_store.get_item("ui/alpha")["version"] == 2
    assert last_revision(ui_store, "ui/alpha")["author"] == "alice"
    assert work["saved"]["version"] == 2 and ui_store.get_draft("bob", "ui/alpha") is None


def test_save_merged_of_edits_the_saved_version_already_has_makes_no_version(ui_store):
    """bob's edits, from version 1, are alice's exactly: merged, they are her version 2;
    the page then shows version 2, no draft left."""
    editor = EditorHandlers(ui_store)
    alice, bob = editor.load("ui/alpha", "alice"), editor.load("ui/alpha", "bob")
    form = editor.form_values(alice["item"]) | {"question": "Same question?"}
    assert editor.save(alice, form, None, "", "alice")[1]["kind"] == "saved"
    bob, outcome = editor.save(bob, form, None, "", "bob")
    assert outcome["kind"] == "conflict"
    work, saved = editor.save(bob, form, None, "", "bob",
                              base_version=outcome["current_version"])
    assert saved["kind"] == "unchanged" and ui_store.get_item("ui/alpha")["version"] == 2
    assert (work["base_version"], work["saved"]["version"]) == (2, 2)
    assert ui_store.get_draft("bob", "ui/alpha") is None


def test_a_save_marks_the_ticked_import_problems_resolved(ui_store):
    """Problems ticked in "Mark import problems resolved" without its button were dropped
    by the next save."""
    ui_store.create_item({**MC2, "problems": [NOT_FOUND]}, "import")
    editor = EditorHandlers(ui_store)
    work = editor.load("dailyclue/mc2", "ann")
    form = editor.form_values(work["item"]) | {"answer_type": "multiple_choice",
                                                "answer": "A"}
    _, outcome = editor.save(work, form, None, "gold A", "ann", ticked=[NOT_FOUND])
    assert outcome["kind"] == "saved", outcome
    saved = ui_store.get_item("dailyclue/mc2")
    assert (saved["problems"], saved["flagged"]) == ([], False)
    assert last_revision(ui_store, "dailyclue/mc2")["comment"] == (
        "gold A · import problems marked resolved: " + NOT_FOUND)


def test_ticked_import_problems_alone_are_something_to_save(ui_store):
    """Nothing else edited: the ticks are the edit, as after Mark resolved."""
    ui_store.create_item({**MC2, "answer_type": "multiple_choice", "answer": "A",
                          "problems": [NOT_FOUND]}, "import")
    editor = EditorHandlers(ui_store)
    work = editor.load("dailyclue/mc2", "ann")
    form = editor.form_values(work["item"])
    _, outcome = editor.save(work, form, None, "", "ann", ticked=["not a problem it has"])
    assert outcome["kind"] == "unchanged"                   # a stale tick changes nothing
    _, outcome = editor.save(work, form, None, "", "ann", ticked=[NOT_FOUND])
    assert outcome["message"] == "Saved dailyclue/mc2 as version 2."
    assert ui_store.get_item("dailyclue/mc2")["problems"] == []
    assert rules.apply_ticked({"problems": [NOT_FOUND]}, [NOT_FOUND]) == {
        "problems": [], rules.RESOLVED: [NOT_FOUND]}


def test_the_pages_save_sends_the_ticks_and_a_script_may_leave_them_out(tmp_path):
    """Save (Ctrl+S, Enter in the comment, Save merged) sends the ticked problems; a script's
    save_item with the values it took before (no ticks) still saves."""
    server = start_ui_server(tmp_path)
    try:
        store = Store.open(server.db)
        item = store.get_item("ui/gamma")
        store.save_item({**item, "problems": [NOT_FOUND]}, item["version"], "import", "")
        store.close()
        c = Client(server.url, verbose=False, download_files=False)
        loaded = c.predict("ui/gamma", api_name="/load_item")
        out = c.predict(*save_args(loaded, "Which colour?", ""), api_name="/save_item")
        assert "Saved ui/gamma as version 3" in " ".join(map(str, out))
        loaded = c.predict("ui/gamma", api_name="/load_item")
        out = c.predict(*save_args(loaded, "Which colour?", ""), [NOT_FOUND],
                        api_name="/save_item")
        assert "Saved ui/gamma as version 4" in " ".join(map(str, out))
        store = Store.open(server.db)
        assert store.get_item("ui/gamma")["problems"] == []
        assert last_revision(store, "ui/gamma")["comment"] == (
            "import problems marked resolved: " + NOT_FOUND)
        store.close()
    finally:
        server.stop()


def test_a_clue_without_text_waits_in_a_draft_and_is_refused_past_it(ui_store):
    """Add clue then Save kept an empty clue on an item in review without a word: a clue
    injection would give models an empty clue."""
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "ann")
    item = work["item"]
    n = len(item["clues"]) + 1                       # the clue Add clue made
    work = {**work, "item": {**item, "clues": [*item["clues"],
                                               {"text": "", "reasoning": "", "boxes": []}]}}
    form = editor.form_values(work["item"]) | {"status": "in_review"}
    _, outcome = editor.save(work, form, None, "", "ann")
    assert outcome == {"kind": "invalid", "message": (
        f"Clues: clue {n} has no text: type what it shows, or remove it; a clue without "
        "words may only wait in a draft")}
    assert ui_store.get_item("ui/alpha")["version"] == 1
    _, outcome = editor.save(work, form | {"status": "draft"}, None, "", "ann")
    assert outcome["kind"] == "saved", outcome
    assert outcome["message"].endswith(
        f"Clue {n} has no text yet: it stays a draft until each clue has its words.")


def test_a_save_in_one_tab_keeps_the_draft_another_tab_wrote(ui_store):
    """Two tabs of one user: B saved (or pressed Save with nothing to save) and A's draft,
    edits B never saw, was deleted; A's reload then showed the saved item, A's edits gone."""
    editor = EditorHandlers(ui_store)
    tab_a, tab_b = editor.load("ui/alpha", "ann"), editor.load("ui/alpha", "ann")
    form_a = editor.form_values(tab_a["item"]) | {"question": "Tab A's question?"}
    editor.autosave(tab_a, form_a, None, "ann", "A")
    _, outcome = editor.save(tab_b, editor.form_values(tab_b["item"]), None, "", "ann",
                             session="B")
    assert outcome["kind"] == "unchanged"
    assert ui_store.get_draft("ann", "ui/alpha")["data"]["question"] == "Tab A's question?"
    form_b = editor.form_values(tab_b["item"]) | {"gt_reasoning": "Tab B's reasoning"}
    after, outcome = editor.save(tab_b, form_b, None, "", "ann", session="B")
    assert outcome["kind"] == "saved"
    assert ui_store.get_draft("ann", "ui/alpha")["data"]["question"] == "Tab A's question?"
    # B shows what it saved, not A's draft (its own edit vanished right after "Saved"), and
    # says where A's edits are
    assert after["item"]["gt_reasoning"] == "Tab B's reasoning"
    assert after["item"]["question"] == ui_store.get_item("ui/alpha")["question"]
    assert after["draft_seen"] is None and after["base_version"] == outcome["version"]
    assert after["notice"].startswith("Another tab or window keeps unsaved edits of this item")
    # the autosave of B's fields after its save (the box redraw fires one) has nothing of B's
    # to keep: it leaves A's draft alone and says nothing; it raised DraftConflict, and the
    # page put "Not kept as a draft" and the tab choice over B's "Saved … as version 2"
    assert editor.autosave(after, editor.form_values(after["item"]), None, "ann", "B") == ""
    assert ui_store.get_draft("ann", "ui/alpha")["data"]["question"] == "Tab A's question?"
    # A's own save drops A's draft
    _, outcome = editor.save(tab_a, form_a, None, "", "ann", session="A")
    assert outcome["kind"] == "conflict"                   # B saved version 2 meanwhile
    # ann's own other tab, not "changed by ann … take from ann's version" said to ann
    assert "was changed by you, in another tab or window at" in outcome["message"]
    assert outcome["by"] == "your other tab"
    # its table says so too ("them (theirs kept)" named a colleague who was not there)
    who = {row[1] for row in outcome["diff"]}
    assert who and not any(w.startswith("them") for w in who), who
    _, outcome = editor.save(tab_a, form_a, None, "", "ann",
                             base_version=outcome["current_version"], session="A")
    assert outcome["kind"] == "saved", outcome
    # and Save merged says it merged (it said only "Saved … as version 3")
    assert outcome["message"].startswith("Saved ui/alpha as version 3. Merged with version 2 "
                                         "by you, in another tab or window.")
    assert ui_store.get_draft("ann", "ui/alpha") is None


def test_a_save_says_which_import_problems_stay_until_marked_resolved(ui_store):
    """An image added to an item whose image was not found at import, saved: still
    flagged, and nothing said why."""
    from tests.test_save_rules import NOT_FOUND
    item = ui_store.get_item("ui/alpha")
    ui_store.save_item({**item, "problems": [NOT_FOUND]}, item["version"], "bob", "")
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "ann")
    form = editor.form_values(work["item"]) | {"question": "Which exit, now?"}
    _, outcome = editor.save(work, form, None, "", "ann")
    assert outcome["message"] == (       # image 3 lost at import, the item has two
        "Saved ui/alpha as version 3. 1 import problem still holds (image file not found): "
        "fix what it says (see Import problems), or mark it resolved.")
    duplicate = "duplicate id in file: imported as 'ui/alpha' (no rule can check this)"
    ui_store.save_item({**ui_store.get_item("ui/alpha"), "problems": [duplicate]}, 3, "bob",
                       "")
    work = editor.load("ui/alpha", "ann")
    form = editor.form_values(work["item"]) | {"question": "Which exit, at last?"}
    _, outcome = editor.save(work, form, None, "", "ann")
    assert outcome["message"] == (
        "Saved ui/alpha as version 5. 1 import problem stays until you mark it resolved "
        "(Mark import problems resolved): no rule can check it again.")
