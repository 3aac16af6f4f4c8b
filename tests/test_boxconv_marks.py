"""Reviewer round 29: a run with a lower score got the "best" mark.

a-struct read its replies' pixel boxes as 0-1000 (box convention auto, before
test_boxconv_pixels' fix: such runs keep what they stored); a-struct-px took the same replies
from the cache and read them as pixels (`--box-convention pixels`): 4 of 4 grounded to
a-struct's 1. The table took a-struct-px for a copy of a-struct ("every reply from the cache,
made by a run shown here") and marked a-struct best. A copy is the same replies read the same
way (`scoring.table_marks.copies`, `store.run_same_readings`): a run reading them otherwise
is a result of its own. Real SQLite and real scoring.
"""
from __future__ import annotations

import json

from scoring import tables
from scoring.score_run import score_run
from scoring.table_marks import copies
from tests.scoring_helpers import add_items, make_run

GT = {f"g/{k}": [60 + 220 * k, 100 + 150 * k, 260 + 220 * k, 350 + 150 * k] for k in range(4)}
SIZE = (1300, 900)


def reply(box) -> str:
    return json.dumps({"answer": "Yes", "clues": [{"clue": "the red tram stop sign",
                                                   "reasoning": "trams run here",
                                                   "box": box}]})


def items(store) -> None:
    add_items(store, [{"id": i, "answer_type": "yes_no", "answer": "Yes", "domain": "G",
                       "subtask": "g", "clues": [{"text": "red tram stop sign",
                                                  "reasoning": "", "boxes": []}]}
                      for i in GT], width=SIZE[0], height=SIZE[1])
    for item_id, (x0, y0, x1, y1) in GT.items():
        item = store.get_item(item_id)
        item["clues"][0]["boxes"] = [{"image": item["images"][0], "x0": x0, "y0": y0,
                                      "x1": x1, "y1": y1}]
        store.save_item(item, item["version"], "test")


def test_a_run_reading_cached_replies_otherwise_is_no_copy_and_takes_its_mark(store):
    items(store)
    exact = {i: reply(box) for i, box in GT.items()}
    # vlm-b (read as pixels): two boxes on their GT, two far from it
    half = {i: reply(box if k < 2 else [0, 0, 40, 40]) for k, (i, box) in
            enumerate(GT.items())}
    make_run(store, "a-struct", exact, model="vlm-a", setting="structured", sent_size=SIZE)
    make_run(store, "a-struct-px", exact, model="vlm-a", setting="structured",
             sent_size=SIZE, cached_from="a-struct", box_convention="pixels")
    make_run(store, "a-copy", exact, model="vlm-a", setting="structured", sent_size=SIZE,
             cached_from="a-struct")                       # the same replies, read the same
    make_run(store, "b", half, model="vlm-b", setting="structured", sent_size=SIZE,
             box_convention="pixels")
    for run in ("a-struct", "a-struct-px", "a-copy", "b"):
        store.label_run(run, name=run)
        store.finish_run(run, "test", "done", "", {})
        score_run(store, run, protocol="all")
    conventions = {run: {r["box_convention"] for r in store.run_results(run)}
                   for run in ("a-struct", "a-struct-px")}
    assert conventions == {"a-struct": {"normalized_1000"}, "a-struct-px": {"pixels"}}

    assert copies(store, ["a-struct", "a-struct-px", "a-copy", "b"]) == \
        {"a-copy": ["a-struct"]}
    table = tables.main_table(store, ["a-struct", "a-struct-px", "b"], protocol="grounded")
    rows = {row["run_id"]: i for i, row in enumerate(table.rows)}
    values = {rid: table.rows[i]["overall"] for rid, i in rows.items()}
    assert values["a-struct-px"] > values["b"] > values["a-struct"], values
    marks = table.marks()
    assert marks.get((rows["a-struct-px"], "overall")) == "best", marks
    assert marks.get((rows["b"], "overall")) == "second", marks
    assert (rows["a-struct"], "overall") not in marks, marks
    assert "copies of runs shown here" not in table.notes, table.notes
    # a true copy beside its source: still unmarked, its source keeps the mark
    table = tables.main_table(store, ["a-struct", "a-copy", "b"], protocol="general")
    assert "a-copy (every reply from a-struct)" in table.notes, table.notes
