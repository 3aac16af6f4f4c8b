"""Defects a context-free annotator's review found on the Annotate page, tested on the
page's own handlers (ui.server.build_app's events, called as plain functions on a real
SQLite store): the id box after an unknown id, Next pressed several times at once, what a
switch of the answer type leaves to do (shown beside the gold answer until done)."""
from __future__ import annotations

import json

import gradio as gr
import pytest

from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui import answer_form as af
from ui.annotate_render import Renderer
from ui.annotate_steps import STEPS_AT
from ui.browser_wiring import NO_FILTERS
from ui.editor_handlers import FIELDS, EditorHandlers
from ui.server import build_app
from ui.text import escape_md

PAGE = gr.Request(headers={"origin": "http://127.0.0.1:7860"})     # a page of this site
SCRIPT = gr.Request(headers={"x-gradio-user": "api"})               # gradio_client


@pytest.fixture
def handlers(ui_store):
    return {fn.api_name: fn.fn for fn in build_app(ui_store).fns.values()}


def out(values: list, name: str):
    return values[Renderer.OUTPUTS.index(name)]


def test_an_unknown_id_puts_the_open_items_id_back_in_the_box(ui_store, handlers):
    """The box kept 'no-such-item' under the message, so it no longer named the item on
    screen; now it shows the open item's id again, and the message says both."""
    work = EditorHandlers(ui_store).load("ui/beta", "local")
    with pytest.warns(UserWarning, match="No item with id 'no-such-item'"):
        shown = handlers["load_item"]("no-such-item", work, [], [], None, PAGE)
    assert out(shown, "item_id") == "ui/beta"
    assert "No item with id 'no\\-such\\-item'; the item open is still ui/beta" in out(
        shown, "save_message")
    # nothing else on the page changes: the editor still shows ui/beta as it was
    rest = [v for k, v in zip(Renderer.OUTPUTS, shown)
            if k not in ("item_id", "save_message")]
    assert all(isinstance(v, dict) and v.get("__type__") == "update" and len(v) == 1
               for v in rest + shown[len(Renderer.OUTPUTS):]), rest
    # a script's call still fails with the reason
    with pytest.raises(gr.Error, match="no item with id"):
        handlers["load_item"]("no-such-item", work, [], [], None, SCRIPT)
    # a known id opens as before
    assert out(handlers["load_item"]("ui/gamma", work, [], [], None, PAGE),
               "item_id") == "ui/gamma"


def test_next_pressed_three_times_moves_three_items(ui_store, handlers):
    """Three quick Alt+→ moved one item: Gradio dropped the presses made while Next ran.
    The page now counts them and sends the count (`steps`) with the one event it runs."""
    for n in range(4):
        ui_store.duplicate_item("ui/alpha", f"ui/copy-{n}", "fixture")
    ids = list(ui_store.item_ids())
    work = EditorHandlers(ui_store).load(ids[0], "local")
    moved = handlers["next_item"]("", ids, work, [], None, "3", PAGE)
    assert out(moved, "item_id") == ids[3]
    back = handlers["prev_item"]("", ids, out(moved, "work"), [], None, "2", PAGE)
    assert out(back, "item_id") == ids[1]
    # one press (a script's call without the count too) is one item; past the end, the last
    assert out(handlers["next_item"]("", ids, work, [], None, "1", PAGE), "item_id") == ids[1]
    assert out(handlers["next_item"]("", ids, work, [], None, None, PAGE), "item_id") == ids[1]
    assert out(handlers["next_item"]("", ids, work, [], None, "50", PAGE), "item_id") == ids[-1]


def test_next_before_the_first_list_walks_the_kept_filters(ui_store, handlers):
    """Next pressed before the page's first list arrived (no ids, no list drawn yet) said
    "no items match the filters" or did nothing (CI under load): it walks the list the
    kept filters select (their JSON, as assets/list_filters.js keeps them)."""
    ids = list(ui_store.item_ids())
    work = EditorHandlers(ui_store).load(ids[0], "local")
    assert out(handlers["next_item"]("", [], work, [], None, "1", PAGE), "item_id") == ids[1]
    kept = json.dumps([None, None, None, None, "all", "zzzz-nothing"])
    with pytest.raises(gr.Error, match="no items match"):
        handlers["next_item"](kept, [], work, [], None, "1", PAGE)
    # a list drawn that matches nothing still says so
    with pytest.raises(gr.Error, match="no items match"):
        handlers["next_item"]("", [], work, [], {"filters": NO_FILTERS, "page": 1}, "1", PAGE)


