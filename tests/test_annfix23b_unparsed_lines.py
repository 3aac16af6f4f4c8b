"""A line (or entry) the import could not read is reported with its parse error alone: the
report listed "missing field: question" (and, for MMR-Life, the gold checks' complaints)
under the parse error of the same line, as if a question had been left out of it."""
from __future__ import annotations

import json

import pytest

from formats import import_path

GOOD = {"jsonl": {"id": "d/1", "dataset": "d", "question": "Fine?", "answer_type": "open",
                  "answer": "yes"},
        "seekworld": {"question": "Where?", "answer": "$France,Brittany$",
                      "message": json.dumps([{"role": "user", "content": "Where?"}])},
        "dailyclue": {"id": "1", "question": "Fine?", "answer": "yes"}}


@pytest.mark.parametrize("fmt", ["jsonl", "seekworld", "dailyclue"])
@pytest.mark.parametrize("bad", ['{"id": "d/2", "question": broken', "[1, 2]"])
def test_a_line_not_read_has_its_parse_error_alone(store, tmp_path, fmt, bad):
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps(GOOD[fmt]) + "\n" + bad + "\n", encoding="utf-8")
    report = import_path(store, fmt, path)
    assert report.imported == 2
    said = [p["reason"] for p in report.problems if p["item_id"].endswith("2")]
    assert len(said) == 1 and said[0].startswith("malformed "), report.problems


def test_an_mmr_life_entry_not_an_object_has_its_problem_alone(store, tmp_path):
    path = tmp_path / "mmr.json"
    path.write_text(json.dumps([{"id": "a", "question": "Which?", "img_path": [],
                                 "golden_answer": "A", "options": ["A. one", "B. two"]},
                                "just text"]), encoding="utf-8")
    import_path(store, "mmr-life", path)
    entry = next(i for i in store.iter_items() if i["id"].endswith("#2"))
    assert entry["problems"] == ["malformed item: entry 2 is not a JSON object"]
