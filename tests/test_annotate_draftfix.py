"""An annotator reviewer's round on drafts, reviews and restores, through the editor's handlers
on a real store: two tabs of one account and the draft a refused save keeps, Open version N
after a refused review, the reason a review of a restore is refused."""
import gradio as gr
import pytest

from store import DraftConflict
from tests.test_annotate_page_fixes import PAGE, out, switch_values
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui.editor_handlers import EditorHandlers
from ui.editor_model import EditError
from ui.history_handlers import HistoryHandlers
from ui.server import build_app


def page_handlers(store) -> dict:
    """The Annotate page's events by api_name, called as plain functions."""
    return {fn.api_name: fn.fn for fn in build_app(store).fns.values()}


def test_a_save_refused_by_a_conflict_keeps_no_draft_over_another_tabs(ui_store):
    """Tab 2 chose "Keep this tab's edits"; tab 1, on an older version, saved: the conflict
    kept tab 1's edits as the draft, tab 2's gone unasked, and tab 2's next edit replaced
    tab 1's back, unasked too."""
    editor = EditorHandlers(ui_store)
    tab1, tab2 = editor.load("ui/alpha", "ann"), editor.load("ui/alpha", "ann")
    form1 = editor.form_values(tab1["item"]) | {"question": "Tab 1's question?"}
    form2 = editor.form_values(tab2["item"]) | {"question": "Tab 2's question?"}
    editor.autosave(tab1, form1, None, "ann", "1")
    with pytest.raises(DraftConflict):
        editor.autosave(tab2, form2, None, "ann", "2")
    editor.autosave(tab2, form2, None, "ann", "2", force=True)       # Keep this tab's edits
    bob = editor.load("ui/alpha", "bob")
    _, outcome = editor.save(bob, editor.form_values(bob["item"]) | {"aliases": "twelve"},
                             None, "", "bob", session="b")
    assert outcome["kind"] == "saved"
    tab1, outcome = editor.save(tab1, form1, None, "", "ann", session="1")
    assert outcome["kind"] == "conflict"
    # tab 2's kept edits stay, and tab 1 is told and asked
    assert ui_store.get_draft("ann", "ui/alpha")["data"]["question"] == "Tab 2's question?"
    assert isinstance(outcome["draft_conflict"], DraftConflict)
    assert "Your edits are on this page only, not kept as a draft: another tab or window " \
           "changed this item's draft at" in outcome["message"]
    assert "Your edits are kept as a draft." not in outcome["message"]
    # tab 1 chooses its own edits: kept; tab 2's next edit is asked, not written over them
    editor.autosave(tab1, form1, None, "ann", "1", force=True)
    assert ui_store.get_draft("ann", "ui/alpha")["data"]["question"] == "Tab 1's question?"
    with pytest.raises(DraftConflict):
        editor.autosave(tab2, form2 | {"question": "Tab 2 again?"}, None, "ann", "2")
    assert ui_store.get_draft("ann", "ui/alpha")["data"]["question"] == "Tab 1's question?"
    # the conflict panel's reload in tab 2 leaves tab 1's draft alone (it deleted it)
    fresh = editor.reload_saved(tab2, "ann", "2")
    assert fresh["item"]["question"] == ui_store.get_item("ui/alpha")["question"]
    assert ui_store.get_draft("ann", "ui/alpha")["data"]["question"] == "Tab 1's question?"


def test_a_conflict_with_no_other_tab_keeps_the_edits_as_a_draft(ui_store):
    """The ordinary case still keeps the edits, and says so."""
    editor = EditorHandlers(ui_store)
    ann, bob = editor.load("ui/alpha", "ann"), editor.load("ui/alpha", "bob")
    form = editor.form_values(ann["item"]) | {"question": "Ann's question?"}
    editor.autosave(ann, form, None, "ann", "1")
    editor.save(bob, editor.form_values(bob["item"]) | {"aliases": "twelve"}, None, "", "bob")
    _, outcome = editor.save(ann, form, None, "", "ann", session="1")
    assert outcome["kind"] == "conflict" and outcome["draft_conflict"] is None
    assert "Your edits are kept as a draft." in outcome["message"]
    assert ui_store.get_draft("ann", "ui/alpha")["data"]["question"] == "Ann's question?"


