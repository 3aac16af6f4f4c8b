"""Rules shared by every importer: fatal errors leave the database unchanged, reports,
progress, existing ids, safe paths."""
from __future__ import annotations

import json
import sqlite3

import pytest

from formats import IMPORT_FORMATS, FormatError, ImportReport, import_path
from formats.safepath import BasenameIndex, UnsafePathError, resolve_inside


def dump(store) -> list[str]:
    """Every row of the database, read through a separate connection."""
    with sqlite3.connect(store.path) as conn:
        return list(conn.iterdump())


def jsonl_item(item_id, **fields):
    line = {"id": item_id, "dataset": item_id.split("/")[0], "question": "q?",
            "answer_type": "open", "answer": "a"}
    line.update(fields)
    return json.dumps(line)


@pytest.fixture
def seeded(store, tmp_path, make_png):
    make_png(tmp_path, name="pic.png")
    path = tmp_path / "seed.jsonl"
    path.write_text(jsonl_item("seed/1", images=["pic.png"]) + "\n")
    import_path(store, "jsonl", path)
    return store


@pytest.mark.parametrize("fmt, name, content", [
    ("jsonl", "broken.jsonl", "{not json\n[1]\n"),
    ("mmr-life", "broken.json", '[{"id": "HAA_1", '),
    ("mmr-life", "wrong.json", '{"message": "a seekworld line"}'),
    ("dailyclue", "wrong.json", "id,question\n1,q\n"),
    ("vlmevalkit", "wrong.tsv", "a\tb\n"),
    ("seekworld", "empty.jsonl", ""),
])
def test_fatal_errors_leave_database_unchanged(seeded, tmp_path, fmt, name, content):
    before = dump(seeded)
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(FormatError) as caught:
        import_path(seeded, fmt, path)
    assert name in str(caught.value)
    assert dump(seeded) == before


def test_missing_file_and_unknown_format(seeded, tmp_path):
    before = dump(seeded)
    with pytest.raises(FormatError, match="file not found"):
        import_path(seeded, "jsonl", tmp_path / "nope.jsonl")
    with pytest.raises(FormatError, match="unknown import format"):
        import_path(seeded, "csv", tmp_path / "seed.jsonl")
    with pytest.raises(FormatError, match="image folder not found"):
        import_path(seeded, "jsonl", tmp_path / "seed.jsonl", images_dir=tmp_path / "none")
    assert dump(seeded) == before


def test_failure_mid_import_rolls_everything_back(seeded, tmp_path, make_png):
    make_png(tmp_path / "new", name="other.png", color=(1, 2, 3))
    path = tmp_path / "many.jsonl"
    path.write_text("".join(jsonl_item(f"new/{n}", images=["new/other.png"]) + "\n"
                            for n in range(5)))
    before = dump(seeded)

    def cancel(done, total):
        if done == 3:
            raise KeyboardInterrupt("user cancelled")

    with pytest.raises(KeyboardInterrupt):
        import_path(seeded, "jsonl", path, progress=cancel)
    assert dump(seeded) == before
    assert seeded.count_items() == 1


def test_progress_and_report(store, tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_text(jsonl_item("d/1") + "\n" + jsonl_item("d/2", images=["gone.png"]) + "\n")
    calls = []
    report = import_path(store, "jsonl", path, author="carol",
                         progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 2), (2, 2)]
    assert isinstance(report, ImportReport)
    data = report.to_dict()
    assert set(data) == {"format", "path", "dataset", "items_read", "imported", "flagged",
                         "skipped", "skipped_by", "replaced", "back_to_review", "unchanged",
                         "images",
                         "problems", "seconds", "datasets", "new_datasets"}
    assert (data["items_read"], data["imported"], data["flagged"], data["skipped"]) == (2, 2, 1, 0)
    assert data["problems"] == [{"item_id": "d/2", "reason": "image file not found: image 1 (a file at that path inside the image folder)"}]
    text = report.render_text()
    assert "items read: 2" in text and "d/2: image file not found: image 1 (a file at that path inside the image folder)" in text and "gone.png" not in text
    assert store.get_item("d/1")["updated_by"] == "carol"
    assert store.get_item("d/2")["problems"] == ["image file not found: image 1 (a file at that path inside the image folder)"]


def test_existing_ids_are_skipped_and_reported(seeded, tmp_path):
    path = tmp_path / "again.jsonl"
    path.write_text(jsonl_item("seed/1", question="changed?") + "\n" + jsonl_item("seed/2") + "\n")
    report = import_path(seeded, "jsonl", path)
    assert (report.imported, report.skipped) == (1, 1)
    assert report.problems[0]["item_id"] == "seed/1"
    assert report.problems[0]["reason"].startswith("skipped:")
    assert seeded.get_item("seed/1")["question"] == "q?"
    assert "skipped:    1 (id already in the store: 1)" in report.render_text()


