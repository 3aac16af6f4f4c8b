"""The save-conflict panel after an annotator review (annfix14), on a real store: two
images on one option seen, a merged clue's row and Save merged's message saying what the
merge did, my relabelled option said, a review note not nested in quotes, History naming a
merge with the author's own other tab as the message did."""
from __future__ import annotations

from tests.live_server import make_scene
from tests.test_annotate_page_fixes import PAGE, handlers, switch_values  # noqa: F401
from tests.test_conflict_merge import edit
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui import save_rules
from ui.annotate_layout import COMPARE_HIDE
from ui.annotate_render import Renderer
from ui.editor_handlers import EditorHandlers
from ui.history_handlers import HistoryHandlers
from ui.media_http import preview_url


def _option_b_images(ui_store, tmp_path):
    """ann14b sets a green image on ui/gamma's option B and saves; ann14a, from version 1,
    sets a blue one: (editor, ann14a's work, the conflict, green, blue)."""
    green, blue = (ui_store.add_image(make_scene(tmp_path / f"{c}.png", color=c), f"{c}.png")
                   .sha256 for c in ("#20a040", "#2040c0"))
    editor = EditorHandlers(ui_store)
    mine = editor.load("ui/gamma", "ann14a")
    gamma = ui_store.get_item("ui/gamma")
    ui_store.save_item({**gamma, "options": [gamma["options"][0],
                                             {**gamma["options"][1], "image": green}]},
                       1, "ann14b")
    mine["item"]["options"][1]["image"] = blue
    mine, outcome = editor.save(mine, editor.form_values(mine["item"]), None, "", "ann14a")
    assert outcome["kind"] == "conflict", outcome
    return editor, mine, outcome, green, blue


def test_two_images_set_on_one_option_are_seen_side_by_side(ui_store, handlers, tmp_path):
    """Both sides read "B: red (image)", unmarked: a blind choice. Each side now names its
    image ("(image 3f2a9c01)", the difference marked) and shows it small, by the URL the
    option gallery uses."""
    editor, mine, outcome, green, blue = _option_b_images(ui_store, tmp_path)
    [row] = [r for r in outcome["diff"] if r[0] == "option B"]
    assert row[2:] == [f"B: red (image {green[:8]})", f"B: red (image {blue[:8]})"]
    [cells] = [r for r in outcome["table"] if r[0] == "option B"]
    gallery = Renderer(ui_store, None, HistoryHandlers(ui_store)).option_gallery
    for cell, sha, side in ((cells[2], green, "saved"), (cells[3], blue, "your")):
        url = preview_url(ui_store, sha)
        assert url.startswith("media/") and f'src="{url}"' in gallery(
            {"options": [{"label": "B", "image": sha}]})
        assert f'<img class="cl-conflict-thumb" src="{url}" alt="{side} image">' in cell
        assert f"<mark class=\"cl-{'saved' if side == 'saved' else 'yours'}\">" in cell
    # the page's save: the panel's table is that HTML, shown, the button hiding it
    work = EditorHandlers(ui_store).load("ui/gamma", "ann14a")
    work["item"]["options"][1]["image"] = blue
    shown = handlers["save_item"](PAGE, work, *switch_values(work["item"]), "", [])
    n = len(Renderer.OUTPUTS)
    assert shown[n + 2]["value"]["data"] == outcome["table"] and shown[n + 2]["visible"] is True
    assert shown[-1] == COMPARE_HIDE


def _box_conflict(ui_store):
    """Clue 1 of ui/alpha with two boxes; ann14b removes the second and saves; ann14a, from
    the same version, adds a third: (editor, ann14a's work, the conflict)."""
    item = ui_store.get_item("ui/alpha")
    image = item["images"][0]
    item["clues"][0]["boxes"] = [{"image": image, "x0": x, "y0": 20, "x1": x + 30, "y1": 60}
                                 for x in (10, 50)]
    ui_store.save_item(item, item["version"], "setup")
    editor = EditorHandlers(ui_store)
    them, mine = editor.load("ui/alpha", "ann14b"), editor.load("ui/alpha", "ann14a")
    del them["item"]["clues"][0]["boxes"][1]
    assert edit(editor, them, "ann14b")[1]["kind"] == "saved"
    mine["item"]["clues"][0]["boxes"].append(
        {"image": image, "x0": 200, "y0": 20, "x1": 230, "y1": 60})
    mine, outcome = edit(editor, mine, "ann14a")
    assert outcome["kind"] == "conflict", outcome
    return editor, mine, outcome


