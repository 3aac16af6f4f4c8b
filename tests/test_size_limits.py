"""Size limits on what people write (domain/limits.py), enforced by the store.

An annotator grew the database from 26 to 98 MB in 14 s by saving a 12 MB question again and
again (every save is kept as a revision). Now every text and list of an item has a declared
limit, and the store refuses anything over it, whoever writes it (the editor's save, an import,
a script), naming the field and the limit, never quoting the value, and writing nothing.
"""
from __future__ import annotations

import json
import sqlite3

import pytest

from domain import limits
from formats import import_paths
from store import TooLargeError, ValidationError
from ui import save_rules
from ui.editor_model import EditError

BIG = 12_000_000


def _counts(store) -> tuple:
    con = sqlite3.connect(store.path)
    try:
        return tuple(con.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                     for t in ("items", "revisions", "reviews", "drafts", "clues"))
    finally:
        con.close()


def test_a_12_mb_question_is_refused_naming_the_field_and_the_limit(store, make_item):
    item = make_item("d/1")
    store.create_item(item, "alice")
    before, saved = _counts(store), store.get_item("d/1")
    with pytest.raises(TooLargeError) as refused:
        store.save_item(dict(saved, question="x" * BIG), 1, "mallory")
    assert str(refused.value) == ("item d/1: question: Question is 12,000,000 characters; "
                                  "the limit is 20,000")
    assert refused.value.field == "question" and isinstance(refused.value, ValidationError)
    assert _counts(store) == before and store.get_item("d/1") == saved      # nothing written
    store.save_item(dict(saved, question="q" * limits.MAX_QUESTION), 1, "alice")  # at the limit


@pytest.mark.parametrize("change, message", [
    (lambda i: i.update(answer="a" * 5_001),
     "answer: Gold answer is 5,001 characters; the limit is 5,000"),
    (lambda i: i.update(gt_reasoning="r" * 50_001),
     "gt_reasoning: GT reasoning is 50,001 characters; the limit is 50,000"),
    (lambda i: i.update(domain="d" * 201), "domain: Domain is 201 characters; the limit is 200"),
    (lambda i: i["clues"][0].update(text="t" * 5_001),
     "clues[0].text: Clue 1 text is 5,001 characters; the limit is 5,000"),
    (lambda i: i["clues"][0].update(reasoning="r" * 20_001),
     "clues[0].reasoning: Clue 1 reasoning is 20,001 characters; the limit is 20,000"),
    (lambda i: i["options"][1].update(text="o" * 5_001),
     "options[1].text: Option 2 text is 5,001 characters; the limit is 5,000"),
    (lambda i: i.update(options=[{"label": f"L{n}", "text": "x", "image": None}
                                 for n in range(27)]),
     "options: The item has 27 options; the limit is 26"),
    (lambda i: i.update(clues=[{"text": "c", "reasoning": "", "boxes": []}] * 101),
     "clues: The item has 101 clues; the limit is 100"),
    (lambda i: i["clues"][0].update(boxes=i["clues"][0]["boxes"][:1] * 101),
     "clues[0].boxes: Clue 1 has 101 boxes; the limit is 100"),
    (lambda i: i.update(aliases=["a"] * 101), "aliases: The item has 101 aliases; the limit is 100"),
    (lambda i: i.update(aliases=["b" * 1_001]),
     "aliases[0]: Alias 1 is 1,001 characters; the limit is 1,000"),
    (lambda i: i.update(problems=["p"] * 101),
     "problems: The item has 101 import problems; the limit is 100"),
    (lambda i: i.update(metadata={"raw": "m" * 1_000_000}),
     "metadata: Metadata (as JSON) is 1,000,011 characters; the limit is 1,000,000"),
])
def test_every_part_of_an_item_has_a_limit(store, make_item, change, message):
    item = make_item("d/1")
    change(item)
    with pytest.raises(TooLargeError) as refused:
        store.create_item(item, "alice")
    assert str(refused.value) == f"item d/1: {message}"
    assert _counts(store)[:2] == (0, 0)


