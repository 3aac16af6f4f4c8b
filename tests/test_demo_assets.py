"""Checks on the shipped demo dataset (assets/demo/), independent of store/ and formats/.

Why: the demo seeds every new database, so a broken line, a missing image or a box outside its
image would be the first thing every user sees. These tests read the files directly, so they stay
valid whatever the importer does, and they pin the demo to what assets/demo_generator/ generates.
"""
from __future__ import annotations

import json
import re
from pathlib import Path, PurePosixPath

import pytest
from PIL import Image

from assets.demo_generator.generate import main as generate_demo

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "assets" / "demo"
JSONL = DEMO / "demo.jsonl"

ANSWER_TYPES = {"multiple_choice", "yes_no", "open", "location", "numeric"}
STATUSES = {"draft", "candidate", "in_review", "verified", "rejected", "released"}
# DailyClue's four domains and 16 subtasks (data/dailyclue/taxonomy_derived.json).
TAXONOMY = {
    "Location Identification": {"Location Identification"},
    "Spatial Relationship": {"Motion and Occlusion", "Logical Spatial Relations", "Static Spatial Relations",
                             "Functional Spatial Relations"},
    "Daily Commonsense": {"Home and Daily Life", "Transportation and Travel", "Food and Health",
                          "Planning and Consumption", "Information Literacy", "Social Interaction and Customs",
                          "Logical Reasoning"},
    "Scientific Commonsense": {"Physics", "Chemistry", "Biology", "Astronomy and Geography"},
}
FIELDS = {"id", "dataset", "domain", "subtask", "reasoning_type", "question", "answer_type", "options", "answer",
          "aliases", "gt_reasoning", "status", "problems", "metadata", "images", "clues"}


def load_items() -> list[dict]:
    with open(JSONL, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


ITEMS = load_items()


def safe_path(rel: str) -> Path:
    """Resolve an image path the way the JSONL importer must: relative, never leaving the folder."""
    p = PurePosixPath(rel)
    assert not p.is_absolute() and ".." not in p.parts, rel
    return DEMO / p


def test_lines_are_canonical_json():
    """One object per line, keys sorted, ClueLab separators: the file diffs cleanly and round-trips."""
    text = JSONL.read_text(encoding="utf-8")
    assert text.endswith("\n") and "\r" not in text
    for line in text.splitlines():
        obj = json.loads(line)
        assert line == json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(", ", ": "))


def test_ids_unique_and_fields_complete():
    ids = [it["id"] for it in ITEMS]
    assert len(ids) == len(set(ids))
    assert 12 <= len(ITEMS) <= 16
    for it in ITEMS:
        assert set(it) == FIELDS, it["id"]
        assert it["dataset"] == "demo" and re.fullmatch(r"demo/[a-z0-9-]+", it["id"])
        assert it["question"].strip() and it["gt_reasoning"].strip()
        assert it["status"] in STATUSES
        assert it["problems"] == []


def test_images_exist_and_open():
    for it in ITEMS:
        paths = list(it["images"]) + [o["image"] for o in it["options"] if "image" in o]
        assert it["images"], it["id"]
        for rel in paths:
            with Image.open(safe_path(rel)) as im:
                im.load()
                assert im.width > 0 and im.height > 0


def test_boxes_inside_their_image():
    sizes = {}
    for it in ITEMS:
        for i, rel in enumerate(it["images"]):
            with Image.open(safe_path(rel)) as im:
                sizes[(it["id"], i)] = im.size
        assert it["clues"], it["id"]
        for clue in it["clues"]:
            assert clue["text"].strip() and clue["reasoning"].strip()
            for b in clue["boxes"]:
                assert isinstance(b["image"], int) and 0 <= b["image"] < len(it["images"]), (it["id"], b)
                w, h = sizes[(it["id"], b["image"])]
                assert 0 <= b["x0"] < b["x1"] <= w and 0 <= b["y0"] < b["y1"] <= h, (it["id"], b, (w, h))


def test_answers_match_answer_type():
    for it in ITEMS:
        t, ans = it["answer_type"], it["answer"]
        assert t in ANSWER_TYPES, it["id"]
        labels = [o["label"] for o in it["options"]]
        if t == "multiple_choice":
            assert len(labels) == len(set(labels)) >= 2 and ans in labels, it["id"]
            assert all(o.get("text") or o.get("image") for o in it["options"])
        else:
            assert not labels, it["id"]
        if t == "yes_no":
            assert ans in {"Yes", "No"}
        elif t == "location":
            assert re.fullmatch(r"\$[^,$]+,[^$]+\$", ans), ans
        elif t == "numeric":
            float(ans)


def test_demo_covers_the_benchmarks():
    """All four DailyClue domains with real subtasks, every answer type, several statuses, an
    MMR-Life-style multi-image item with image options and a VER-Bench-style multi-box item."""
    for it in ITEMS:
        assert it["subtask"] in TAXONOMY[it["domain"]], it["id"]
    assert {it["domain"] for it in ITEMS} == set(TAXONOMY)
    assert {it["answer_type"] for it in ITEMS} == ANSWER_TYPES
    assert len({it["status"] for it in ITEMS}) >= 4
    assert any(len(it["images"]) >= 3 and sum("image" in o for o in it["options"]) == 5 and it["reasoning_type"]
               for it in ITEMS)
    assert any(sum(len(c["boxes"]) > 1 for c in it["clues"]) >= 2 for it in ITEMS)


def test_demo_is_small():
    total = sum(p.stat().st_size for p in DEMO.rglob("*") if p.is_file())
    assert total < 4_000_000


def test_generator_reproduces_the_shipped_demo(tmp_path):
    """The committed files must be what assets/demo_generator/ writes (nobody hand-edits a box)."""
    generate_demo(["--out", str(tmp_path)])
    assert (tmp_path / "demo.jsonl").read_text(encoding="utf-8") == JSONL.read_text(encoding="utf-8")
    shipped = sorted(p.relative_to(DEMO).as_posix() for p in (DEMO / "images").rglob("*") if p.is_file())
    fresh = sorted(p.relative_to(tmp_path).as_posix() for p in (tmp_path / "images").rglob("*") if p.is_file())
    assert shipped == fresh
    for rel in shipped:
        with Image.open(DEMO / rel) as a, Image.open(tmp_path / rel) as b:
            assert a.size == b.size, rel


if __name__ == "__main__":
    raise SystemExit(pytest.main([__file__, "-q"]))
