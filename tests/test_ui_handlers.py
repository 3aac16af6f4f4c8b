"""Editor handlers and the box↔clue mapping, tested directly on a real SQLite store."""
import html
import re

import pytest

from store import Store
from tests.live_server import build_ui_db
from ui import editor_model as em
from ui import editor_ops as ops
from ui.browser_handlers import PAGE_ROWS, BrowserHandlers
from ui.editor_handlers import EditorHandlers
from ui.annotate_render import Renderer, reviews_md
from ui.history_handlers import HistoryHandlers
from ui.text import escape_md


@pytest.fixture
def ui_store(tmp_path):
    build_ui_db(tmp_path / "ui.db")
    store = Store.open(tmp_path / "ui.db")
    yield store
    store.close()


def annot(label, x0, y0, x1, y1):
    return {"label": label, "color": (0, 0, 0), "xmin": x0, "ymin": y0, "xmax": x1, "ymax": y1}


def test_boxes_map_to_clues_by_label_and_keep_unknown_labels_aside():
    item = {"images": ["a", "b"], "clues": [
        {"text": "one", "boxes": [{"image": "b", "x0": 1, "y0": 1, "x1": 5, "y1": 5}]},
        {"text": "two", "boxes": []}]}
    merged = em.merge_annotator_boxes(item, "a", [annot("clue 2", 30, 40, 10, 20),
                                                  annot("Clue 1", 0, 0, 9, 9),
                                                  annot("tree", 2, 2, 4, 4)])
    assert merged["clues"][0]["boxes"] == [
        {"image": "b", "x0": 1, "y0": 1, "x1": 5, "y1": 5},
        {"image": "a", "x0": 0, "y0": 0, "x1": 9, "y1": 9}]
    # coordinates are normalised so that x0 < x1 even when dragged right-to-left
    assert merged["clues"][1]["boxes"] == [{"image": "a", "x0": 10, "y0": 20, "x1": 30, "y1": 40}]
    assert merged["_unassigned"] == [{"image": "a", "x0": 2, "y0": 2, "x1": 4, "y1": 4,
                                      "label": "tree"}]
    with pytest.raises(em.EditError, match="'tree' names no clue"):
        em.check_saveable({**merged, "question": "q"})


def test_an_unlabelled_box_in_a_draft_is_shown_selectable_and_the_refusal_says_what_to_do(
        ui_store):
    """A box drawn and not given a label was kept in the draft twice: as a box of no size
    (the annotator reports the press that starts a box) and as a box labelled ''. After a
    reload the first was a line that could be neither selected nor deleted and blocked Save;
    the refusal named one box by its pixel coordinates. A box of no size is no box now, an
    unlabelled one (its clue picker still open) is not kept in the draft either (it came back
    as a box labelled "(pick a clue)"), and the refusal counts them and says what to press."""
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "local")
    form = editor.form_values(work["item"])
    editor.autosave(work, form, [annot("", 300, 200, 300, 200)], "local")   # the press
    editor.autosave(work, form, [annot("", 300, 200, 420, 260),
                                 annot("", 50, 50, 50, 90)], "local")       # and a line
    assert ui_store.get_draft("local", "ui/alpha") is None
    reloaded = editor.load("ui/alpha", "local")
    assert reloaded["item"]["_unassigned"] == []
    shown = [annot("", 300, 200, 420, 260)]
    _, outcome = editor.save(reloaded, editor.form_values(reloaded["item"]), shown, "", "local")
    assert outcome["kind"] == "invalid"
    assert outcome["message"] == (
        "1 box has no clue yet (on image 1), drawn in grey. Select each (press D, then click "
        "it) and press E, type its clue number (1 to 1) and Enter, or press Del to delete it.")
    assert "300" not in outcome["message"]
    # deleted in the annotator: nothing is left to refuse or to save, and the draft goes
    _, outcome = editor.save(reloaded, editor.form_values(reloaded["item"]), [], "", "local")
    assert outcome["kind"] == "unchanged", outcome
    assert ui_store.get_draft("local", "ui/alpha") is None


def test_boxes_for_image_round_trip_through_the_annotator():
    item = {"images": ["a"], "clues": [
        {"text": "x", "boxes": [{"image": "a", "x0": 1, "y0": 2, "x1": 3, "y1": 4}]}]}
    shown = em.boxes_for_image(item, "a")
    assert shown[0]["label"] == "clue 1" and shown[0]["xmin"] == 1
    assert em.merge_annotator_boxes(item, "a", shown)["clues"] == item["clues"]
    labels, colors = em.label_list(2)
    assert labels == [em.PICK_LABEL, "clue 1", "clue 2"] and len(colors) == 3


