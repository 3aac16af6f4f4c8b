"""The Import page on ZIPs with several data files and with replace, on a real store.

A ZIP with several JSON files used to import the first one found and drop the others
without a word; the page had no `--replace`. Now every file of one format is imported (a
report each), a ZIP that mixes formats is refused naming the files, and replace is asked
first with the counts of what it replaces, then runs the CLI's own `import --replace`."""
from __future__ import annotations

import json
import re
import shutil
import zipfile
from pathlib import Path

import pytest

from store import Store
from tests.test_formats_mmr_life import mmr_dir  # noqa: F401  (fixture)
from ui.import_roots import ImportRoots
from ui.io_handlers import IoError, IoHandlers


def jsonl_file(path: Path, ids: list[str], question: str = "Which one?") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps({"id": i, "question": question, "answer_type": "open",
                                        "answer": "x"}) + "\n" for i in ids))
    return path


def zipped(folder: Path, into: Path) -> Path:
    return Path(shutil.make_archive(str(into / folder.name), "zip", folder))


@pytest.fixture
def store(tmp_path):
    store = Store.open(tmp_path / "page.db")
    yield store
    store.close()


def upload(store, fmt, path, **kwargs):
    return IoHandlers(store, ImportRoots()).run_import(fmt, str(path), "", "", "", **kwargs,
                                                       author="tester")


def test_a_zip_with_several_files_of_the_format_imports_each(store, tmp_path):
    src = tmp_path / "two"
    jsonl_file(src / "part1.jsonl", ["z/a1", "z/a2"])
    jsonl_file(src / "more" / "part2.jsonl", ["z/b1"])
    result = upload(store, "jsonl", zipped(src, tmp_path))
    assert sorted(store.item_ids()) == ["z/a1", "z/a2", "z/b1"]
    assert result["imported"] == 3 and len(result["files"]) == 2
    assert [f["path"] for f in result["files"]] == ["two.zip/part1.jsonl",
                                                    "two.zip/more/part2.jsonl"]
    assert "two.zip/part1.jsonl" in result["text"] and "two.zip/more/part2.jsonl" in \
        result["text"]


def test_a_zip_mixing_formats_is_refused_naming_the_files(store, tmp_path, mmr_dir):  # noqa: F811
    (mmr_dir / "notes.json").write_text(json.dumps({"comment": "not MMR-Life"}))
    archive = zipped(mmr_dir, tmp_path)
    with pytest.raises(IoError) as err:
        upload(store, "mmr-life", archive)
    message = str(err.value)
    assert "mmr.zip holds 2 data files (mmr.zip/MMR_Life.json, mmr.zip/notes.json)" in message
    assert "1 of them cannot be imported as mmr-life: mmr.zip/notes.json: not MMR-Life" in \
        message and "not MMR-Life\"" not in message
    assert "leave it out of the ZIP" in message and "nothing was imported" in message
    assert store.item_ids() == []


def test_a_broken_file_in_a_zip_is_called_broken_json_not_another_format(store, tmp_path):
    """A ZIP with a good dailyclue file and a broken one said the broken file was "not
    dailyclue"; it is dailyclue with broken JSON, and the message says where, quoting
    none of it."""
    src = tmp_path / "mix"
    src.mkdir()
    (src / "good.json").write_text(json.dumps([{"id": "a", "question": "q?", "answer": "Yes"}]))
    (src / "broken.json").write_text('[{"id": "a", "question": "secret-ish text"')
    with pytest.raises(IoError) as err:
        upload(store, "dailyclue", zipped(src, tmp_path))
    message = str(err.value)
    assert ("1 of them cannot be imported as dailyclue: mix.zip/broken.json: invalid JSON: "
            "Expecting ',' delimiter at line 1 column 43") in message
    assert "not dailyclue" not in message and "secret-ish" not in message
    assert message.endswith("nothing was imported") and store.item_ids() == []