def test_ids_with_hidden_characters_are_skipped_shown_escaped_with_their_reason(seeded,
                                                                               tmp_path):
    """A dailyclue file with ids `rtl<U+202E>evil` and `zero<U+200B>width`: the report
    printed the override raw (the rest of its line read backwards), showed the other as
    'zerowidth' with no reason, and counted both 'skipped: 2 (id already in the store)'."""
    import json

    path = tmp_path / "dc.json"
    path.write_text(json.dumps([{"id": i, "question": "q?", "answer": "No"} for i in
                                ("rtl\u202eevil", "zero\u200bwidth", "fine")]))
    report = import_path(seeded, "dailyclue", path)
    assert (report.items_read, report.imported, report.skipped) == (3, 1, 2)
    assert report.skipped_by == {"id has a control or invisible character": 2}
    assert report.to_dict()["skipped_by"] == report.skipped_by
    text = report.render_text()
    assert "skipped:    2 (id has a control or invisible character: 2)" in text
    assert ("dailyclue/rtl\\u202eevil: not imported: id has a control or invisible character"
            in text)
    assert ("dailyclue/zero\\u200bwidth: not imported: id has a control or invisible "
            "character") in text
    assert "\u202e" not in text and "\u200b" not in text
    assert seeded.item_ids(dataset="dailyclue") == ["dailyclue/fine"]


def test_duplicate_ids_in_one_file_are_kept_and_flagged(store, tmp_path):
    path = tmp_path / "dup.jsonl"
    path.write_text(jsonl_item("d/1") + "\n" + jsonl_item("d/1", question="second") + "\n")
    report = import_path(store, "jsonl", path)
    assert report.imported == 2
    assert store.get_item("d/1~2")["question"] == "second"
    assert store.get_item("d/1~2")["flagged"]


def test_corrupt_image_and_text_file_named_png(store, tmp_path, make_png):
    good = make_png(tmp_path, name="good.png")
    (tmp_path / "text.png").write_text("I am a text file")
    (tmp_path / "cut.png").write_bytes(good.read_bytes()[:40])
    path = tmp_path / "in.jsonl"
    path.write_text(jsonl_item("d/1", images=["good.png", "text.png", "cut.png"]) + "\n")
    report = import_path(store, "jsonl", path)
    item = store.get_item("d/1")
    assert len(item["images"]) == 1 and item["flagged"]
    reasons = [p["reason"] for p in report.problems]
    assert any(r.startswith("unreadable image: image 2 (") for r in reasons)    # text.png
    assert any(r.startswith("unreadable image: image 3 (") for r in reasons)    # cut.png
    assert report.images == 1


def test_import_formats_list():
    assert IMPORT_FORMATS == ("jsonl", "mmr-life", "verbench", "seekworld", "dailyclue",
                              "vlmevalkit")


# --------------------------------------------------------------------- safepath
@pytest.mark.parametrize("name", ["../../etc/passwd", "/etc/passwd", "a/../../x", "..",
                                  "..\\..\\windows", "a\x00b", ""])
def test_resolve_inside_refuses(tmp_path, name):
    with pytest.raises(UnsafePathError):
        resolve_inside(tmp_path / "base", name)


def test_resolve_inside_accepts(tmp_path):
    base = tmp_path / "base"
    (base / "a").mkdir(parents=True)
    assert resolve_inside(base, "a/../b.png") == (base / "b.png").resolve()
    assert resolve_inside(base, str(base / "a" / "c.png")) == (base / "a" / "c.png").resolve()
    assert resolve_inside(base, "a\\c.png") == (base / "a" / "c.png").resolve()


def test_symlink_out_of_the_folder_is_refused(tmp_path):
    base = tmp_path / "base"
    base.mkdir()
    (tmp_path / "secret.png").write_text("x")
    (base / "link.png").symlink_to(tmp_path / "secret.png")
    with pytest.raises(UnsafePathError):
        resolve_inside(base, "link.png")
    assert BasenameIndex(base).lookup("/anywhere/link.png").error


def test_basename_index(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "x.jpg").write_text("1")
    (tmp_path / "b" / "x.jpg").write_text("2")
    (tmp_path / "a" / "y.jpg").write_text("3")
    index = BasenameIndex(tmp_path)
    assert index.lookup("/data/phd/y.jpg").path == (tmp_path / "a" / "y.jpg").resolve()
    assert index.lookup("C:\\data\\y.jpg").path is not None
    assert index.lookup("/data/x.jpg").error == "ambiguous image name"
    assert "found 2" in index.lookup("/data/x.jpg").expected
    assert index.lookup("/data/..").error.startswith("image file not found")


def test_image_whose_pixels_do_not_decode_is_refused_at_import(store, tmp_path, make_png):
    """Valid PNG structure, corrupt pixel data: the item is imported and flagged without it
    (the image named by its place, neither its path nor its content quoted), and no row or file of it is stored."""
    from tests.conftest import png_with_bad_pixels
    make_png(tmp_path, name="good.png")
    (tmp_path / "bad_pixels.png").write_bytes(png_with_bad_pixels(how="flip"))
    path = tmp_path / "in.jsonl"
    path.write_text(jsonl_item("d/1", images=["good.png", "bad_pixels.png"]) + "\n")
    report = import_path(store, "jsonl", path)
    item = store.get_item("d/1")
    assert len(item["images"]) == 1 and item["flagged"] and report.images == 1
    assert [p["reason"] for p in report.problems] == [
        "unreadable image: image 2 (the pixel data does not decode (zlib); "
        "the file is corrupt or truncated)"]
    assert store.db.execute("SELECT count(*) FROM images").fetchone()[0] == 1