def test_an_untouched_item_with_boxes_on_several_images_has_nothing_to_save(ui_store):
    """A clue's boxes of the open image were put back after its boxes of the other images:
    opening an item and pressing Save made a new version whose only change was that order
    (and a draft Discard could not clear). Each box keeps its place now."""
    saved = ui_store.get_item("ui/alpha")
    first, second = saved["images"]
    box = {"x0": 1, "y0": 1, "x1": 9, "y1": 9}
    saved["clues"][0]["boxes"] = [{"image": second, **box}, {"image": first, **box},
                                  {"image": second, "x0": 2, "y0": 2, "x1": 8, "y1": 8}]
    ui_store.save_item(saved, saved["version"], "fixture", "boxes on both images")
    editor = EditorHandlers(ui_store)
    for index, sha in enumerate((first, second)):
        work = {**editor.load("ui/alpha", "local"), "image_index": index}
        shown = em.boxes_for_image(work["item"], sha)
        assert em.merge_annotator_boxes(work["item"], sha, shown) == {
            **work["item"], "_unassigned": []}
        _, outcome = editor.save(work, editor.form_values(work["item"]), shown, "", "local")
        assert outcome["kind"] == "unchanged", outcome
    # a box drawn is added after the clue's others; one deleted leaves the rest in order
    shown = em.boxes_for_image(work["item"], second)
    grown = em.merge_annotator_boxes(work["item"], second, [annot("clue 1", 3, 3, 7, 7)] + shown)
    assert [b["x0"] for b in grown["clues"][0]["boxes"]] == [1, 1, 2, 3]
    shrunk = em.merge_annotator_boxes(work["item"], second, shown[:1])
    assert [(b["image"], b["x0"]) for b in shrunk["clues"][0]["boxes"]] == [
        (second, 2), (first, 1)]


def test_clue_rows_carry_boxes_through_edits_and_reorder():
    item = {"images": ["a"], "clues": [
        {"text": "first", "reasoning": "", "boxes": [{"image": "a", "x0": 0, "y0": 0, "x1": 1, "y1": 1}]},
        {"text": "second", "reasoning": "", "boxes": []}]}
    rows = em.clue_rows(item)
    rows[0][1] = "first, edited"
    rows.append(["", "third", "because", ""])
    edited = em.apply_clue_rows(item, rows)
    assert [c["text"] for c in edited["clues"]] == ["first, edited", "second", "third"]
    assert len(edited["clues"][0]["boxes"]) == 1
    moved, index = ops.move_clue(edited, 0, 1)
    assert index == 1 and moved["clues"][1]["text"] == "first, edited"
    assert len(moved["clues"][1]["boxes"]) == 1
    assert em.boxes_for_image(moved, "a")[0]["label"] == "clue 2"
    removed, selected = ops.remove_clue(moved, 1)
    assert all(not c["boxes"] for c in removed["clues"])
    assert selected is None            # a second click removes nothing nobody picked
    assert ops.removed_clue_note(moved, 1) == (
        'Removed clue 2 "first, edited" and its 1 box. Not saved yet: Discard draft brings '
        'it back.')
    moved["clues"][0]["text"] = "a very long clue text that runs on and on past forty chars"
    assert ops.removed_clue_note(moved, 0).startswith(
        'Removed clue 1 "a very long clue text that runs on and o…". Not saved')


def test_option_rows_reject_duplicates_and_keep_images():
    item = {"options": [{"label": "A", "text": "", "image": "sha-a"}, {"label": "B", "text": "b"}]}
    rows = em.option_rows(item)
    assert rows == [["A", "", "image"], ["B", "b", ""]]
    rows[1][1] = "bee"
    assert em.apply_option_rows(item, rows)["options"][0]["image"] == "sha-a"
    with pytest.raises(em.EditError, match="duplicate option labels: A"):
        em.apply_option_rows(item, [["A", "x", ""], ["A", "y", ""]])


