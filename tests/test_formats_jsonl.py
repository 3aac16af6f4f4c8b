"""ClueLab JSONL: lossless export/import, byte-identical round trip, hostile input."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from formats import FormatError, export_path, import_path
from store import Store


@pytest.fixture
def filled(store, make_item, add_png):
    """Two datasets; items with several images, option images, clues with boxes."""
    item = make_item("demo/Q_2", n_images=2, n_clues=2)
    item["clues"][1]["boxes"].append({"image": item["images"][1], "x0": 1, "y0": 2,
                                      "x1": 50, "y1": 60})
    item["options"][1]["image"] = add_png(20, 20)
    item["metadata"] = {"source": "test", "nested": {"a": [1, 2.5, None]}, "ü": "ünï"}
    item["problems"] = ["a problem from an earlier import"]
    store.create_item(item, "alice")
    store.create_item(make_item("demo/Q_10", status="verified", aliases=["x", "y"]), "alice")
    store.create_item(make_item("other/A_1", n_images=0, n_clues=0, answer_type="open",
                                options=[], answer="free text"), "bob")
    return store


def test_export_writes_canonical_lines_and_images(filled, tmp_path):
    out = tmp_path / "out" / "export.jsonl"
    summary = export_path(filled, "jsonl", out)
    assert summary["items"] == 3
    lines = out.read_text(encoding="utf-8").splitlines()
    ids = [json.loads(line)["id"] for line in lines]
    assert ids == ["demo/Q_2", "demo/Q_10", "other/A_1"]        # natural order
    first = json.loads(lines[0])
    assert list(first) == sorted(first)
    assert first["images"][0].startswith("export_images/")
    assert (out.parent / first["images"][0]).is_file()
    assert first["clues"][1]["boxes"][1]["image"] == 1          # index into images
    assert first["options"][1]["image"].startswith("export_images/")
    assert "version" not in first and "flagged" not in first
    assert '"ü": "ünï"' in lines[0]                               # ensure_ascii=False


def test_round_trip_is_byte_identical(filled, tmp_path):
    first = tmp_path / "a" / "export.jsonl"
    export_path(filled, "jsonl", first)
    fresh = Store.open(tmp_path / "fresh" / "fresh.db")
    try:
        report = import_path(fresh, "jsonl", first)         # images found without --images
        assert report.imported == 3 and report.skipped == 0
        assert report.flagged == 1                          # the item that already had a problem
        second = tmp_path / "b" / "export.jsonl"
        export_path(fresh, "jsonl", second)
    finally:
        fresh.close()
    assert second.read_bytes() == first.read_bytes()
    names_a = sorted(p.name for p in (first.parent / "export_images").iterdir())
    names_b = sorted(p.name for p in (second.parent / "export_images").iterdir())
    assert names_a == names_b and len(names_a) == 4


def test_import_preserves_every_field(filled, tmp_path):
    out = tmp_path / "export.jsonl"
    export_path(filled, "jsonl", out)
    fresh = Store.open(tmp_path / "fresh.db")
    try:
        import_path(fresh, "jsonl", out)
        for item_id in ("demo/Q_2", "demo/Q_10", "other/A_1"):
            a, b = filled.get_item(item_id), fresh.get_item(item_id)
            for key in ("version", "updated_at", "updated_by"):
                a.pop(key), b.pop(key)
            assert a == b
    finally:
        fresh.close()


def test_export_one_dataset(filled, tmp_path):
    out = tmp_path / "demo.jsonl"
    assert export_path(filled, "jsonl", out, dataset="other")["items"] == 1


def test_dataset_override_and_existing_ids_are_skipped(filled, tmp_path):
    out = tmp_path / "export.jsonl"
    export_path(filled, "jsonl", out)
    report = import_path(filled, "jsonl", out)
    assert report.skipped == 3 and report.imported == 0
    assert all("already in the store" in p["reason"] for p in report.problems)
    report = import_path(filled, "jsonl", out, dataset="copy")
    assert report.skipped == 3      # ids are kept: --dataset changes the dataset, not the id


def write_lines(path: Path, lines) -> Path:
    path.write_text("\n".join(line if isinstance(line, str) else json.dumps(line)
                              for line in lines) + "\n", encoding="utf-8")
    return path


def test_hostile_paths_are_refused_per_item(store, tmp_path, make_png):
    make_png(tmp_path / "pics", name="ok.png")
    path = write_lines(tmp_path / "in.jsonl", [
        {"id": "d/1", "dataset": "d", "question": "q", "answer_type": "open",
         "images": ["pics/ok.png", "../../etc/passwd", "/etc/passwd"]},
    ])
    report = import_path(store, "jsonl", path)
    item = store.get_item("d/1")
    assert len(item["images"]) == 1
    reasons = [p["reason"] for p in report.problems]
    assert sum("leaves the image folder" in r for r in reasons) == 2


def test_all_paths_outside_is_fatal(store, tmp_path):
    path = write_lines(tmp_path / "in.jsonl", [
        {"id": "d/1", "dataset": "d", "question": "q", "answer_type": "open",
         "images": ["../../etc/passwd"]},
        {"id": "d/2", "dataset": "d", "question": "q", "answer_type": "open",
         "images": ["/etc/hostname"]}])
    with pytest.raises(FormatError, match="leaves the image folder"):
        import_path(store, "jsonl", path)
    assert store.count_items() == 0


def test_malformed_lines_become_flagged_items(store, tmp_path):
    path = write_lines(tmp_path / "in.jsonl", [
        {"id": "d/1", "dataset": "d", "question": "fine", "answer_type": "open"},
        '{"id": "d/2", "question": broken',
        {"dataset": "d", "question": "no id", "answer_type": "weird", "status": "odd",
         "clues": [{"text": "c", "boxes": [{"image": 3, "x0": 0, "y0": 0, "x1": 1, "y1": 1}]}],
         "extra_field": 42},
    ])
    report = import_path(store, "jsonl", path)
    assert report.imported == 3
    broken = store.get_item("in/line-2")
    assert broken["metadata"]["raw_line"] == '{"id": "d/2", "question": broken'
    # the decoder's message with its position, whole; none of the line's content
    assert broken["problems"][0] == ("malformed line: invalid JSON on line 2: Expecting value "
                                     "at column 27")
    third = store.get_item("d/line-3")
    assert third["answer_type"] == "open" and third["metadata"]["source_answer_type"] == "weird"
    assert third["status"] == "draft" and third["metadata"]["source_status"] == "odd"
    assert third["metadata"]["extra_field"] == 42
    assert third["metadata"]["invalid_boxes"][0]["box"]["image"] == 3
    assert third["clues"][0]["boxes"] == []
    assert not store.get_item("d/1")["flagged"]


@pytest.mark.parametrize("content", ["[1, 2, 3]\n", "not json at all\n", ""])
def test_not_jsonl_is_fatal(store, tmp_path, content):
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    with pytest.raises(FormatError, match="bad.jsonl"):
        import_path(store, "jsonl", path)


def test_box_outside_image_is_kept_in_metadata(store, tmp_path, make_png):
    make_png(tmp_path, name="p.png", w=16, h=12)
    path = write_lines(tmp_path / "in.jsonl", [
        {"id": "d/1", "dataset": "d", "question": "q", "answer_type": "open",
         "images": ["p.png"],
         "clues": [{"text": "c", "reasoning": "", "boxes": [
             {"image": 0, "x0": 1, "y0": 1, "x1": 5, "y1": 5},
             {"image": 0, "x0": 1, "y0": 1, "x1": 500, "y1": 5}]}]}])
    report = import_path(store, "jsonl", path)
    item = store.get_item("d/1")
    assert len(item["clues"][0]["boxes"]) == 1
    assert item["metadata"]["invalid_boxes"][0]["x1"] == 500
    assert any("outside the 16x12 image" in p["reason"] for p in report.problems)


def test_a_json_error_keeps_its_position_without_the_content(store, tmp_path):
    """"invalid JSON on line 2: Unterminated string starting at" stopped mid-sentence."""
    path = write_lines(tmp_path / "cut.jsonl", [
        {"id": "d/1", "question": "fine", "answer_type": "open"},
        '{"id": "d/2", "question": "secret words'])
    import_path(store, "jsonl", path)
    problems = store.get_item("cut/line-2")["problems"]
    assert problems[0] == ("malformed line: invalid JSON on line 2: Unterminated string "
                           "starting at column 27")
    from formats.sources import parse_json_text
    with pytest.raises(FormatError, match=r"invalid JSON: Unterminated string starting at "
                                          r"line 2 column 3$") as caught:
        parse_json_text('[\n  "secret words', tmp_path / "cut.json")
    assert "secret" not in str(caught.value)
