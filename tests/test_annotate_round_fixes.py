"""An annotator's review of the Annotate page and its History, through the handlers on a real
store: a location refusal in the builder's words, a deleted item's refusal with a readable
time, Delete's question naming colleagues' drafts, a refusal that goes once an edit fixes
it, the end of the list after presses past it, the image of `&image=`, the demo's
plant-growth-next question."""
import json
import re

import gradio as gr

from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from assets.demo_generator.generate import DEFAULT_OUT
from ui import editor_notices as notices
from ui import times
from ui.annotate_drafts import refusal_line
from ui.annotate_render import Renderer, notice_html
from ui.annotate_steps import end_line
from ui.annotate_wiring import image_of_url
from ui.editor_handlers import EditorHandlers
from ui.server import build_app

PAGE = gr.Request(headers={"origin": "http://127.0.0.1:7860"})     # a page of this site
RAW_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d")


def location_form(editor, work, **fields):
    return editor.form_values(work["item"]) | {"answer_type": "location", "answer": "",
                                               "aliases": "", "options": [], **fields}


def test_a_location_refusal_names_the_gold_as_the_builder_shows_it(ui_store):
    """It quoted '$germany,12/bayern$', a form the editor never shows."""
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/beta", "ann")
    form = location_form(editor, work, loc_country="Germany", loc_region="12",
                         loc_aliases="bayern")
    _, outcome = editor.save(work, form, None, "", "ann")
    assert outcome["kind"] == "invalid"
    assert outcome["message"] == ("Gold answer: region is a number in location: "
                                  "'Germany, 12 (also: Bayern)': '12' is no region name")
    assert "$" not in outcome["message"]
    empty = location_form(editor, work, loc_country="Germany", loc_region="", loc_aliases="")
    assert editor.save(work, empty, None, "", "ann")[1]["message"] == (
        "Gold answer: empty region in location: 'Germany': it names no region after the "
        "country")
    # the check a refusal in the save bar goes by: "" once the region is fixed
    assert "region is a number" in editor.edits_refusal(work, form, None)
    assert editor.edits_refusal(work, form | {"loc_region": "Bavaria"}, None) == ""


def test_a_deleted_items_refusal_says_its_time_as_the_page_does(ui_store):
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "ann")
    ui_store.delete_item("ui/alpha", "bob", "duplicate")
    form = editor.form_values(work["item"]) | {"question": "Still here?"}
    _, outcome = editor.save(work, form, None, "", "ann")
    assert outcome["kind"] == "invalid"
    assert editor.edits_refusal(work, form, None) == ""    # no edit fixes it: it stays
    assert "was deleted by bob at " in outcome["message"]
    assert not RAW_TIME.search(outcome["message"]), outcome["message"]
    assert re.search(r"at \d{4}-\d\d-\d\d \d\d:\d\d UTC; an admin", outcome["message"])
    assert times.in_message("at 2026-12-01T23:11:05.123456Z.") == "at 2026-12-01 23:11 UTC."


def test_delete_asks_naming_the_colleagues_unsaved_drafts(ui_store):
    editor = EditorHandlers(ui_store)
    alone = editor.load("ui/gamma", "ann")
    # it names the item: after a delete the next one opens, and "this item" said not which
    assert alone["delete_question"] == ("Delete item ui/gamma? Undo delete (in the Item menu) "
                                        "brings it back, with your unsaved edits of it if "
                                        "any, while this page is open; after a reload only "
                                        "an admin can restore it (Item menu → Deleted items "
                                        "(admin) → Restore, or `python app.py item restore "
                                        "ui/gamma`).")
    for user in ("alice", "bob"):
        ui_store.save_draft(user, "ui/gamma", 1, {**alone["item"], "question": user})
    work = editor.load("ui/gamma", "ann")
    question = work["delete_question"]
    assert question.startswith("Delete item ui/gamma? Undo delete (in the Item menu) brings it "
                               "back, with your unsaved edits of it if any, while this "
                               "page is open; after a reload only an admin can restore it")
    assert "2 colleagues (" in question and "alice" in question and "bob" in question
    assert "have unsaved drafts of it" in question and "restored" in question
    # the page's confirm (assets/confirm.js) reads it from the notice, escaped there
    assert 'data-cl-delete="Delete item ui/gamma?' in notice_html(work)
    one = notices.delete_question([{"user": "<b>x</b>", "updated_at": ""}], "ui/gamma")
    assert "1 colleague (<b>x</b>) has an unsaved draft of it" in one
    assert "&lt;b&gt;" in notice_html({"item": {}, "notice": "", "delete_question": one})


def test_a_refusal_an_edit_can_fix_goes_when_the_edits_pass():
    refused = {"refused": True}
    assert refusal_line(refused, "Not saved: Gold answer: ...", "") == ""
    kept = refusal_line(refused, "Not saved: Gold answer: ...", "Gold answer: still")
    assert kept != ""                       # gr.skip(): the line stays
    assert refusal_line({"refused": False}, "Not saved: changed by rev", "") != ""
    assert refusal_line(refused, "Saved ui/alpha as version 2.", "") != ""


def test_next_presses_past_the_end_say_it_is_the_last(ui_store, capsys):
    """Presses counted into one event (a second Next while the last item opened) opened
    the last item saying nothing: the press on it seemed lost."""
    handlers = {fn.api_name: fn.fn for fn in build_app(ui_store).fns.values()}
    ids = list(ui_store.item_ids())
    work = EditorHandlers(ui_store).load(ids[-2], "local")
    moved = handlers["next_item"]("", ids, work, [], None, "2", PAGE)
    assert moved[Renderer.OUTPUTS.index("item_id")] == ids[-1]
    assert f"{ids[-1]} is the last of the {len(ids)} items the filters list." in \
        capsys.readouterr().out
    handlers["prev_item"]("", ids, work, [], None, "5", PAGE)
    assert f"{ids[0]} is the first of the {len(ids)}" in capsys.readouterr().out
    handlers["next_item"]("", ids, work, [], None, "1", PAGE)      # one on: nothing said
    assert "is the last" not in capsys.readouterr().out
    assert end_line("ui/gamma", 2, 3) == "ui/gamma is the last of the 3 items the filters list."


def test_the_image_of_the_address_reopens_when_the_item_has_it():
    item = {"images": ["a", "b", "c"]}
    assert [image_of_url(n, item) for n in ("3", "1", None, "", "4", "0", "x", "-2")] == \
        [2, 0, 0, 0, 0, 0, 0, 0]


def test_the_demo_plant_question_ends_as_a_question():
    """It ended "Options: " with nothing after it (the options are images)."""
    items = [json.loads(line) for line in (DEFAULT_OUT / "demo.jsonl").read_text().splitlines()]
    plant = next(i for i in items if i["id"] == "demo/plant-growth-next")
    assert plant["question"].rstrip().endswith("?"), plant["question"]
    assert "Options:" not in plant["question"]
    assert "A to E" in plant["question"]
