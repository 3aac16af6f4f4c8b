"""A file whose name holds a text-direction control ("evil<U+202E>txt.jsonl", read
"evillnosj.txt"): the import kept the name as it was in the upload's temporary copy, the
report, History's "import jsonl …" comment and the messages; an image's name in the
store's refusals too. Those names now carry no direction control (domain.item_ids
.DIRECTION_MARKS, the controls imported texts are flagged for)."""
from __future__ import annotations

import json
import zipfile

from domain.item_ids import DIRECTION_MARKS, without_direction_marks
from tests.test_import_upload_files import upload
from ui.import_sources import upload_targets
from ui.io_handlers import IoError
from ui.lifecycle_handlers import LifecycleHandlers

EVIL = "evil\u202etxt.jsonl"


def no_marks(text) -> bool:
    return not any(ord(ch) in DIRECTION_MARKS for ch in str(text))


def line(item_id: str) -> str:
    return json.dumps({"id": item_id, "question": "Which?", "answer_type": "open",
                       "answer": "x"}) + "\n"


def test_the_names_carry_no_direction_control():
    assert without_direction_marks(EVIL) == "eviltxt.jsonl"
    assert without_direction_marks("a\u2066b\u2069\u200e\u200f\u061c.png") == "ab.png"
    assert without_direction_marks("\u202e") == "upload"
    assert without_direction_marks("plain name.jsonl") == "plain name.jsonl"


def test_an_uploads_copy_and_report_and_history_drop_the_control(store, tmp_path):
    (tmp_path / "up").mkdir()
    source = tmp_path / "up" / EVIL
    source.write_text(line("e/1"), encoding="utf-8")
    work = tmp_path / "work"
    work.mkdir()
    [(local, shown)] = upload_targets(source, work, "jsonl")
    assert no_marks(local) and shown == "eviltxt.jsonl", (local, shown)
    result = upload(store, "jsonl", source)
    assert no_marks(json.dumps(result, ensure_ascii=False)), result
    assert "eviltxt.jsonl" in result["text"], result["text"]
    comments = [h.get("comment") for h in store.history("e/1")]
    assert comments and all(no_marks(c) for c in comments), comments


def test_a_refusal_names_the_upload_without_the_control(store, tmp_path):
    source = tmp_path / EVIL
    source.write_text("[1, 2]\n", encoding="utf-8")        # no line is a JSON object
    try:
        upload(store, "jsonl", source)
    except IoError as err:
        said = str(err)
    assert said.startswith("eviltxt.jsonl: not JSON Lines"), said
    archive = tmp_path / "bundle\u202epiz.zip"
    with zipfile.ZipFile(archive, "w") as bundle:
        bundle.writestr("a\u202eb.jsonl", "[1, 2]\n")
    try:
        upload(store, "jsonl", archive)
    except IoError as err:
        said = str(err)
    assert no_marks(said) and "bundlepiz.zip/ab.jsonl" in said, said


def test_a_refused_images_name_has_no_control(store, tmp_path):
    image = tmp_path / "photo\u202egnp.exe"
    image.write_bytes(b"not an image")
    try:
        LifecycleHandlers(store).create_from_images("d/new", "Which?", [str(image)], "tester",
                                                    "d", True)
    except Exception as err:                      # the refusal says the name it was given
        said = str(err)
    assert no_marks(said) and "photognp.exe" in said, said