def test_the_page_sends_the_count_of_presses_with_next(store):
    """Next and Previous run once more for the presses made while they run (always_last,
    not the default that drops them), their page script sending the count."""
    events = {fn.api_name: fn for fn in build_app(store).fns.values()}
    for name, button in (("next_item", "next-item"), ("prev_item", "prev-item")):
        event = events[name]
        assert event.trigger_mode == "always_last"
        assert event.inputs[STEPS_AT].elem_id == "nav-steps"
        assert f"cluelabNavSteps('{button}', v, {STEPS_AT})" in event.js
        assert "cluelabListFilters" in event.js          # the kept filters, before a list
        assert event.inputs[0].elem_id == "kept-filters"


# ---- the answer type switch: what it leaves to do stays beside the gold answer ------------

OPTIONS = [{"label": "A", "text": "blue", "image": None}, {"label": "B", "text": "red",
                                                           "image": None}]


def test_a_switch_to_multiple_choice_says_the_gold_is_no_option():
    """open 'Paris' switched to multiple choice kept 'Paris' as the gold without a word (the
    save refused it later)."""
    item, said = af.switch_type({"answer_type": "open", "answer": "Paris"}, "multiple_choice")
    assert item["answer"] == "Paris"
    assert said == ("The gold answer 'Paris' is not an option: the item has no options yet. "
                    "Add them (Add option), then type the right one's label as the gold answer.")
    options_back = {"answer_type": "open", "answer": "Paris", af.OPTIONS_ASIDE: OPTIONS}
    item, said = af.switch_type(options_back, "multiple_choice")
    assert said == ("The gold answer 'Paris' is not one of the options (A, B): type the label "
                    "of the right option as the gold answer.")
    # a gold typed under open stays, the letter set aside or not: "B" came back over it
    # with no word, and the item read as unchanged (an annotator's review)
    item, said = af.switch_type({**options_back, af.GOLD_ASIDE: "B"}, "multiple_choice")
    assert item["answer"] == "Paris" and "'Paris' is not one of the options (A, B)" in said
    item, said = af.switch_type({**options_back, "answer": "", af.GOLD_ASIDE: "B"},
                                "multiple_choice")
    assert (item["answer"], said) == ("B", "")          # none typed: its own gold came back


def test_the_note_beside_the_gold_holds_while_the_state_does():
    assert af.answer_notes({"answer_type": "multiple_choice", "answer": "Paris",
                            "options": OPTIONS}) == [
        "The gold answer 'Paris' is not one of the options (A, B): type the label of the "
        "right option as the gold answer."]
    assert af.answer_notes({"answer_type": "multiple_choice", "answer": "A",
                            "options": OPTIONS}) == []
    item, _ = af.switch_type({"answer_type": "multiple_choice", "answer": "A",
                              "options": OPTIONS, "aliases": []}, "numeric")
    assert af.answer_notes(item) == [
        "No gold answer yet: 'A' is no numeric answer and waits aside (a switch back to a "
        "type that takes it brings it back). Type the number.",
        "The 2 options wait aside: a switch back to multiple_choice brings them back; saved "
        "as numeric, the item has none."]
    assert af.answer_notes({**item, "answer": "12"}) == af.answer_notes(item)[1:]  # typed
    item, _ = af.switch_type({"answer_type": "location", "answer": "$italy,lazio$",
                              "aliases": ["latium"]}, "numeric")
    assert "1 accepted alias waits aside (numeric does not take it)" in \
        af.answer_notes(item)[-1]
    assert af.answer_notes(af.switch_type(item, "location")[0]) == []


def switch_values(item: dict, **changes) -> list:
    form = EditorHandlers.form_values(item) | changes
    return [form[field] for field in FIELDS] + [None]


def test_the_page_keeps_the_note_beside_the_gold_until_it_is_fixed(ui_store, handlers):
    """ui/alpha (open, gold '12') switched to multiple choice: the page says so beside the
    gold answer, not only in a toast, and the note goes once an option's label is typed."""
    work = EditorHandlers(ui_store).load("ui/alpha", "local")
    with pytest.warns(UserWarning, match="is not an option"):
        shown = handlers["switch_answer_type"](
            PAGE, work, *switch_values(work["item"], answer_type="multiple_choice"))
    note = shown[-1]
    assert note == said("The gold answer '12' is not an option: the item has no options yet. "
                        "Add them (Add option), then type the right one's label as the gold "
                        "answer.")
    switched = shown[0]
    added = handlers["add_option"](PAGE, switched, "", *switch_values(switched["item"]))
    one_option = said("The gold answer '12' is not one of the options (A): type the label of "
                      "the right option as the gold answer.")
    assert added[-1] == one_option
    item = added[0]["item"]
    assert handlers["answer_note"](added[0], *switch_values(item, answer="12")) == one_option
    assert handlers["answer_note"](added[0], *switch_values(item, answer="A")) == ""
    # an item opened with a gold that is no option says it there too
    ui_store.save_item({**ui_store.get_item("ui/gamma"), "answer": "Z"}, 1, "fixture")
    opened = handlers["load_item"]("ui/gamma", work, [], [], None, PAGE)
    assert out(opened, "answer_note") == said(
        "The gold answer 'Z' is not one of the options (A, B): type the label of the right "
        "option as the gold answer.")