def test_a_review_of_a_restore_is_judged_on_what_the_restore_holds(ui_store):
    """ann1 restored version 2 as version 4, undoing ann2's version 3; ann2's approve was
    refused: "ann2 wrote part of what version 4 holds (the changes of version 3 …)", which
    version 4 does not hold. A restore holds the restored version's content and authorship."""
    history = HistoryHandlers(ui_store)
    item = ui_store.get_item("ui/beta")
    ui_store.save_item({**item, "question": "Bob's question?"}, 1, "bob", "")
    ui_store.save_item({**ui_store.get_item("ui/beta"), "gt_reasoning": "ann2's"}, 2, "ann2",
                       "")
    assert history.restore("ui/beta", 2, 3, "ann1").startswith("Restored version 2 as "
                                                               "version 4.")
    history.review("ui/beta", 4, "ann2", "revise", "the question is too easy")
    assert ui_store.get_item("ui/beta")["version"] == 5
    # a restore that brings ann2's changes back holds them: refused, the restore named
    ui_store.save_item({**ui_store.get_item("ui/beta"), "question": "Bob's again?"}, 5, "bob",
                       "")
    history.restore("ui/beta", 3, 6, "ann1")                        # version 7: ann2's
    with pytest.raises(EditError, match=r"ann2 wrote the changes of version 3 \(brought "
                                        r"back by version 7\), not yet approved by anyone "
                                        r"else, and version 7 still holds ann2's "):
        history.review("ui/beta", 7, "ann2", "approve")
    # its restorer saved it: not hers to review either
    with pytest.raises(EditError, match="ann1 saved version 7, so ann1 may not review"):
        history.review("ui/beta", 7, "ann1", "approve")
    history.review("ui/beta", 7, "carl", "approve")


def ann2_with_a_draft(store, question: str):
    """The page's handlers, ann2's request, the editor, and ann2's work on ui/alpha with a
    draft of hers asking `question`."""
    handlers = page_handlers(store)
    ann2 = gr.Request(username="ann2", session_hash="tab-2", headers=PAGE.headers)
    editor = EditorHandlers(store)
    work = editor.load("ui/alpha", "ann2")
    editor.autosave(work, editor.form_values(work["item"]) | {"question": question}, None,
                    "ann2", "tab-2")
    return handlers, ann2, editor, work


def test_open_version_n_after_a_refused_review_shows_that_version_not_the_draft(ui_store):
    """ann2 kept a draft on version 1; ann1 saved version 2; ann2's review was refused and
    Open version 2 showed her draft ("draft on version 1; saved version 2"), which she then
    reviewed as "version 2" never having seen it. The notice afterwards called the version
    her own review made "saved by you, in another tab or window"."""
    handlers, ann2, editor, work = ann2_with_a_draft(ui_store, "ann2's draft?")
    item = ui_store.get_item("ui/alpha")
    ui_store.save_item({**item, "question": "Which exit, ann1?"}, 1, "ann1", "")
    refused = handlers["submit_review"](work, "revise", "", ann2)
    assert "Review not recorded&#58; version 2" in out(refused, "reviews")
    opened = handlers["open_latest_version"](work, ann2)
    shown = out(opened, "work")
    assert shown["saved"]["version"] == 2 and shown["base_version"] == 2
    assert out(opened, "question") == "Which exit, ann1?"
    assert "Your unsaved draft of this item" in shown["notice"]
    assert "is kept, not shown" in shown["notice"]
    # what this tab does with the version shown never drops or replaces the draft unasked
    assert editor.autosave(shown, editor.form_values(shown["item"]), None, "ann2",
                           "tab-2") == ""
    assert ui_store.get_draft("ann2", "ui/alpha")["data"]["question"] == "ann2's draft?"
    with pytest.raises(DraftConflict):
        editor.autosave(shown, editor.form_values(shown["item"]) | {"question": "typed"},
                        None, "ann2", "tab-2")
    assert ui_store.get_draft("ann2", "ui/alpha")["data"]["question"] == "ann2's draft?"
    reviewed = handlers["submit_review"](shown, "revise", "", ann2)
    assert "Reviewed version 2&#58; revise" in out(reviewed, "reviews")
    after = out(reviewed, "work")
    assert after["item"]["question"] == "Which exit, ann1?"
    assert "in another tab or window" not in after["notice"], after["notice"]
    assert ui_store.get_draft("ann2", "ui/alpha")["data"]["question"] == "ann2's draft?"