def test_a_zip_without_the_formats_layout_names_the_archive(store, tmp_path):
    src = tmp_path / "flat"
    src.mkdir()
    (src / "dc.json").write_text("[]")
    with pytest.raises(IoError) as err:
        upload(store, "verbench", zipped(src, tmp_path))
    assert str(err.value) == ("flat.zip: the archive has no Annotation/ folder (VER-Bench "
                              "layout) — nothing was imported")


def test_replace_asks_first_with_the_counts_then_replaces_what_differs(store, tmp_path):
    first = jsonl_file(tmp_path / "v1" / "items.jsonl", ["z/a1", "z/a2"])
    upload(store, "jsonl", first)
    second = jsonl_file(tmp_path / "v2" / "items.jsonl", ["z/a1", "z/a2", "z/a3"],
                        question="Which one, fixed?")
    asked = upload(store, "jsonl", second, replace=True)
    assert asked == {"confirm": "Import 3 items from items.jsonl with replace: 2 are already "
                                "in the store and each that differs will be replaced (a new "
                                "revision; history kept), 1 new. Replace them?"}
    assert store.get_item("z/a1")["question"] == "Which one?"       # nothing done yet
    assert upload(store, "jsonl", second, replace=True, confirmed="Replace?") == asked
    result = upload(store, "jsonl", second, replace=True, confirmed=asked["confirm"])
    assert (result["replaced"], result["imported"]) == (2, 1)
    assert store.get_item("z/a1")["question"] == "Which one, fixed?"
    assert sorted(h["version"] for h in store.history("z/a1")) == [1, 2]   # history kept
    # without replace, the ids in the store are skipped, as by the CLI
    third = jsonl_file(tmp_path / "v3" / "items.jsonl", ["z/a1"], question="Again?")
    assert upload(store, "jsonl", third)["skipped"] == 1
    assert store.get_item("z/a1")["question"] == "Which one, fixed?"


def test_a_zip_bomb_is_refused_before_anything_is_unpacked(tmp_path):
    """One item and 70 MB of spaces in a ~70 KB archive: refused by its ratio, as an
    oversized data file would be, and the work folder stays empty (no memory spent)."""
    from ui import import_sources

    bomb = tmp_path / "bomb.zip"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as zf:
        line = json.dumps({"id": "b/1", "question": "q", "answer_type": "open", "answer": "x"})
        zf.writestr("data.jsonl", line + "\n" + " " * (70 * 1024**2))
    assert bomb.stat().st_size < 1024**2
    work = tmp_path / "work"
    work.mkdir()
    with pytest.raises(IoError, match="possible ZIP bomb") as refused:
        import_sources.upload_targets(bomb, work, "jsonl")
    assert "member 1 of the archive" in str(refused.value)
    assert "data.jsonl" not in str(refused.value)       # the archive's own text: not echoed
    assert "nothing was imported" in str(refused.value)
    assert re.search(r"unpacks to 70 MB from \d+ KB", str(refused.value))   # not "from 0 MB"
    assert list(work.iterdir()) == []
    big = zipfile.ZipInfo("huge.jsonl")
    big.file_size, big.compress_size = 600 * 1024**2, 300 * 1024**2     # 2:1, but 600 MB
    with pytest.raises(IoError, match="member 4 of the archive is a data file of 600 MB") \
            as refused:
        import_sources.check_member("big.zip", big, 4)
    assert "huge" not in str(refused.value)
    photo = zipfile.ZipInfo("images/pano.jpg")       # images: any size, no bomb ratio
    photo.file_size, photo.compress_size = 900 * 1024**2, 880 * 1024**2
    import_sources.check_member("big.zip", photo)