def test_save_conflict_keeps_draft_and_overwrites_nothing(ui_store):
    editor = EditorHandlers(ui_store)
    alice = editor.load("ui/beta", "alice")
    bob = editor.load("ui/beta", "bob")
    form = editor.form_values(alice["item"]) | {"question": "Alice?"}
    _, outcome = editor.save(alice, form, None, "mine", "alice")
    assert outcome["kind"] == "saved" and outcome["version"] == 2

    form = editor.form_values(bob["item"]) | {"question": "Bob?"}
    bob, outcome = editor.save(bob, form, None, "", "bob")
    assert outcome["kind"] == "conflict"
    assert "changed by alice" in outcome["message"] and outcome["current_version"] == 2
    assert ["question", "both (you choose)", "Alice?", "Bob?"] in outcome["diff"]
    assert ui_store.get_item("ui/beta")["question"] == "Alice?"
    assert ui_store.get_draft("bob", "ui/beta")["data"]["question"] == "Bob?"

    # reopening shows bob his draft, and says it is based on an older version
    reopened = editor.load("ui/beta", "bob")
    assert reopened["item"]["question"] == "Bob?"
    assert "based on version 1" in reopened["notice"]

    _, outcome = editor.save(bob, form, None, "resolved", "bob", base_version=2)
    assert outcome["kind"] == "saved" and ui_store.get_item("ui/beta")["question"] == "Bob?"
    assert ui_store.get_draft("bob", "ui/beta") is None


def test_autosave_drops_the_draft_when_edits_are_undone(ui_store):
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "local")
    form = editor.form_values(work["item"])
    assert editor.autosave(work, form | {"answer": "13"}, None, "local") == "unsaved edits of gold answer (draft kept)"
    assert ui_store.get_draft("local", "ui/alpha")["data"]["answer"] == "13"
    assert editor.autosave(work, form, None, "local") == ""
    assert ui_store.get_draft("local", "ui/alpha") is None


def test_an_autosave_arriving_after_its_save_keeps_no_draft(ui_store):
    """Ctrl+S straight from the field: the autosave of the last keys can reach the server
    after the save, with the version the page knew before it (fresh-clone CI: the save
    bar's "version 2" was replaced by "unsaved edits (draft kept)")."""
    editor = EditorHandlers(ui_store)
    before = editor.load("ui/alpha", "local")
    form = editor.form_values(before["item"]) | {"answer": "13"}
    editor.save(before, form, None, "", "local")
    assert editor.autosave(before, form, None, "local") == ""
    assert ui_store.get_draft("local", "ui/alpha") is None
    # edits beyond what was saved are still kept
    assert editor.autosave(before, form | {"answer": "14"}, None, "local") == \
        "unsaved edits of gold answer (draft kept)"


def test_an_autosave_of_keys_typed_before_the_tabs_save_is_dropped(ui_store):
    """Half a word's autosave overtaken by the save (Ctrl+S while typing) kept that half
    word as a draft of the old version; the save bar's "version 2" was cleared."""
    editor = EditorHandlers(ui_store)
    before = editor.load("ui/alpha", "local")
    form = editor.form_values(before["item"])
    editor.save(before, form | {"answer": "1334"}, None, "", "local", session="tab1")
    assert editor.autosave(before, form | {"answer": "13"}, None, "local", "tab1") is None
    assert ui_store.get_draft("local", "ui/alpha") is None
    # another tab's edits of the old version are kept (its save will show the conflict)
    assert editor.autosave(before, form | {"answer": "13"}, None, "local", "tab2") == \
        "unsaved edits of gold answer (draft kept)"


def test_invalid_save_names_the_problem_and_writes_nothing(ui_store):
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "local")
    form = editor.form_values(work["item"]) | {"question": "   "}
    _, outcome = editor.save(work, form, None, "", "local")
    assert outcome == {"kind": "invalid", "message": "the question is empty"}
    sha = work["item"]["images"][0]
    outside = [annot("clue 1", 10, 10, 5000, 20)]  # the image is 1200 px wide
    form = editor.form_values(work["item"])
    _, outcome = editor.save(work, form, outside, "", "local")
    assert outcome["kind"] == "invalid" and "ui/alpha" in outcome["message"]
    assert ui_store.get_item("ui/alpha")["version"] == 1
    assert ui_store.image_info(sha)["width"] == 1200


def test_history_diff_and_restore(ui_store):
    editor, history = EditorHandlers(ui_store), HistoryHandlers(ui_store)
    work = editor.load("ui/gamma", "local")
    editor.save(work, editor.form_values(work["item"]) | {"answer": "B"}, None, "fix", "local")
    rows = history.rows("ui/gamma")
    assert [r[0] for r in rows] == [2, 1] and rows[0][3] == "fix"
    assert ["answer", "A", "B"] in history.diff("ui/gamma", 1, 2)
    assert history.restore("ui/gamma", 1, 2, "local") == "Restored version 1 as version 3."
    assert ui_store.get_item("ui/gamma")["answer"] == "A"
    with pytest.raises(em.EditError):
        history.restore("ui/gamma", 1, 2, "local")  # stale base version


