"""The Annotate page after an annotator review (annfix15), through the editor's handlers on a
real store: a draft of an item released meanwhile, the colleagues' drafts notice and the
header refreshed when the page learns of a new version, Discard and Reload naming the parts
edited, a released item's key line and box handles."""
from __future__ import annotations

from tests.test_annotate_page_fixes import PAGE, handlers, out, switch_values  # noqa: F401
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui.annotate_render import Renderer, notice_html
from ui.editor_handlers import EditorHandlers


def _released_with_local_draft(ui_store):
    """"local" (the page's user) types a question into ui/alpha unsaved; an admin releases
    it; local's save is refused. (editor, local's work, the refusal)"""
    editor = EditorHandlers(ui_store)
    mine = editor.load("ui/alpha", "local")
    form = editor.form_values(mine["item"]) | {"question": "Which bin goes out tonight?"}
    editor.autosave(mine, form, None, "local", "tab")
    admin = editor.load("ui/alpha", "admin")
    _, done = editor.save(admin, editor.form_values(admin["item"]) | {"status": "released"},
                          None, "", "admin", may_release=True)
    assert done["kind"] == "saved"
    _, refused = editor.save(mine, form, None, "", "local", session="tab")
    return editor, mine, refused


def test_a_draft_of_an_item_released_meanwhile_is_said_not_shown_and_discard_drops_it(
        ui_store, handlers):
    """After the release and a reload the form showed the draft's question as if released,
    under "Restored your unsaved draft … saving keeps your edits" beside a disabled Save,
    and Discard draft was disabled: the draft could be neither saved nor dropped."""
    editor, _, refused = _released_with_local_draft(ui_store)
    assert refused["message"].endswith("an admin can reopen it (with a reason) to change it.")
    released = ui_store.get_item("ui/alpha")
    work = editor.load("ui/alpha", "local")
    # the form shows what was released; the draft is said, with its edits to copy
    assert work["item"]["question"] == released["question"]
    assert editor.draft_state(work) == ""
    assert "Restored your unsaved draft" not in work["notice"]
    assert "saving keeps your edits" not in work["notice"]
    assert "You have unsaved edits of this item (question; your draft from" in work["notice"]
    assert "cannot be saved while it is released" in work["notice"]
    assert "Question: “Which bin goes out tonight?”." in work["notice"]
    assert "Discard draft drops them." in work["notice"]
    html = notice_html(work)
    assert html.count('class="cl-note') == 2         # "Released: read-only…" and the draft
    assert 'data-cl-released-draft="question"' in html
    # Discard draft enabled (the other buttons that change the item are not)
    buttons = Renderer.edit_buttons(work, None)
    assert buttons["discard"]["interactive"] is True
    assert buttons["add_clue"]["interactive"] is False
    # nothing but Discard drops the draft: an autosave or a save with nothing to save keeps it
    editor.autosave(work, editor.form_values(work["item"]), None, "local", "tab2")
    editor.save(work, editor.form_values(work["item"]), None, "", "local", session="tab2")
    assert ui_store.get_draft("local", "ui/alpha") is not None
    shown = handlers["discard_draft"](work, PAGE)
    assert ui_store.get_draft("local", "ui/alpha") is None
    assert "You have unsaved edits" not in out(shown, "notice")
    assert out(shown, "discard")["interactive"] is False       # nothing left to discard


def test_a_released_item_without_a_draft_keeps_discard_disabled(ui_store):
    editor = EditorHandlers(ui_store)
    admin = editor.load("ui/alpha", "admin")
    editor.save(admin, editor.form_values(admin["item"]) | {"status": "released"}, None, "",
                "admin", may_release=True)
    work = editor.load("ui/alpha", "local")
    assert Renderer.edit_buttons(work, None)["discard"]["interactive"] is False
    assert "data-cl-released-draft" not in notice_html(work)


def test_a_conflict_refreshes_the_colleagues_drafts_notice_and_the_header(ui_store, handlers):
    """bob's draft was said in my tab ("Unsaved edits of this item by bob …") after he had
    saved and had none, with the conflict panel open under it; the header said the version
    saved when I opened the item while the panel said "now version 2"."""
    editor = EditorHandlers(ui_store)
    bob = editor.load("ui/alpha", "bob")
    bob_form = editor.form_values(bob["item"]) | {"aliases": "twelve"}
    editor.autosave(bob, bob_form, None, "bob", "b")
    mine = editor.load("ui/alpha", "local")
    assert "by bob" in mine["notice"]
    _, saved = editor.save(bob, bob_form, None, "", "bob", session="b")
    assert saved["kind"] == "saved" and ui_store.get_draft("bob", "ui/alpha") is None
    shown = handlers["save_item"](PAGE, mine, *switch_values(mine["item"], question="Mine?"),
                                  "", [])
    assert "now version 2" in shown[-6]                      # the conflict panel's line
    assert isinstance(out(shown, "notice"), str) and "by bob" not in out(shown, "notice")
    assert "by bob" not in out(shown, "work")["notice"]
    assert "draft on version 1; saved version 2" in out(shown, "header")


def test_a_save_with_nothing_to_save_refreshes_the_colleagues_drafts_notice(ui_store, handlers):
    editor = EditorHandlers(ui_store)
    bob = editor.load("ui/alpha", "bob")
    editor.autosave(bob, editor.form_values(bob["item"]) | {"aliases": "twelve"}, None, "bob")
    mine = editor.load("ui/alpha", "local")
    assert "by bob" in mine["notice"]
    editor.discard_draft(bob, "bob")
    shown = handlers["save_item"](PAGE, mine, *switch_values(mine["item"]), "", [])
    assert "Nothing to save" in out(shown, "save_message")
    assert isinstance(out(shown, "notice"), str) and "by bob" not in out(shown, "notice")


def test_a_released_item_draws_its_boxes_without_resize_handles(ui_store):
    """A released item's boxes showed the annotator's resize handles; an editable item
    opened after it shows them again."""
    editor = EditorHandlers(ui_store)
    admin = editor.load("ui/alpha", "admin")
    editor.save(admin, editor.form_values(admin["item"]) | {"status": "released"}, None, "",
                "admin", may_release=True)
    renderer = Renderer(ui_store, None, None)
    released, beta = editor.load("ui/alpha", "local"), editor.load("ui/beta", "local")
    assert renderer.annotator(released)[0]["handle_size"] == 0
    assert renderer.annotator(beta, released)[0]["handle_size"] == 8
    assert "handle_size" not in renderer.annotator(beta, beta)[0]
