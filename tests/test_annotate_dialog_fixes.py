"""An annotator's report on the Annotate page's answers and messages, tested on the pure
functions and a real store: an answer-type round trip that left an option's text as the
multiple-choice gold, a save merged over a colleague's review that did not say so, and an
image refusal that named a Python exception. (The dialogs: tests/browser/
test_annotate_dialog_words.py.)"""
import io

import pytest
from PIL import Image

from store import MediaError
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui import answer_form as af
from ui.editor_handlers import EditorHandlers
from ui.save_rules import merged_over

BOOKCASE = {"answer_type": "multiple_choice", "answer": "C", "options": [
    {"label": "A", "text": "The sofa", "image": None},
    {"label": "B", "text": "The lamp", "image": None},
    {"label": "C", "text": "The bookcase", "image": None}]}


@pytest.mark.parametrize("way", [["open", "numeric"], ["open", "yes_no"],
                                 ["open", "numeric", "location"], ["open"]])
def test_an_option_gold_comes_back_as_its_label_whatever_the_way_round(way):
    """mc → open → numeric → mc left "The bookcase" (option C's text) as the gold, refused
    as no option; mc → open → mc brought back "C"."""
    item = dict(BOOKCASE)
    for answer_type in way:
        item, _ = af.switch_type(item, answer_type)
    item, said = af.switch_type(item, "multiple_choice")
    assert item["answer"] == "C", (item, said)
    assert "is not one of the options" not in said
    assert af.answer_notes(item) == []


def test_a_gold_typed_as_an_options_text_becomes_its_label_on_multiple_choice():
    item = {"answer_type": "open", "answer": "  the BOOKCASE ",
            af.OPTIONS_ASIDE: BOOKCASE["options"]}
    item, said = af.switch_type(item, "multiple_choice")
    assert item["answer"] == "C" and "option C's text" in said
    # a text two options share names neither: it stays, and the note says so
    twins = [{"label": "A", "text": "red"}, {"label": "B", "text": "Red"}]
    assert af.label_of_text("red", twins) == "red"
    assert af.label_of_text("B", twins) == "B"


def test_a_save_merged_over_a_review_names_it_and_the_status_it_leaves(ui_store):  # noqa: F811
    """It said "Saved … as version 3." and the status had quietly become rejected. (Its
    content changed over the reject, so it goes back in review, as a fixed rejected item
    does: round 27.)"""
    ui_store.save_item({**ui_store.get_item("ui/alpha"), "status": "in_review"}, 1, "ann1", "")
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "ann1")                  # version 2, in review
    ui_store.add_review("ui/alpha", 2, "ann2", "reject", "wrong gold")     # version 3
    form = editor.form_values(work["item"]) | {"question": "Which exit is it?"}
    _, outcome = editor.save(work, form, None, "", "ann1")
    assert outcome["kind"] == "saved" and outcome["version"] == 4, outcome
    assert outcome["message"].startswith(
        "Saved ui/alpha as version 4. Merged over ann2's review: rejected — “wrong gold”; "
        "status in_review. Your changes put the rejected item back in review"), \
        outcome["message"]
    assert ui_store.get_item("ui/alpha")["status"] == "in_review"


def test_merged_over_versions_without_a_review_names_them():
    said = merged_over([], [{"version": 3, "author": "bob"}, {"version": 4, "author": "bob"}],
                       "draft")
    assert said == "Merged over versions 3, 4 by bob (no content changed); status draft."


def test_an_image_that_does_not_decode_is_refused_without_an_exception_name(ui_store,  # noqa: F811
                                                                           tmp_path):
    """"corrupt.png: corrupt or truncated image (OSError)": a Python name in a user message."""
    buffer = io.BytesIO()
    Image.new("RGB", (300, 200), "#123456").save(buffer, "PNG")
    corrupt = tmp_path / "corrupt.png"
    corrupt.write_bytes(buffer.getvalue()[:120])
    with pytest.raises(MediaError) as refused:
        ui_store.add_image(corrupt, corrupt.name)
    message = str(refused.value)
    assert message.startswith("corrupt.png: corrupt or truncated image"), message
    assert "Error" not in message and "(OSError)" not in message, message
