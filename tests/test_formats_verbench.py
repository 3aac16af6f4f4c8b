"""VER-Bench folder import: one item per question, clue numbering across questions, box files."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from formats import FormatError, import_path
from formats.verbench import read_boxes

FIXTURES = Path(__file__).parent / "fixtures" / "formats" / "verbench"


@pytest.fixture
def verbench_dir(tmp_path, make_png):
    root = tmp_path / "VER-Bench"
    shutil.copytree(FIXTURES, root)
    for n, name in enumerate(["sa_1.jpg", "sa_2.png", "sa_3.jpg", "sa_4.jpg"]):
        make_png(root / "Image", name=name, w=200, h=100, color=(n * 40, 10, 10),
                 image_format="JPEG" if name.endswith(".jpg") else "PNG")
    return root


def reasons(report, item_id):
    return [p["reason"] for p in report.problems if p["item_id"] == item_id]


def test_one_question_with_several_boxes_per_clue(store, verbench_dir):
    report = import_path(store, "verbench", verbench_dir)
    item = store.get_item("verbench/sa_1")
    assert item["question"] == "Which city is this street in?"
    assert item["answer"] == "Lisbon" and item["answer_type"] == "open"
    assert [c["text"] for c in item["clues"]] == ["A yellow tram numbered 28.",
                                                  "Portuguese text on the shop sign."]
    assert item["clues"][0]["reasoning"] == "Tram 28 runs in Lisbon."
    assert len(item["clues"][0]["boxes"]) == 2 and len(item["clues"][1]["boxes"]) == 1
    box = item["clues"][1]["boxes"][0]
    assert (box["x0"], box["y0"], box["x1"], box["y1"]) == (100, 20, 180, 90)
    assert box["image"] == item["images"][0]
    assert reasons(report, "verbench/sa_1") == []


def test_two_questions_continue_clue_numbering(store, verbench_dir):
    report = import_path(store, "verbench", verbench_dir)
    first, second = store.get_item("verbench/sa_2_q1"), store.get_item("verbench/sa_2_q2")
    assert first["answer"] == "Evening" and second["answer"] == "No"
    assert [len(c["boxes"]) for c in first["clues"]] == [1]
    assert [len(c["boxes"]) for c in second["clues"]] == [2, 1]
    assert first["images"] == second["images"]
    assert second["metadata"]["question_index"] == 2
    # box id 7 matches no clue: reported, kept in metadata
    assert any(r.startswith("box without clue: ids 7") for r in reasons(report, "verbench/sa_2_q1"))
    assert first["metadata"]["unmatched_boxes"] == {"7": [[1, 1, 2, 2]]}


def test_unsupported_box_file_is_refused_clearly(store, verbench_dir):
    report = import_path(store, "verbench", verbench_dir)
    item = store.get_item("verbench/sa_3")
    assert item["clues"][0]["boxes"] == []
    assert item["metadata"]["raw_boxes"] == [[10, 10, 20, 20]]
    assert any(r.startswith("unsupported box file: Box_annotation/sa_3_bbox.json")
               and '{"id": N' in r for r in reasons(report, "verbench/sa_3"))


def test_broken_annotation_is_a_flagged_item(store, verbench_dir):
    report = import_path(store, "verbench", verbench_dir)
    item = store.get_item("verbench/sa_4")
    assert item["flagged"]
    assert item["metadata"]["raw_annotation"].startswith('{"question": "Broken file"')
    assert any(r.startswith("unreadable annotation: Annotation/sa_4.json")
               for r in reasons(report, "verbench/sa_4"))
    assert report.imported == 5


def test_missing_image_and_box_file(store, verbench_dir):
    (verbench_dir / "Image" / "sa_1.jpg").unlink()
    (verbench_dir / "Box_annotation" / "sa_2_bbox.json").unlink()
    report = import_path(store, "verbench", verbench_dir)
    assert "image file not found: image 1 (Image/ holds no image named like the annotation " \
        "file)" in reasons(report, "verbench/sa_1")
    item = store.get_item("verbench/sa_1")
    assert item["images"] == [] and len(item["metadata"]["unplaced_boxes"]) == 3
    assert "missing box file: Box_annotation/sa_2_bbox.json" in reasons(report, "verbench/sa_2_q1")


def test_box_outside_image_is_flagged(store, verbench_dir):
    (verbench_dir / "Box_annotation" / "sa_3_bbox.json").write_text(
        json.dumps([{"id": 1, "bbox": [150, 50, 250, 90]}]))
    report = import_path(store, "verbench", verbench_dir)
    assert any("outside the 200x100 image" in r for r in reasons(report, "verbench/sa_3"))
    assert store.get_item("verbench/sa_3")["metadata"]["invalid_boxes"][0]["x1"] == 250


@pytest.mark.parametrize("data, expected", [
    ([{"id": 1, "bbox": [0, 0, 1, 1]}, {"id": "1", "bbox": [1, 1, 2, 2]}],
     {1: [[0, 0, 1, 1], [1, 1, 2, 2]]}),
    ({"1": [[0, 0, 1, 1]], "clue2": [0, 0, 3, 3]}, {1: [[0, 0, 1, 1]], 2: [[0, 0, 3, 3]]}),
])
def test_read_boxes_accepts_both_shapes(tmp_path, data, expected):
    path = tmp_path / "x_bbox.json"
    path.write_text(json.dumps(data))
    boxes, problems, raw = read_boxes(path)
    assert boxes == expected and problems == [] and raw is None


@pytest.mark.parametrize("data", [[[0, 0, 1, 1]], {"1": "box"}, {"one": [[0, 0, 1, 1]]}, 42])
def test_read_boxes_refuses_other_shapes(tmp_path, data):
    path = tmp_path / "x_bbox.json"
    path.write_text(json.dumps(data))
    boxes, problems, raw = read_boxes(path)
    assert boxes == {} and raw == data and problems


def test_not_a_verbench_folder_is_fatal(store, tmp_path):
    with pytest.raises(FormatError, match="Annotation"):
        import_path(store, "verbench", tmp_path)
    with pytest.raises(FormatError, match="not found"):
        import_path(store, "verbench", tmp_path / "nope")
    (tmp_path / "file.json").write_text("{}")
    with pytest.raises(FormatError, match="not a folder"):
        import_path(store, "verbench", tmp_path / "file.json")


def test_annotation_and_box_files_linking_outside_are_not_read(store, verbench_dir, tmp_path):
    """A link inside the folder must not bring another file's content into metadata."""
    secret = tmp_path / "secret.json"
    secret.write_text('{"question": "sk-planted-secret", "visual_clues": []}')
    (verbench_dir / "Annotation" / "sa_4.json").unlink()
    (verbench_dir / "Annotation" / "sa_4.json").symlink_to(secret)
    (verbench_dir / "Box_annotation" / "sa_1_bbox.json").unlink()
    (verbench_dir / "Box_annotation" / "sa_1_bbox.json").symlink_to(secret)
    report = import_path(store, "verbench", verbench_dir)
    assert any(r.startswith("unsafe annotation: Annotation/sa_4.json links outside")
               for r in reasons(report, "verbench/sa_4"))
    assert any(r.startswith("unsafe box file: Box_annotation/sa_1_bbox.json")
               for r in reasons(report, "verbench/sa_1"))
    for item_id in ("verbench/sa_4", "verbench/sa_1"):
        assert "sk-planted-secret" not in json.dumps(store.get_item(item_id))