def test_a_member_with_an_unsafe_path_is_named_by_its_place_not_its_path(tmp_path):
    """The member's path is the archive's content (here a lure addressed to the reader):
    the refusal says which member and what is wrong, and never echoes the path."""
    from ui import import_sources

    hostile = tmp_path / "evil.zip"
    with zipfile.ZipFile(hostile, "w") as zf:
        zf.writestr("ok.jsonl", "{}")
        zf.writestr("../../PASSWORD-RESET-visit-evil.example/escape.jsonl", "{}")
    work = tmp_path / "work"
    work.mkdir()
    with pytest.raises(IoError) as refused:
        import_sources.upload_targets(hostile, work, "jsonl")
    message = str(refused.value)
    assert message == ("evil.zip: member 2 of the archive has an unsafe path (absolute, or "
                       "going up with '..'): refused — nothing was imported")
    assert list(work.iterdir()) == []


def database_state(store) -> tuple:
    """Every table's row count and a checksum of the items table's rows."""
    import hashlib
    import sqlite3
    con = sqlite3.connect(store.path)
    try:
        tables = [r[0] for r in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        counts = {t: con.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0] for t in tables}
        items = con.execute("SELECT * FROM items ORDER BY id").fetchall()
        return counts, hashlib.sha256(repr(items).encode()).hexdigest()
    finally:
        con.close()


@pytest.mark.parametrize("fmt, broken, names", [
    # read fine, but every image path leaves the image folder: refused while importing,
    # after the first file was stored (that file stayed in the database)
    ("jsonl", lambda p: p.write_text(json.dumps({
        "id": "z/b1", "question": "Q?", "answer_type": "open", "answer": "x",
        "images": ["../outside.png"]}) + "\n"), ("two.zip/part2.jsonl", "leaves the image")),
    # a row that cannot be read: refused naming the file and the line
    ("dailyclue", lambda p: p.write_text('[{"id": "b1", "question": "Q?", "answer": "x"},\n'
                                         ' {"id": "b2", "question": }]\n'),
     ("two.zip/part2.json", "line 2")),
])
def test_a_zip_whose_second_file_fails_imports_nothing(store, tmp_path, fmt, broken, names):
    """Several data files of one ZIP are one import: if any fails, nothing is imported
    (the files before it included) and the message names the file and the row."""
    jsonl_file(tmp_path / "before.jsonl", ["old/1"])
    upload(store, "jsonl", tmp_path / "before.jsonl")
    src = tmp_path / "two"
    suffix = ".jsonl" if fmt == "jsonl" else ".json"
    if fmt == "jsonl":
        jsonl_file(src / "part1.jsonl", ["z/a1", "z/a2"])
    else:
        src.mkdir()
        (src / "part1.json").write_text(json.dumps([{"id": "a1", "question": "Q?",
                                                     "answer": "x"}]))
    broken(src / f"part2{suffix}")
    before = database_state(store)
    with pytest.raises(IoError) as err:
        upload(store, fmt, zipped(src, tmp_path))
    assert database_state(store) == before
    assert store.item_ids() == ["old/1"]
    message = str(err.value)
    assert all(name in message for name in names), message
    assert "nothing was imported" in message and "was imported (" not in message


def test_the_import_page_records_the_logged_in_user_as_author(store, tmp_path):
    """An import from the page under --auth was recorded as authored by "ui"."""
    import gradio as gr

    from ui.io_tab import build_io_tab
    with gr.Blocks() as page:
        build_io_tab(store, ImportRoots())
    do_import = next(fn.fn for fn in page.fns.values() if fn.api_name == "import_file")
    data = jsonl_file(tmp_path / "in" / "data.jsonl", ["page/a"])
    do_import(gr.Request(username="alice"), "jsonl", str(data), "", "", "", False)
    assert [h["author"] for h in store.history("page/a")] == ["alice"]


def test_the_import_form_says_who_may_import_to_a_role_that_may_not(store):
    """An annotator saw a usable Import form; only the click refused."""
    from ui.io_tab import import_refusal
    store.add_user("ann", "annotator", "pw-of-ann-123")
    store.add_user("rita", "researcher", "pw-of-rita-123")
    said = import_refusal(store, "ann", True)
    assert said == ("ann may not import datasets: not allowed for your role (annotator; "
                    "admin, researcher may).")
    assert import_refusal(store, "rita", True) is None
    assert import_refusal(store, None, False) is None       # local single-user mode