def said(note: str) -> str:
    """A note as the page's Markdown shows it."""
    return "⚠ " + escape_md(note)


# ---- a review on a stale page --------------------------------------------------------------

def test_a_stale_pages_review_is_refused_and_offers_the_version_saved_now(ui_store, handlers):
    """rev's page shows version 1 of ui/alpha; carol saves version 2. rev's approve was
    recorded on version 1 and the page reloaded version 2 with "Open the item again to
    review the latest". Now nothing is recorded, the review line says why, the verdict and
    note stay, and a button opens version 2 with History's diff of what changed."""
    rev = gr.Request(username="rev", headers=PAGE.headers)
    work = EditorHandlers(ui_store).load("ui/alpha", "rev")
    item = ui_store.get_item("ui/alpha")
    ui_store.save_item({**item, "question": "Which exit, carol?"}, 1, "carol", "meanwhile")
    shown = handlers["submit_review"](work, "approve", "looks right", rev)  # no toast
    assert ui_store.reviews("ui/alpha") == [] and ui_store.get_item("ui/alpha")["version"] == 2
    assert out(shown, "reviews").startswith("**Review not recorded&#58; version 2 of ui/alpha")
    button = out(shown, "review_open_latest")
    assert button["visible"] is True and button["value"] == "Open version 2"
    assert shown[-2:] == [gr.skip(), gr.skip()]          # the verdict and the note stay
    assert out(shown, "work") == gr.skip()               # the page still shows version 1
    opened = handlers["open_latest_version"](work, rev)
    assert out(opened, "work")["saved"]["version"] == 2
    assert out(opened, "question") == "Which exit, carol?"
    assert (out(opened, "version_a"), out(opened, "version_b")) == (1, 2)
    assert ["question", "Which exit is signposted?", "Which exit, carol?"] in out(opened, "diff")
    assert out(opened, "review_open_latest")["visible"] is False
    assert "Opened version 2, saved by carol" in out(opened, "reviews")
    reviewed = handlers["submit_review"](out(opened, "work"), "approve", "looks right", rev)
    assert "Reviewed version 2&#58; approve" in out(reviewed, "reviews")
    assert ui_store.get_item("ui/alpha")["status"] == "verified"


def test_a_numeric_gold_written_otherwise_than_plainly_says_how_it_is_read():
    """"12,8 g" and "1e3" were taken without a word; "1,500 m" is 1500 m while "12,8 g" is
    12.8 g: the note beside the gold says the value the scorer compares answers with."""
    from ui.annotate_render import answer_note

    def reading(gold):
        return af.number_reading({"answer_type": "numeric", "answer": gold})
    assert reading("12,8 g") == "Read as 12.8 g: answers are compared with this value."
    assert reading("1,500 m") == "Read as 1500 m: answers are compared with this value."
    assert reading("1e3") == "Read as 1000: answers are compared with this value."
    assert [reading(g) for g in ("12.8", "12.50", "5.30 €", "3 km", "twelve", "")] == [""] * 6
    assert af.number_reading({"answer_type": "open", "answer": "1,500 m"}) == ""
    note = answer_note({"answer_type": "numeric", "answer": "12,8 g"})
    # in italics: the page shows it grey, not in the warnings' red (assets/cluelab.css)
    assert note.startswith("*Read as 12\\.8 g") and note.endswith("*")


def test_a_numeric_gold_the_scorer_cannot_read_is_named_as_typed():
    """"3,14159" as a numeric gold said nothing until Save refused it; the note beside the
    answer names it as it is typed, and goes once the gold reads as a number."""
    item = {"answer_type": "numeric", "answer": "3,14159"}
    [note] = af.answer_notes(item)
    assert note.startswith("'3,14159' is no number the scorer can read")
    assert af.answer_notes({**item, "answer": "3.14159"}) == []
    assert af.answer_notes({**item, "answer": "3,14 €"}) == []
    assert af.answer_notes({**item, "answer_type": "open"}) == []