def test_an_over_long_id_is_refused_and_shown_cut_short(store, make_item):
    item = make_item("d/1")
    item["id"] = "d/" + "x" * BIG
    with pytest.raises(TooLargeError) as refused:
        store.create_item(item, "alice")
    message = str(refused.value)
    assert len(message) < 300 and message.endswith(
        "(12,000,002 characters): id: Item id is 12,000,002 characters; the limit is 200")


def test_an_import_skips_an_oversized_item_saying_why_and_keeps_the_others(store, tmp_path):
    path = tmp_path / "items.jsonl"
    lines = [{"id": "d/ok", "question": "Fine?", "answer_type": "open", "answer": "x"},
             {"id": "d/big", "question": "q" * 25_000, "answer_type": "open", "answer": "x"},
             {"id": "d/" + "i" * 5_000, "question": "Q?", "answer_type": "open", "answer": "x"}]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    [report] = import_paths(store, "jsonl", [(path, "items.jsonl")])
    assert (report.imported, report.skipped) == (1, 2)
    reasons = {p["item_id"]: p["reason"] for p in report.problems}
    assert "Question is 25,000 characters; the limit is 20,000" in reasons["d/big"]
    [long_id] = [i for i in reasons if i.startswith("d/i")]
    assert len(long_id) < 120 and "id is longer than the limit of 200" in reasons[long_id]
    assert store.item_ids() == ["d/ok"]


def test_review_notes_comments_reasons_and_drafts_are_bounded(store, make_item):
    store.create_item(make_item("d/1"), "alice")
    before = _counts(store)
    with pytest.raises(TooLargeError, match="note: Review note is 5,001 characters; the "
                                            "limit is 5,000"):
        store.add_review("d/1", 1, "bob", "approve", "n" * 5_001)
    with pytest.raises(TooLargeError, match="Revision comment is 12,000,000 characters"):
        store.save_item(dict(store.get_item("d/1"), question="New?"), 1, "alice", "c" * BIG)
    with pytest.raises(TooLargeError, match="reason: Reason is 2,001 characters; the limit "
                                            "is 2,000"):
        store.delete_item("d/1", "alice", "r" * 2_001)
    with pytest.raises(TooLargeError, match=r"data: Draft \(as JSON\) is 12,000,0\d\d "
                                            "characters; the limit is 4,000,000"):
        store.save_draft("alice", "d/1", 1, {"question": "q" * BIG})
    with pytest.raises(TooLargeError, match="Item id is 12,000,000 characters"):
        store.save_draft("alice", "x" * BIG, None, {})
    assert _counts(store) == before
    assert store.get_item("d/1")["version"] == 1


def test_the_comment_typed_with_a_save_is_bounded():
    save_rules.check_comment("c" * limits.MAX_COMMENT)
    with pytest.raises(EditError, match="Comment is 2,001 characters; the limit is 2,000"):
        save_rules.check_comment("c" * 2_001)


def test_a_human_baseline_item_id_is_bounded(store):
    with pytest.raises(TooLargeError, match="An item id is 12,000,000 characters; the limit "
                                            "is 200"):
        store.add_human_baseline("crowd", "Crowd", {"x" * BIG: True})
    assert store.list_human_baselines() == []


def test_the_demo_dataset_is_well_within_the_limits(store):
    """The limits are generous: the demo's items (and the benchmarks': see domain/limits.py)
    are far below them."""
    from pathlib import Path
    demo = Path(__file__).resolve().parent.parent / "assets" / "demo" / "demo.jsonl"
    if not demo.exists():
        pytest.skip("no demo dataset")
    [report] = import_paths(store, "jsonl", [(demo, "demo.jsonl")], may_release=True)
    assert report.skipped == 0 and report.imported > 0
