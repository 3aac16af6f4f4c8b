"""The save-conflict merge after an annotator review (annfix16a), on a real store: a box
dropped with an image a colleague removed is not said "added", and the stored comment says
it was dropped."""
from __future__ import annotations

from tests.live_server import make_scene
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui import editor_ops as ops
from ui.editor_handlers import EditorHandlers


def test_a_box_dropped_with_a_removed_image_is_not_said_added(ui_store, tmp_path):
    """The row read "both, merged: your new box added, but its box on image 1 goes: alice
    removed image 1" and the message "clue 1: your new box added. 1 box on an image alice
    removed was dropped.": the new box was dropped, History's comment said nothing of it."""
    second = ui_store.add_image(make_scene(tmp_path / "two.png", color="#123456"),
                                "two.png").sha256
    item = ui_store.get_item("ui/alpha")
    first = item["images"][0]
    item["clues"][0]["boxes"] = [{"image": first, "x0": 1, "y0": 1, "x1": 9, "y1": 9}]
    ui_store.save_item({**item, "images": [first, second]}, item["version"], "carol")
    editor = EditorHandlers(ui_store)
    alice, bob = editor.load("ui/alpha", "alice"), editor.load("ui/alpha", "bob")
    alice["item"], _ = ops.remove_image(alice["item"], 0)
    assert editor.save(alice, editor.form_values(alice["item"]), None, "",
                       "alice")[1]["kind"] == "saved"
    bob["item"]["clues"][0]["boxes"].append(
        {"image": first, "x0": 20, "y0": 20, "x1": 40, "y1": 40})
    form = {**editor.form_values(bob["item"]), "question": "Which exit is marked?"}
    _, outcome = editor.save(bob, form, None, "", "bob")
    assert outcome["kind"] == "conflict", outcome
    rows = {row[0]: row[1] for row in outcome["diff"]}
    assert "added" not in rows["clue 1"], rows
    assert "its box on image 1 goes: alice removed image 1" in rows["clue 1"], rows
    _, saved = editor.save(bob, form, None, "", "bob", base_version=outcome["current_version"])
    assert saved["kind"] == "saved", saved
    assert "added" not in saved["message"], saved["message"]
    assert "1 box on an image alice removed was dropped." in saved["message"]
    comment = ui_store.history("ui/alpha")[0]["comment"]
    assert "dropped: 1 box of bob's on a removed image" in comment, comment
