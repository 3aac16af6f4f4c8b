"""VLMEvalKit TSV: base64 images, index references, multi-image lists, round trips."""
from __future__ import annotations

import base64
import csv
import sys
from pathlib import Path

import pytest

from formats import FormatError, export_path, import_path
from store import Store

HEADER = ["index", "question", "hint", "A", "B", "C", "D", "answer", "category",
          "l2-category", "image", "prediction", "split"]


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def write_tsv(path: Path, header, rows) -> Path:
    csv.field_size_limit(min(sys.maxsize, 2 ** 31 - 1))
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerow(header)
        for row in rows:
            writer.writerow([row.get(column, "") for column in header])
    return path


@pytest.fixture
def bench_tsv(tmp_path, make_png):
    red, green, blue = (make_png(color=c) for c in [(255, 0, 0), (0, 255, 0), (0, 0, 255)])
    rows = [
        {"index": "0", "question": "What colour?\nLook closely.", "hint": "A square.",
         "A": "red", "B": "green", "C": "blue", "answer": "A", "category": "colour",
         "l2-category": "perception", "image": b64(red), "split": "dev"},
        {"index": "1", "question": "Same image, other question", "A": "x", "B": "y",
         "answer": "B", "image": "0", "prediction": "The answer is B"},
        {"index": "2", "question": "Two images: which is green?", "A": "first", "B": "second",
         "answer": "B", "image": repr([b64(red), b64(green)])},
        {"index": "3", "question": "Is it blue?", "answer": "Yes", "image": b64(blue)},
        {"index": "4", "question": "Broken base64", "answer": "x", "image": "@" * 100},
        {"index": "5", "question": "Missing reference", "answer": "x", "image": "99"},
        {"index": "6", "question": "Not a list of strings", "answer": "x",
         "image": "[" + "1, " * 40 + "2]"},
        {"index": "7", "question": "Text file as image", "answer": "x",
         "image": b64(b"hello, I am not a PNG at all, just some text bytes " * 3)},
        {"index": "8", "question": "Gold without option", "A": "a", "B": "b", "answer": "D",
         "image": "3"},
    ]
    return write_tsv(tmp_path / "Bench.tsv", HEADER, rows)


def reasons(report, item_id):
    return [p["reason"] for p in report.problems if p["item_id"] == item_id]


def test_import_rows(store, bench_tsv):
    report = import_path(store, "vlmevalkit", bench_tsv)
    assert report.items_read == 9 and report.imported == 9
    first = store.get_item("Bench/0")
    assert first["question"] == "What colour?\nLook closely."
    assert [(o["label"], o["text"]) for o in first["options"]] == [
        ("A", "red"), ("B", "green"), ("C", "blue")]
    assert first["answer_type"] == "multiple_choice"
    assert (first["subtask"], first["domain"]) == ("colour", "perception")
    assert first["metadata"] == {"index": "0", "hint": "A square.", "split": "dev"}
    second = store.get_item("Bench/1")
    assert second["images"] == first["images"]                 # "0" = row 0's image
    assert second["metadata"]["prediction"] == "The answer is B"
    assert len(store.get_item("Bench/2")["images"]) == 2
    assert store.get_item("Bench/3")["answer_type"] == "yes_no"
    assert store.get_item("Bench/8")["images"] == store.get_item("Bench/3")["images"]
    assert report.images == 3


def test_import_problems(store, bench_tsv):
    report = import_path(store, "vlmevalkit", bench_tsv)
    assert any("not valid base64" in r for r in reasons(report, "Bench/4"))
    assert any("names another row's index" in r for r in reasons(report, "Bench/5"))
    assert any("not a Python list" in r for r in reasons(report, "Bench/6"))
    assert any(r.startswith("unreadable image: ") for r in reasons(report, "Bench/7"))
    assert any(r.startswith("gold answer has no option") for r in reasons(report, "Bench/8"))
    assert report.flagged == 5


def test_not_a_vlmevalkit_tsv_is_fatal(store, tmp_path):
    path = tmp_path / "x.tsv"
    path.write_text("foo\tbar\n1\t2\n")
    with pytest.raises(FormatError, match="missing column"):
        import_path(store, "vlmevalkit", path)
    path.write_bytes(b"\xff\xfe\x00binary")
    with pytest.raises(FormatError, match="UTF-8"):
        import_path(store, "vlmevalkit", path)


def comparable(item: dict) -> dict:
    return {k: v for k, v in item.items() if k not in ("version", "updated_at", "updated_by")}


def test_import_export_import_is_equivalent(store, bench_tsv, tmp_path):
    import_path(store, "vlmevalkit", bench_tsv)
    out = tmp_path / "export" / "again.tsv"
    summary = export_path(store, "vlmevalkit", out)
    assert summary["items"] == 9
    fresh = Store.open(tmp_path / "fresh.db")
    try:
        report = import_path(fresh, "vlmevalkit", out)
        assert report.imported == 9
        for item_id in store.item_ids():
            before, after = comparable(store.get_item(item_id)), comparable(fresh.get_item(item_id))
            if before["flagged"] and before["images"] == []:
                # problems about the source's broken images cannot recur: those are gone
                before.pop("problems"), after.pop("problems")
            assert before == after, item_id
    finally:
        fresh.close()


def test_export_layout(store, make_item, add_png, tmp_path):
    item = make_item("mmr/ARI_1", n_images=2, n_clues=0)
    item["options"] = [{"label": label, "text": "", "image": add_png(8, 8)} for label in "ABC"]
    item["answer"] = "C"
    store.create_item(item, "t")
    store.create_item(make_item("mmr/HAA_1", n_images=1, n_clues=0), "t")
    out = tmp_path / "mmr.tsv"
    export_path(store, "vlmevalkit", out)
    csv.field_size_limit(min(sys.maxsize, 2 ** 31 - 1))
    rows = list(csv.DictReader(open(out, encoding="utf-8", newline=""), delimiter="\t"))
    assert [r["item_id"] for r in rows] == ["mmr/ARI_1", "mmr/HAA_1"]
    assert rows[0]["index"] == "0" and rows[1]["index"] == "1"
    assert rows[0]["image"].startswith("['")            # 2 context + 3 option images
    assert [rows[0][k] for k in "ABC"] == ["<image 3>", "<image 4>", "<image 5>"]
    assert rows[1]["A"] == "a cat" and not rows[1]["image"].startswith("[")
    assert rows[0]["reasoning_type"] == "abductive"
    fresh = Store.open(tmp_path / "fresh.db")
    try:
        import_path(fresh, "vlmevalkit", out)
        again = fresh.get_item("mmr/ARI_1")
        assert again["images"] == item["images"]
        assert [o["image"] for o in again["options"]] == [o["image"] for o in item["options"]]
    finally:
        fresh.close()


def test_image_path_column_when_image_is_empty(store, tmp_path, make_png):
    make_png(tmp_path / "imgs", name="a.png")
    path = write_tsv(tmp_path / "p.tsv", ["index", "question", "answer", "image", "image_path"], [
        {"index": "1", "question": "q", "answer": "a", "image_path": "a.png"},
        {"index": "2", "question": "q", "answer": "a", "image_path": "../../etc/passwd"}])
    report = import_path(store, "vlmevalkit", path, images_dir=tmp_path / "imgs")
    assert len(store.get_item("p/1")["images"]) == 1
    assert store.get_item("p/1")["metadata"]["image_path"] == "a.png"
    assert any("leaves the image folder" in r for r in reasons(report, "p/2"))