def test_opening_another_item_clears_the_history_diff(ui_store):
    """The diff of the item shown before stayed under the new item's version table."""
    editor, history = EditorHandlers(ui_store), HistoryHandlers(ui_store)
    renderer = Renderer(ui_store, None, history)
    work = editor.load("ui/gamma", "local")
    editor.save(work, editor.form_values(work["item"]) | {"answer": "B"}, None, "fix", "local")
    assert history.diff("ui/gamma", 1, 2)                  # shown for gamma
    shown = renderer.render(editor.load("ui/beta", "local"))
    assert shown[renderer.index("diff")] == []
    assert shown[renderer.index("history")] == history.rows("ui/beta")


def test_a_restored_draft_shows_as_unsaved_edits_until_saved(ui_store):
    """After a reload brought a draft back, the save bar's draft line said nothing: the
    restored edits looked saved."""
    editor, history = EditorHandlers(ui_store), HistoryHandlers(ui_store)
    renderer = Renderer(ui_store, None, history)
    work = editor.load("ui/gamma", "local")
    form = editor.form_values(work["item"])
    editor.autosave(work, form | {"answer": "B"}, None, "local")
    restored = editor.load("ui/gamma", "local")                    # the reload
    assert renderer.render(restored)[renderer.index("draft_state")] == \
        "unsaved edits of gold answer (draft kept)"
    saved, _ = editor.save(restored, editor.form_values(restored["item"]), None, "", "local")
    assert renderer.render(saved)[renderer.index("draft_state")] == ""
    assert renderer.render(editor.load("ui/beta", "local"))[
        renderer.index("draft_state")] == ""                          # no draft: no line


def test_browser_filters_and_neighbours(ui_store):
    browser = BrowserHandlers(ui_store)
    rows, count, ids, page = browser.search("(all)", "(all)", "(all)", "(all)", "all", "")
    assert ids == ["ui/alpha", "ui/beta", "ui/gamma"] and count.startswith("3 of 3")
    assert page == 1 and "page" not in count
    _, _, ids, _ = browser.search("ui", None, None, None, "all", "station")
    assert ids == ["ui/beta"]
    assert browser.neighbour(["a", "b", "c"], "b", 1) == "c"
    assert browser.neighbour(["a", "b", "c"], "c", 1) == "c"
    assert browser.neighbour(["a", "b", "c"], "zzz", -1) == "c"


def test_browser_list_pages_through_a_long_filtered_list(ui_store):
    for n in range(PAGE_ROWS + 30):
        ui_store.create_item({"id": f"bulk/{n:04d}", "dataset": "bulk", "question": f"Q{n}?",
                              "answer_type": "open", "answer": "x", "images": [],
                              "clues": []}, "test")
    browser = BrowserHandlers(ui_store)
    rows, count, ids, page = browser.search("bulk", None, None, None, "all", "")
    assert len(ids) == PAGE_ROWS + 30 and len(rows) == PAGE_ROWS and page == 1
    assert f"rows 1–{PAGE_ROWS} (page 1 of 2)" in count
    rows, count, ids, page = browser.search("bulk", None, None, None, "all", "", 2)
    assert page == 2 and [r[0] for r in rows] == ids[PAGE_ROWS:]
    assert f"rows {PAGE_ROWS + 1}–{PAGE_ROWS + 30} (page 2 of 2)" in count
    # out-of-range or junk page numbers are clamped, never an error
    assert browser.search("bulk", None, None, None, "all", "", 99)[3] == 2
    assert browser.search("bulk", None, None, None, "all", "", "x")[3] == 1
    assert browser.search("bulk", None, None, None, "all", "", -3)[3] == 1


def test_untrusted_text_is_escaped_for_markdown():
    hostile = "<img src=x onerror=alert(1)> [x](javascript:alert(1))"
    shown = escape_md(hostile)
    assert "<img" not in shown and "](javascript" not in shown


