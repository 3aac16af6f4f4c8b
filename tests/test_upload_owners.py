"""An uploaded file is its uploader's (ui/upload_owners.py), against a real server under a
login: an annotator made an item from another account's upload path (/tmp/gradio/<hash>/
x.png) or from a path in the media folder (a security review). Now an upload control takes
only a file this account uploaded, or one the server handed to this session."""
from __future__ import annotations

import io
import sqlite3
import uuid

import pytest
from PIL import Image

from tests.live_server import start_ui_server
from tests.queue_caller import QueueCaller
from tests.test_session_owners import completed, join
from ui.upload_owners import FOREIGN_FILE, UploadOwners, file_paths, handed_paths

PASSWORD = "upload-owner-pw"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = start_ui_server(tmp_path_factory.mktemp("upload-owners"),
                          {"ann": "annotator", "dora": "annotator"}, PASSWORD)
    yield srv
    srv.stop()


def png(colour) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (40, 30), colour).save(buffer, "PNG")
    return buffer.getvalue()


def create_item(caller: QueueCaller, item_id: str, path: str) -> dict:
    dep = next(d for d in caller.config()["dependencies"] if d["api_name"] == "create_item")
    session = uuid.uuid4().hex
    data = [None, item_id, "What is shown?",
            [{"path": path, "meta": {"_type": "gradio.FileData"}, "orig_name": "x.png"}]]
    joined = join(caller, dep, data, session)
    assert joined.status_code == 200, joined.text
    return completed(caller, session, joined.json()["event_id"])


def test_an_item_is_made_only_from_the_accounts_own_upload(server):
    ann, dora = (QueueCaller(server.url, (name, PASSWORD)) for name in ("ann", "dora"))
    uploaded = ann.http.post("/gradio_api/upload",
                             files={"files": ("mine.png", png((200, 10, 10)))})
    assert uploaded.status_code == 200
    path = uploaded.json()[0]
    media = next((server.db.parent / "ui-media").rglob("*.png"))
    for item_id, foreign in (("ui/taken", path), ("ui/from-media", str(media))):
        answer = create_item(dora, item_id, foreign)
        assert answer["success"] is False, item_id
        assert answer["output"]["error"] == FOREIGN_FILE, answer["output"]
    mine = create_item(ann, "ui/made-by-ann", path)
    assert mine["success"] is True, mine["output"]
    with sqlite3.connect(server.db) as con:
        made = {row[0] for row in con.execute("SELECT id FROM items")}
    assert "ui/made-by-ann" in made and not {"ui/taken", "ui/from-media"} & made
    assert "refused a file path not uploaded by dora" in server.log.read_text()


def test_the_table_keeps_uploaders_per_path_and_handed_files_per_session():
    owners = UploadOwners(limit=3)
    owners.record_upload("ann", ["/tmp/gradio/a/x.png"])
    owners.record_upload("dora", ["/tmp/gradio/a/../a/x.png"])      # the same content
    assert owners.allows("ann", None, "/tmp/gradio/a/x.png")
    assert owners.allows("dora", "s", "/tmp/gradio/a/x.png")
    assert not owners.allows("eve", "s", "/tmp/gradio/a/x.png")
    owners.record_handed("s1", ["/media/ab/ab12.png"])
    assert owners.allows("eve", "s1", "/media/ab/ab12.png")
    assert not owners.allows("eve", "s2", "/media/ab/ab12.png")
    for i in range(4):
        owners.record_upload("ann", [f"/tmp/gradio/{i}/y.png"])
    assert not owners.allows("ann", None, "/tmp/gradio/a/x.png")       # the oldest forgotten
    assert file_paths([{"path": "/a"}, "/b", {"__type__": "update", "value": {"path": "/c"}},
                       None]) == ["/a", "/b", "/c"]
    assert handed_paths([{"image": {"path": "/m/1.png", "meta": {"_type": "gradio.FileData"}},
                          "boxes": []}, "text", [[1, 2]]]) == ["/m/1.png"]