def test_a_merged_clue_says_what_the_merge_does_and_save_merged_says_it_again(ui_store):
    """"both (both kept)" beside my copy listing the box they removed, marked as mine, while
    the merge dropped it; Save merged said only "Merged with version 3 by ann14b."."""
    editor, mine, outcome = _box_conflict(ui_store)
    assert [r[:2] for r in outcome["diff"] if r[0] == "clue 1"] == [[
        "clue 1", "both, merged: your new box added, the box they removed stays removed"]]
    _, saved = editor.save(mine, editor.form_values(mine["item"]), None, "", "ann14a",
                           base_version=outcome["current_version"])
    assert saved["kind"] == "saved", saved
    assert "Merged with version 3 by ann14b. Both changes kept — clue 1: your new box added, "\
        "the box they removed stays removed." in saved["message"], saved["message"]
    assert [b["x0"] for b in ui_store.get_item("ui/alpha")["clues"][0]["boxes"]] == [10, 200]


def test_save_merged_says_my_option_was_relabelled_and_my_gold_followed_it(ui_store):
    """My new option C became D (they had added a C too) and my gold answer followed it: the
    panel said "option D (your C)", the message only "Merged with version 2 by ann14b"."""
    editor = EditorHandlers(ui_store)
    them, mine = editor.load("ui/gamma", "ann14b"), editor.load("ui/gamma", "ann14a")
    for work, text in ((them, "green"), (mine, "yellow")):
        work["item"]["options"].append({"label": "C", "text": text, "image": None})
    assert edit(editor, them, "ann14b")[1]["kind"] == "saved"
    mine, outcome = edit(editor, mine, "ann14a", answer="C")
    assert outcome["kind"] == "conflict" and "option D (your C)" in [
        r[0] for r in outcome["diff"]], outcome
    _, saved = editor.save(mine, editor.form_values(mine["item"]), None, "", "ann14a",
                           base_version=outcome["current_version"])
    assert "Your option C is now D (they added an option C too); your gold answer follows " \
        "it." in saved["message"], saved["message"]
    item = ui_store.get_item("ui/gamma")
    assert item["answer"] == "D" and [o["text"] for o in item["options"]][2:] == [
        "green", "yellow"]


def test_a_review_note_with_quotes_is_not_nested_in_the_same_quotes():
    """"… revise — 'Question text 'TAB2 late question' is not a real question; …'"."""
    said = save_rules.merged_over([{"reviewer": "ann14b", "verdict": "revise", "version": 2,
                                    "note": "Question text 'TAB2' is not a real question"}],
                                  [], "draft")
    assert said == ("Merged over ann14b's review: revise — “Question text 'TAB2' is not a "
                    "real question”; status draft.")


def test_history_says_a_merge_with_ones_own_other_tab_as_the_message_did(ui_store):
    """History read "merged with version 2 by ann14a" beside ann14a's own merge, where the
    message said "by you, in another tab or window"; the stored comment stays."""
    editor = EditorHandlers(ui_store)
    one, two = editor.load("ui/alpha", "ann14a"), editor.load("ui/alpha", "ann14a")
    assert edit(editor, one, "ann14a", question="Tab one?")[1]["kind"] == "saved"
    two, outcome = edit(editor, two, "ann14a", gt_reasoning="tab two")
    _, saved = editor.save(two, editor.form_values(two["item"]), None, "", "ann14a",
                           base_version=outcome["current_version"])
    assert "by you, in another tab or window" in saved["message"]
    stored = ui_store.history("ui/alpha")[0]["comment"]
    assert stored == "merged with version 2 by ann14a"
    shown = HistoryHandlers(ui_store).rows("ui/alpha")[0][3]
    assert shown == "merged with version 2 by the same account, in another tab or window"
    # another author's merge reads as stored
    assert HistoryHandlers(ui_store).rows("ui/alpha")[1][3] == \
        ui_store.history("ui/alpha")[1].get("comment", "")
