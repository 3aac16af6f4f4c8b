"""An upload on the Import page is the same import as the CLI (issue #12).

Each format is imported twice from the same sources: by the command line on the folder or
file (`python app.py import`, in process), and by the Import page's handler with an upload
(a ZIP of the folder, or the file itself), each into its own real SQLite database. The two
databases must hold the same items, clues, boxes, images and problems. Before the fix a
VER-Bench ZIP gave 4 flagged items without images (the handler passed the folder itself as
the image folder), while the CLI imported it cleanly.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cli import main as cli_main
from store import Store
from tests.live_server import ROOT
from tests.test_formats_mmr_life import mmr_dir  # noqa: F401  (fixtures shared with the
from tests.test_formats_seekworld_dailyclue import STREETVIEW, daily_dir  # noqa: F401
from tests.test_formats_verbench import verbench_dir  # noqa: F401  format tests)
from tests.test_formats_vlmevalkit import bench_tsv  # noqa: F401
from ui.import_roots import ImportRoots
from ui.io_handlers import IoHandlers, import_summary

FIXTURES = Path(__file__).parent / "fixtures" / "formats"
VOLATILE = ("version", "updated_at", "updated_by", "created_at", "created_by")


def snapshot(db: Path) -> dict:
    """Everything an import decides, per item id (history's times and authors left out)."""
    store = Store.open(db)
    try:
        items = {item["id"]: {k: v for k, v in item.items() if k not in VOLATILE}
                 for item in store.iter_items()}
        shas = sorted({sha for item in items.values() for sha in item["images"]}
                      | {o["image"] for item in items.values() for o in item["options"]
                         if o.get("image")})
        comments = sorted(r["comment"] for item_id in items for r in store.history(item_id))
        return {"items": items, "images": [{k: v for k, v in store.image_info(sha).items()
                                if k not in VOLATILE} for sha in shas],
                "stats": store.stats(), "comments": comments}
    finally:
        store.close()


def import_by_cli(db: Path, fmt: str, path: Path, capsys) -> str:
    assert cli_main(["import", "--db", str(db), "--format", fmt, str(path)]) == 0
    return capsys.readouterr().out


def import_by_upload(db: Path, fmt: str, upload: Path) -> dict:
    store = Store.open(db)
    try:
        return IoHandlers(store, ImportRoots()).run_import(fmt, str(upload), "", "", "",
                                                           author="tester", may_release=True)
    finally:
        store.close()


def zipped(folder: Path, into: Path) -> Path:
    """A ZIP of `folder` (the folder itself at its top, as a user zips one)."""
    return Path(shutil.make_archive(str(into / folder.name), "zip", folder.parent, folder.name))


@pytest.fixture
def jsonl_dir(tmp_path):
    folder = tmp_path / "demo"
    shutil.copytree(ROOT / "assets" / "demo", folder)
    return folder


@pytest.fixture
def seekworld_dir(tmp_path, make_png):
    folder = tmp_path / "seek"
    folder.mkdir()
    shutil.copy(FIXTURES / "seekworld_example.jsonl", folder / "seek.jsonl")
    make_png(folder / "imgs", name=f"{STREETVIEW}.jpg", image_format="JPEG")
    return folder


CASES = {   # format: (fixture, the CLI's file in its folder, "" for the folder itself, or
            # None: the fixture is one file, uploaded as it is; else the folder is zipped)
    "jsonl": ("jsonl_dir", "demo.jsonl"),
    "mmr-life": ("mmr_dir", "MMR_Life.json"),
    "verbench": ("verbench_dir", ""),
    "seekworld": ("seekworld_dir", "seek.jsonl"),
    "dailyclue": ("daily_dir", "daily.json"),
    "vlmevalkit": ("bench_tsv", None),
}


@pytest.mark.parametrize("fmt", sorted(CASES))
def test_upload_and_cli_give_the_same_database(fmt, request, tmp_path_factory, capsys):
    fixture, inside = CASES[fmt]
    source = Path(request.getfixturevalue(fixture))
    out = tmp_path_factory.mktemp("databases")     # beside the sources, not inside them
    if inside is None:                       # a single file with its images inside
        cli_path, upload = source, source
    else:
        cli_path = source / inside if inside else source
        upload = zipped(source, out)
    cli_text = import_by_cli(out / "cli.db", fmt, cli_path, capsys)
    report = import_by_upload(out / "ui.db", fmt, upload)

    by_cli, by_upload = snapshot(out / "cli.db"), snapshot(out / "ui.db")
    assert by_upload["items"].keys() == by_cli["items"].keys() and by_cli["items"]
    for item_id, item in by_cli["items"].items():
        assert by_upload["items"][item_id] == item, item_id
    assert by_upload["images"] == by_cli["images"]
    assert by_upload["stats"] == by_cli["stats"]
    assert by_upload["comments"] == by_cli["comments"]    # "import <format> <file name>"
    assert report["imported"] == len(by_cli["items"])
    # the report names the user's file, never the server's temporary copy
    assert upload.name in report["text"].splitlines()[0]
    assert "cluelab-import-" not in report["text"] and "/tmp" not in report["path"]
    assert "problems:" in cli_text


def test_verbench_zip_keeps_its_images_and_boxes(verbench_dir, tmp_path):  # noqa: F811
    upload = zipped(verbench_dir, tmp_path)
    report = import_by_upload(tmp_path / "ui.db", "verbench", upload)
    store = Store.open(tmp_path / "ui.db")
    item = store.get_item("verbench/sa_1")
    store.close()
    assert len(item["images"]) == 1 and [len(c["boxes"]) for c in item["clues"]] == [2, 1]
    assert "unplaced_boxes" not in item["metadata"] and not item["problems"]
    assert report["path"] == "VER-Bench.zip/VER-Bench"


def test_the_toast_is_a_warning_when_items_are_flagged():
    clean = {"imported": 3, "flagged": 0, "skipped": 0, "problems": []}
    assert import_summary(clean) == (False, "imported 3 items")
    flagged = {"imported": 4, "flagged": 2, "skipped": 1, "problems": [{}, {}, {}]}
    assert import_summary(flagged) == (
        True, "imported 4 items: 2 flagged with problems, 1 not imported; see the report")
    replaced = {"imported": 0, "replaced": 2, "unchanged": 5, "flagged": 0, "skipped": 0,
                "problems": []}
    assert import_summary(replaced) == (False, "imported 0 items, replaced 2, 5 unchanged")


def test_an_import_that_skipped_every_line_says_nothing_was_imported(store, tmp_path):
    """Its report began "Imported trav2.zip/data.jsonl as jsonl into dataset …" with every
    line skipped (a security review): a success to whoever reads the first line."""
    from formats import import_path
    path = tmp_path / "data.jsonl"
    path.write_text('{"id": "a\\u202eb", "question": "q"}\n{"id": "c\\u0007d", "question": "q"}\n')
    done = import_path(store, "jsonl", path)
    report = done.to_dict()
    assert done.render_text().splitlines()[0] == (
        f"Nothing imported from {path} (jsonl): 2 read, 2 skipped")
    assert import_summary(report) == (True, "nothing imported: 2 of 2 items skipped; "
                                            "see the report")
    empty = {"imported": 0, "flagged": 0, "skipped": 0, "items_read": 0, "problems": []}
    assert import_summary(empty)[1].startswith("nothing imported")


def test_the_import_and_export_formats_start_at_cluelabs_own(store):
    """A reviewer expected ClueLab's lossless jsonl; the page offered dailyclue and coco (the
    first of the sorted names)."""
    from ui.server import build_app

    demo = build_app(store)
    starts = {block.elem_id: block.value for block in demo.blocks.values()
              if getattr(block, "elem_id", None) in ("import-format", "export-format")}
    assert starts == {"import-format": "jsonl", "export-format": "jsonl"}
