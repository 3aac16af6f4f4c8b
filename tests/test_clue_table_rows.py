"""A row added or deleted in the clue table's cell menu moves the annotator's boxes with
their clue (ui/editor_model.relabel_for_rows), so saving never hands a box to another clue."""
from __future__ import annotations

from ui import editor_model as em

SHA = "a" * 64


def box(x: float) -> dict:
    return {"image": SHA, "x0": x, "y0": 1.0, "x1": x + 5, "y1": 6.0}


def annot(label: str, x: float) -> dict:
    return {"label": label, "xmin": x, "ymin": 1.0, "xmax": x + 5, "ymax": 6.0}


ITEM = {"images": [SHA], "clues": [
    {"text": "sign", "reasoning": "r-sign", "boxes": [box(10)]},
    {"text": "plate", "reasoning": "r-plate", "boxes": [box(20)]},
]}
ANNOT = [annot("clue 2", 20), annot("clue 1", 10)]      # the annotator lists newest first


def collected(rows: list[list]) -> dict:
    table = {"headers": em.CLUE_HEADERS, "data": rows}    # as plain_table gives it
    moved = em.relabel_for_rows(ANNOT, table, len(ITEM["clues"]))
    item = em.apply_clue_rows(ITEM, table)
    return em.merge_annotator_boxes(item, SHA, moved)


def test_a_row_added_above_the_first_clue_leaves_every_box_with_its_clue():
    item = collected([["", "tiny window", "", ""], ["clue 1", "sign", "r-sign", "1"],
                      ["clue 2", "plate", "r-plate", "1"]])
    assert [c["text"] for c in item["clues"]] == ["tiny window", "sign", "plate"]
    assert [[b["x0"] for b in c["boxes"]] for c in item["clues"]] == [[], [10], [20]]
    assert [c["reasoning"] for c in item["clues"]] == ["", "r-sign", "r-plate"]
    assert item["_unassigned"] == []


def test_a_deleted_row_takes_its_boxes_and_the_rest_keep_theirs():
    item = collected([["clue 2", "plate", "r-plate", "1"]])
    assert [(c["text"], [b["x0"] for b in c["boxes"]]) for c in item["clues"]] == \
        [("plate", [20])]


def test_unchanged_rows_change_nothing():
    item = collected(em.clue_rows(ITEM))
    assert [[b["x0"] for b in c["boxes"]] for c in item["clues"]] == [[10], [20]]


def test_rows_renumbered_tells_a_new_or_deleted_row_from_typing():
    """ui/annotate_structure.edit_clue_table shows the item again (the new clue gets its
    label and can take boxes) only when rows were added, deleted or moved."""
    table = lambda rows: {"headers": em.CLUE_HEADERS, "data": rows}    # noqa: E731
    typed = [["clue 1", "sign!", "r", "1"], ["clue 2", "plate", "r", "1"]]
    assert not em.rows_renumbered(table(typed), 2)
    assert em.rows_renumbered(table([*typed, ["", "post box", "", ""]]), 2)
    assert not em.rows_renumbered(table([*typed, ["", "", "", ""]]), 2)   # "+" not typed in
    assert em.rows_renumbered(table(typed[1:]), 2)
    assert em.rows_renumbered(table(typed[::-1]), 2)
    assert not em.rows_renumbered({"headers": ["x"], "data": []}, 2)      # collect refuses it