def test_discard_draft_is_disabled_on_a_released_item(ui_store):
    """On a released item (read-only) Discard draft stayed enabled, with nothing it may do;
    now it is disabled with the buttons that change the item, enabled again after."""
    handlers = page_handlers(ui_store)
    gamma = ui_store.get_item("ui/gamma")
    ui_store.save_item({**gamma, "status": "released"}, 1, "admin", may_release=True)
    editable = EditorHandlers(ui_store).load("ui/beta", "local")
    shown = handlers["load_item"]("ui/gamma", editable, [], [], None, PAGE)
    assert out(shown, "work")["read_only"]
    assert out(shown, "discard") == gr.update(interactive=False)
    again = handlers["load_item"]("ui/alpha", out(shown, "work"), [], [], None, PAGE)
    assert out(again, "discard") == gr.update(interactive=True)


def test_the_page_offers_the_tab_choice_when_a_refused_save_keeps_no_draft(ui_store):
    """The save-conflict panel said "Your edits are kept as a draft" over another tab's: now
    the save bar's draft line says they were not, and the tab choice is shown."""
    handlers = page_handlers(ui_store)
    editor = EditorHandlers(ui_store)
    tab1, tab2 = editor.load("ui/alpha", "ann"), editor.load("ui/alpha", "ann")
    editor.autosave(tab2, editor.form_values(tab2["item"]) | {"question": "Tab 2's?"}, None,
                    "ann", "tab-2")
    ui_store.save_item({**ui_store.get_item("ui/alpha"), "aliases": ["twelve"]}, 1, "bob", "")
    tab_1 = gr.Request(username="ann", session_hash="tab-1", headers=PAGE.headers)
    shown = handlers["save_item"](tab_1, tab1, *switch_values(tab1["item"],
                                                              question="Tab 1's?"), "", [])
    assert out(shown, "draft_choice") == gr.update(visible=True)
    assert "Not kept as a draft&#58; another tab or window changed this item" in out(
        shown, "draft_state")
    assert ui_store.get_draft("ann", "ui/alpha")["data"]["question"] == "Tab 2's?"


def test_a_save_of_the_version_opened_for_a_review_keeps_the_draft_set_aside(ui_store):
    """Edits of the version Open version N showed, saved: the draft set aside stays, and is
    said as the user's own, not as another tab's."""
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "ann2")
    editor.autosave(work, editor.form_values(work["item"]) | {"question": "ann2's draft?"},
                    None, "ann2", "tab-2")
    shown = editor.load_for_review("ui/alpha", "ann2")
    form = editor.form_values(shown["item"]) | {"gt_reasoning": "checked"}
    after, outcome = editor.save(shown, form, None, "", "ann2", session="tab-2")
    assert outcome["kind"] == "saved", outcome
    assert ui_store.get_draft("ann2", "ui/alpha")["data"]["question"] == "ann2's draft?"
    assert after["item"]["gt_reasoning"] == "checked"
    assert "Your unsaved draft of this item" in after["notice"]
    assert "Another tab or window" not in after["notice"], after["notice"]


def test_no_review_is_recorded_while_the_form_shows_the_reviewers_own_draft(ui_store):
    """A reviewer who opened an item with her draft applied reviewed "version 1" while the
    form showed her unsaved edits: a verdict on a version she did not see."""
    handlers, ann2, editor, work = ann2_with_a_draft(ui_store, "ann2's own wording?")
    shown = editor.load("ui/alpha", "ann2")             # the item opened again: draft applied
    assert shown["item"]["question"] == "ann2's own wording?"
    refused = handlers["submit_review"](shown, "approve", "", ann2)
    assert "form shows your unsaved edits" in out(refused, "reviews")
    assert ui_store.reviews("ui/alpha") == []
    ui_store.delete_draft("ann2", "ui/alpha")
    clean = editor.load("ui/alpha", "ann2")
    reviewed = handlers["submit_review"](clean, "approve", "", ann2)
    assert "Reviewed version 1&#58; approve" in out(reviewed, "reviews")
