"""An image that does not decode is named with the exception's type, never its message:
Pillow's message quotes the file's bytes. `create_item` with a PPM holding
`P3\\n2 2\\nSECRETPPM\\n` answered "no item created: sec2.ppm: corrupt or truncated image
(ValueError: invalid literal for int() with base 10: b'SECRETPPM')" (a security review).

Every path that decodes an upload is tried (add image and option image: the store's
add_image, ui/annotate_structure.read_image; new item; import), with a PPM and a PNG whose
bytes hold a marker; the marker is in no message and no log line."""
from __future__ import annotations

import json
import logging
import shutil
import struct
import zlib
from pathlib import Path

import pytest

from store import MediaError, Store
from store.decode import decode_checked
from ui.import_roots import ImportRoots
from ui.io_handlers import IoError, IoHandlers
from ui.lifecycle_handlers import EditError, LifecycleHandlers

PPM_MARKER = "SECRETPPM"
PNG_MARKER = "Q#7!"          # a chunk's name, which Pillow quotes: "broken PNG file (chunk …)"


def chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def hostile_files(folder: Path) -> list[Path]:
    """A PPM whose pixel text is the marker, a PNG (2x2, whole pixels) with a chunk after
    its data named by the marker."""
    ppm = folder / "sec2.ppm"
    ppm.write_bytes(f"P3\n2 2\n{PPM_MARKER}\n".encode())
    png = folder / "sec3.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\n"
                    + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
                    + chunk(b"IDAT", zlib.compress(b"\x00" * 14))
                    + chunk(PNG_MARKER.encode(), b"x") + chunk(b"IEND", b""))
    return [ppm, png]


@pytest.fixture
def store(tmp_path):
    store = Store.open(tmp_path / "decode.db")
    yield store
    store.close()


def assert_quotes_nothing(text: str, caplog) -> None:
    for marker in (PPM_MARKER, PNG_MARKER, repr(PNG_MARKER.encode())):
        assert marker not in text, text
        assert marker not in caplog.text, caplog.text


def test_add_image_and_option_image_name_the_type_only(store, tmp_path, caplog):
    caplog.set_level(logging.INFO)   # the app's level (Pillow's debug trace aside)
    for path in hostile_files(tmp_path):
        with pytest.raises(MediaError) as refused:
            store.add_image(path, path.name)     # what read_image does for both uploads
        assert str(refused.value).startswith(f"{path.name}: corrupt or truncated image (")
        assert_quotes_nothing(str(refused.value), caplog)
    with pytest.raises(MediaError) as refused:      # a stored image's preview, decoded again
        decode_checked(hostile_files(tmp_path)[0].read_bytes(), "image 0123")
    assert_quotes_nothing(str(refused.value), caplog)


def test_a_new_item_names_the_file_and_the_type_only(store, tmp_path, caplog):
    caplog.set_level(logging.INFO)   # the app's level (Pillow's debug trace aside)
    for path in hostile_files(tmp_path):
        with pytest.raises(EditError) as refused:
            LifecycleHandlers(store).create_from_images("ui/sec", "q", [str(path)], "alice", "ui",
                                                        new_datasets=True)
        assert str(refused.value).startswith(f"no item created: {path.name}: corrupt or "
                                             "truncated image (")
        assert_quotes_nothing(str(refused.value), caplog)


def test_an_import_names_the_image_and_the_type_only(store, tmp_path, caplog):
    caplog.set_level(logging.INFO)   # the app's level (Pillow's debug trace aside)
    folder = tmp_path / "set"
    folder.mkdir()
    paths = hostile_files(folder)
    data = folder / "items.jsonl"
    data.write_text("".join(json.dumps({"id": f"sec/{n}", "question": "q", "answer_type": "open",
                                        "answer": "x", "images": [p.name]}) + "\n"
                            for n, p in enumerate(paths)))
    try:
        archive = shutil.make_archive(str(tmp_path / "set"), "zip", folder)   # with its images
        report = IoHandlers(store, ImportRoots()).run_import("jsonl", archive, "", "", "",
                                                             author="tester")
        text = json.dumps(report) + json.dumps([store.get_item(f"sec/{n}")
                                                for n in range(len(paths))], default=str)
    except IoError as err:
        text = str(err)
    assert "corrupt or truncated image" in text, text
    assert_quotes_nothing(text, caplog)
