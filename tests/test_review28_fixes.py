"""Fixes of the round-28 reviews: real SQLite stores, the handlers the page calls."""
from __future__ import annotations

import pytest

from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)


def test_a_too_long_numeric_alias_is_refused_for_its_length(ui_store):
    """A 3,000-digit alias of a numeric item was refused as 'no number the scorer can read';
    the limit showed only in the draft line, in the store's words."""
    from ui.editor_handlers import check_edits
    from ui.editor_model import EditError

    item = {**ui_store.get_item("ui/alpha"), "answer_type": "numeric", "answer": "12",
            "aliases": ["12.0", "9" * 3000]}
    with pytest.raises(EditError) as refused:
        check_edits(item)
    assert str(refused.value) == "Alias 2 is 3,000 characters; the limit is 1,000"


def test_a_draft_over_a_limit_says_the_limit_and_that_the_edits_stay(ui_store):
    from store import TooLargeError
    from ui.annotate_drafts import not_kept

    with pytest.raises(TooLargeError) as refused:
        ui_store.save_draft("ann", "ui/alpha", 1, {"aliases": ["9" * 3000]})
    line = not_kept(refused.value)
    assert "Alias 1 is 3,000 characters; the limit is 1,000" in line
    assert "draft ui/alpha" not in line and "data" not in line
    assert "Your edits stay on this page" in line


def test_the_item_search_folds_case_in_every_script(ui_store):
    """'münchner' found the item, 'MÜNCHNER' did not: SQLite's LIKE folds ASCII only."""
    item = ui_store.get_item("ui/alpha")
    ui_store.save_item({**item, "question": "Which Münchner street, the Straße?"},
                       item["version"], "ann", "umlaut")
    for typed in ("münchner", "MÜNCHNER", "Münchner", "Mu\u0308nchner", "ＭÜＮＣＨＮＥＲ",
                  "STRAẞE", "straße"):
        assert ui_store.item_ids(text=typed) == ["ui/alpha"], typed
    assert ui_store.item_ids(text="ß") == ["ui/alpha"]          # not every "ss" (round 29)
    assert ui_store.item_ids(text="MÜNCHNERS") == []
    assert ui_store.count_items(text="mÜnChNeR") == 1


def test_the_item_search_reads_past_a_nul(ui_store):
    """SQLite's LIKE stops at a NUL: an imported 'go\\0 out tonight' was not found by 'out'
    (such an item is flagged at import; it is still found)."""
    item = ui_store.get_item("ui/alpha")
    ui_store.save_item({**item, "question": "Should the bins go\0 out tonight?"},
                       item["version"], "ann", "nul")
    assert ui_store.item_ids(text="out tonight") == ["ui/alpha"]


def test_a_dollar_inside_a_locations_country_or_region_is_refused_at_save(ui_store):
    """Country 'germany$' saved '$germany$,bavaria/bayern$', a gold the strict SeekWorld rule
    read as country 'germany$' (every right answer wrong) and the normalised rule did not
    (a review, round 29)."""
    from ui.answer_form import build_location
    from ui.editor_handlers import check_edits
    from ui.editor_model import EditError

    base = {**ui_store.get_item("ui/alpha"), "answer_type": "location", "status": "in_review"}
    for country, region in (("germany$", "bavaria"), ("germany", "bava$ria")):
        item = {**base, "answer": build_location(country, region, "")}
        with pytest.raises(EditError, match=r"a '\$' inside a location"):
            check_edits(item)
    check_edits({**base, "answer": build_location("germany", "bavaria", "")})


@pytest.mark.parametrize("blank", ["\u2800", "\u3164", "\u2060", " \u2800 ", "\u115f\u1160"])
def test_text_that_shows_nothing_has_no_words(ui_store, blank):
    """A question or clue of a braille blank, a Hangul filler or a word joiner passed "needs
    its words" and went in review looking empty; an option of one had "text" (round 29)."""
    from ui.editor_handlers import check_edits
    from ui.editor_model import EditError

    base = {**ui_store.get_item("ui/gamma"), "status": "in_review"}
    with pytest.raises(EditError, match="the question is empty"):
        check_edits({**base, "question": blank})
    clues = [{**base["clues"][0], "text": blank}] if base["clues"] else \
        [{"text": blank, "reasoning": "", "boxes": []}]
    with pytest.raises(EditError, match="has no text"):
        check_edits({**base, "clues": clues})
    options = [{**base["options"][0], "text": blank, "image": None}, *base["options"][1:]]
    with pytest.raises(EditError, match="option without text"):
        check_edits({**base, "options": options})


def test_a_word_joiner_inside_a_text_is_refused():
    from domain.item_ids import INVISIBLE_CONTROLS
    assert {0x2060, 0x2061, 0x2064, 0x180E} <= INVISIBLE_CONTROLS and 0x200D not in \
        INVISIBLE_CONTROLS


def test_ids_and_names_told_apart_only_by_spaces_read_alike(ui_store, tmp_path):
    """'demo/ x' was made beside 'demo/x' (page and CLI), a domain 'Spatial  Relationship'
    beside 'Spatial Relationship' (round 29)."""
    import subprocess
    import sys

    from domain.item_ids import id_key, look_alike
    assert id_key("demo/ x") == id_key("demo/x") == id_key("demo /x")
    assert id_key("Spatial  Relationship") == id_key("Spatial Relationship")
    assert id_key("demo/a b") != id_key("demo/ab")
    assert look_alike("ui/ alpha", ui_store.item_ids()) == "ui/alpha"
    from ui.editor_model import EditError
    from ui.lifecycle_handlers import LifecycleHandlers
    with pytest.raises(EditError, match="told apart only by case, spaces"):
        LifecycleHandlers(ui_store).duplicate("ui/alpha", "ui/ alpha", "ann")
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, str(root / "app.py"), "item", "duplicate",
                           "ui/alpha", "ui/ alpha", "--db", str(ui_store.path)],
                          capture_output=True, text=True)
    assert done.returncode != 0 and "reads as ui/alpha" in done.stderr
    assert not ui_store.item_exists("ui/ alpha")


def test_remove_image_says_what_it_took(ui_store):
    """Remove clue named its clue; Remove image said nothing (round 29)."""
    from ui.editor_ops import removed_image_note
    item = {"images": ["a", "b"], "clues": [{"boxes": [{"image": "b"}, {"image": "b"}]},
                                            {"boxes": [{"image": "a"}]}]}
    assert removed_image_note(item, 1) == \
        "Removed image 2 and its 2 boxes. Not saved yet: Discard draft brings it back."
    assert removed_image_note({**item, "clues": []}, 0).startswith("Removed image 1. ")