def test_a_draft_is_its_users_own_and_others_are_told_it_exists(ui_store):
    """ann keeps an unsaved draft. Her second tab restores it (and two tabs of hers are
    offered the choice, tests/browser/test_annotate_workspace.py); the reviewer rev opening
    the item gets the saved version, not ann's draft, and is told that ann has unsaved edits,
    so that a save of his is not a surprise to either."""
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "ann")
    form = editor.form_values(work["item"])
    editor.autosave(work, form | {"question": "Which exit, ann?"}, None, "ann", "tab-1")
    assert editor.load("ui/alpha", "ann")["item"]["question"] == "Which exit, ann?"
    review = editor.load("ui/alpha", "rev")
    assert review["item"]["question"] == "Which exit is signposted?"
    assert review["draft_seen"] is None
    assert "Unsaved edits of this item by ann (since " in review["notice"]
    assert "Which exit, ann?" not in review["notice"]
    assert "by ann" not in editor.load("ui/alpha", "ann")["notice"]     # not told of her own
    editor.autosave(work, form, None, "ann", "tab-1")                      # edits undone
    assert editor.load("ui/alpha", "rev")["notice"] == ""


def test_after_one_saves_first_the_notice_says_the_colleague_s_save_shows_the_changes(
        ui_store):
    """A review: right after rev saved, his screen still said "Unsaved edits of this item by
    ann …; if they save first, your save will show the differences": he had saved first."""
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "ann")
    editor.autosave(work, editor.form_values(work["item"]) | {"question": "Which, ann?"},
                    None, "ann", "tab-1")
    rev = editor.load("ui/alpha", "rev")
    assert "if they save first, your save will show the differences" in rev["notice"]
    form = editor.form_values(rev["item"]) | {"question": "Which exit, rev?"}
    rev, outcome = editor.save(rev, form, None, "", "rev")
    assert outcome["kind"] == "saved", outcome
    notice = editor.load("ui/alpha", "rev")["notice"]
    assert "if they save first" not in notice
    assert f"it began before version {rev['item']['version']}, so their save will show them " \
        "the changes made since; yours saves as usual." in notice


RAW_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d")     # what the page showed before
READABLE_TIME = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC")


def test_every_time_on_the_annotate_page_is_readable(ui_store):
    editor, history = EditorHandlers(ui_store), HistoryHandlers(ui_store)
    work = editor.load("ui/gamma", "ann")
    work, outcome = editor.save(work, editor.form_values(work["item"]) | {"answer": "B"}, None,
                                "fix", "ann")
    assert outcome["kind"] == "saved"
    ui_store.add_review("ui/gamma", 2, "rev", "approve", "fine")     # version 3: verified
    shown = [
        *[row[2] for row in history.rows("ui/gamma")],           # the history table's times
        # as the Markdown shows it (its source escapes "-" and ":")
        html.unescape(reviews_md(ui_store, "ui/gamma").replace("\\", "")),
        Renderer(ui_store, None, history).header(ui_store.get_item("ui/gamma")),
    ]
    # a draft of another user, and this user's own draft on an older version
    ui_store.save_draft("other", "ui/gamma", 3, {**work["item"], "question": "theirs?"})
    ui_store.save_draft("ann", "ui/gamma", 1, {**work["item"], "question": "mine?"})
    notice = editor.load("ui/gamma", "ann")["notice"]
    shown.append(notice)
    # a save refused because someone else saved meanwhile, and a stale restore
    stale = editor.load("ui/beta", "ann")
    theirs = editor.load("ui/beta", "other")
    editor.save(theirs, editor.form_values(theirs["item"]) | {"question": "Theirs?"}, None, "",
                "other")
    _, refused = editor.save(stale, editor.form_values(stale["item"]) | {"question": "Mine?"},
                             None, "", "ann")
    assert refused["kind"] == "conflict"
    shown.append(refused["message"])
    with pytest.raises(Exception) as restore:
        history.restore("ui/beta", 1, 1, "ann")
    shown.append(str(restore.value))
    for text in shown:
        assert READABLE_TIME.search(text), text
        assert not RAW_TIME.search(text), text
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC · (just now|\d+ min ago)",
                        history.rows("ui/gamma")[0][2])
    assert "other (since " in notice and "draft from " in notice and "version 3 (saved" in notice


def test_an_item_whose_image_the_import_lost_does_not_say_no_image_yet():
    """"No image yet" read as a new item's; this item's image was not found at import."""
    from ui.annotate_render import no_image_line
    assert no_image_line({"problems": []}).startswith("No image yet")
    lost = no_image_line({"problems": ["image file not found: image 1 (a file at that path "
                                       "inside the image folder)"]})
    assert lost.startswith("Image lost at import (see its problems)")
    for problem in ("unsafe image path: image 2 (inside the image folder)",
                    "missing image: the item names no image (give image or images)",
                    "malformed image: image 1 (not valid base64)"):
        assert no_image_line({"problems": [problem]}).startswith("Image lost"), problem
    assert no_image_line({"problems": ["invalid box: clue 1: empty"]}).startswith("No image yet")


