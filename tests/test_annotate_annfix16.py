"""The Annotate page after an annotator review (annfix16), through the editor's handlers on a
real store: the two-tab choice naming each side's edits, the notice and save message of an
item an admin released over a colleague's draft, and the draft line's words."""
from __future__ import annotations

from store import DraftConflict
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui.annotate_drafts import draft_conflict_offer
from ui.editor_handlers import EditorHandlers


def test_the_two_tab_choice_names_the_parts_each_side_edited(ui_store):
    """Tab 1 typed GT reasoning, tab 2 a question: tab 2's line (which the choice's questions
    read, assets/confirm.js) named neither, so "replaced" named nothing that went."""
    editor = EditorHandlers(ui_store)
    one, two = editor.load("ui/alpha", "ann"), editor.load("ui/alpha", "ann")
    editor.autosave(one, editor.form_values(one["item"]) | {"gt_reasoning": "By the sign."},
                    None, "ann", "tab1")
    try:
        editor.autosave(two, editor.form_values(two["item"]) | {"question": "Which exit?"},
                        None, "ann", "tab2")
    except DraftConflict as err:
        line = draft_conflict_offer(err)[0].replace("\\", "").replace("&#58;", ":")
    else:
        raise AssertionError("tab 2 replaced tab 1's draft unasked")
    assert "(its edits of GT reasoning). Open it or keep this tab's edits (of question)." \
        in line, line


def _released_over_a_draft(ui_store):
    editor = EditorHandlers(ui_store)
    bob = editor.load("ui/alpha", "bob")
    item = bob["item"]
    form = editor.form_values(item) | {"question": "Which exit?"}
    form["clues"] = [[row[0], "The blue sign reads EXIT 13", *row[2:]] for row in form["clues"]]
    editor.autosave(bob, form, None, "bob", "tab")
    admin = editor.load("ui/alpha", "admin")
    fresh, done = editor.save(admin, editor.form_values(admin["item"]) | {"status": "released"},
                              None, "", "admin", may_release=True)
    return editor, fresh, done


def test_an_item_released_over_a_colleagues_draft_says_it_cannot_be_saved(ui_store):
    """"… it began before version 2, so their save will show them the changes made since;
    yours saves as usual" under "Released: read-only", and "Saved ui/alpha as version 2."
    alone: neither save can happen on a released item."""
    editor, fresh, done = _released_over_a_draft(ui_store)
    assert done["message"].startswith(
        "Saved ui/alpha as version 2, released (read-only; bob has unsaved edits of it that "
        "cannot be saved now; released from draft: no approving review of what it holds)."), \
        done["message"]
    for notice in (fresh["notice"], editor.load("ui/alpha", "admin")["notice"]):
        assert "they cannot be saved while it is released" in notice, notice
        assert "saves as usual" not in notice and "will show them" not in notice


def test_the_released_notice_quotes_only_the_edited_part_of_a_clue(ui_store):
    """bob's notice quoted the edited clue text with its untouched reasoning and boxes
    inside one pair of quotes."""
    editor, _, _ = _released_over_a_draft(ui_store)
    notice = editor.load("ui/alpha", "bob")["notice"]
    assert "Clue 1: its text “The blue sign reads EXIT 13”." in notice, notice
    assert "signs name exits" not in notice and "boxes" not in notice


def test_the_draft_line_says_a_removed_clue_and_a_box_without_a_clue(ui_store):
    """"unsaved edits of clue 1 (you removed it) (draft kept)" (brackets doubled), and
    "unsaved edits (draft kept)" naming nothing while a box without a clue was pending."""
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "ann")
    form = editor.form_values(work["item"]) | {"clues": []}
    assert editor.autosave(work, form, None, "ann", "t") == \
        "unsaved edits: clue 1 removed (draft kept)"
    form = editor.form_values(work["item"]) | {"question": "Which exit?", "clues": []}
    assert editor.autosave(work, form, None, "ann", "t") == \
        "unsaved edits of question; clue 1 removed (draft kept)"
    work = editor.load("ui/alpha", "cy")
    sha = work["item"]["images"][0]
    box = {"label": "", "color": (0, 0, 0), "xmin": 2, "ymin": 2, "xmax": 20, "ymax": 20}
    line = editor.autosave(work, editor.form_values(work["item"]), [box], "cy", "t")
    # a box whose clue picker is still open is no edit kept (test_annfix20a_drafts.py)
    assert line == "" and ui_store.get_draft("cy", "ui/alpha") is None, (line, sha)