def test_restoring_the_version_the_item_holds_makes_no_revision(ui_store):
    """A restore of the current version made a copy of it, authored by the one restoring
    it (a verified item's history then named an annotator as its latest author)."""
    history = HistoryHandlers(ui_store)
    line = history.restore("ui/gamma", 1, 1, "ann")
    assert line.startswith("Nothing to restore: version 1 is what ui/gamma holds now")
    assert ui_store.get_item("ui/gamma")["version"] == 1


def test_the_history_diff_numbers_each_side_by_its_own_versions_images(ui_store, tmp_path):
    """Version 2 put a new image first: the diff's "before" side read "image 2" for a box
    of version 1, which had one image."""
    from tests.live_server import make_scene
    item = ui_store.get_item("ui/alpha")
    first = item["images"][0]
    new = ui_store.add_image(make_scene(tmp_path / "new.png", color="#345678"), "new.png").sha256
    was_box = {"image": first, "x0": 2, "y0": 2, "x1": 8, "y1": 8}
    item = {**item, "clues": [{**item["clues"][0], "boxes": [was_box]}, *item["clues"][1:]]}
    ui_store.save_item(item, 1, "ann", "")
    clue = {**item["clues"][0], "boxes": [was_box, {"image": new, "x0": 1, "y0": 1, "x1": 9,
                                                     "y1": 9}]}
    ui_store.save_item({**item, "images": [new, first], "clues": [clue, *item["clues"][1:]]},
                       2, "bob", "")
    rows = {row[0]: row for row in HistoryHandlers(ui_store).diff("ui/alpha", 2, 3)}
    was = item["images"]
    assert rows["images"][1] == "\n".join(f"image {k + 1} ({sha[:8]})" for k, sha in
                                          enumerate(was))
    assert rows["images"][2].startswith(f"image 1 ({new[:8]})\nimage 2 ({first[:8]})")
    assert rows["clue 1 boxes"][1:] == ["(2,2)-(8,8) on image 1",      # version 2's first
                                        "(2,2)-(8,8) on image 2\n(1,1)-(9,9) on image 1"]
    moved = [r for key, r in rows.items() if key.endswith("boxes") and key != "clue 1 boxes"]
    for _, before, after in moved:          # a box of image 1 then is on image 2 now
        assert "on image 1" in before and "on image 2" in after


def test_a_restore_that_changes_the_status_says_so(ui_store):
    """Restoring a draft version of a verified item made it a draft again, and the line said
    only "Restored version 2 as version 6."."""
    editor, history = EditorHandlers(ui_store), HistoryHandlers(ui_store)
    work = editor.load("ui/gamma", "local")
    before = work["item"]["status"]
    editor.save(work, editor.form_values(work["item"]) | {"answer": "B", "status": "verified"}
                if before != "verified" else editor.form_values(work["item"]) | {
                    "answer": "B", "status": "in_review"}, None, "", "local")
    now = ui_store.get_item("ui/gamma")["status"]
    assert now != before
    line = history.restore("ui/gamma", 1, 2, "local")
    assert line == f"Restored version 1 as version 3. Its status is {before} (it was {now})."


def test_a_diff_names_an_option_by_its_label_and_an_image_by_a_short_name(ui_store):
    """The history diff read "option 4 image" for option B and showed the new image as its
    64-digit hash."""
    history = HistoryHandlers(ui_store)
    item = ui_store.get_item("ui/gamma")
    images = [sha for other in ("ui/alpha", "ui/beta", "ui/gamma")
              for sha in ui_store.get_item(other).get("images") or []]
    labels = [o["label"] for o in item["options"]]
    item["options"][-1]["image"] = images[0]
    ui_store.save_item(item, item["version"], "local", "")
    rows = history.diff("ui/gamma", 1, 2)
    [row] = [r for r in rows if r[0].endswith(" image")]
    assert row[0] == f"option {labels[-1]} image"
    # a thumbnail (annfix17), its hash as its title only: no hash shown as text
    assert f'alt="an image ({images[0][:8]})"' in row[2] and row[2].startswith("<img ")
    assert images[0] not in re.sub(r"<[^>]*>", "", row[2])
