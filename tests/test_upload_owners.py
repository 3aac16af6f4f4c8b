"""An uploaded file is its uploader's (ui/upload_owners.py), against a real server under a
login: an annotator made an item from another account's upload path (/tmp/gradio/<hash>/
x.png) or from a path in the media folder (a security review). Now an upload control takes
only a file this account uploaded, or one the server handed to this session.

The table was shared by all accounts, oldest first: one annotator's 101 uploads of 1,000 tiny
files pushed out everyone else's, whose fresh uploads were then refused; and any account read
another's upload by its path (GET /gradio_api/file=...). Now the table is per account, an
account uploads at most MAX_UPLOAD_FILES_PER_HOUR files an hour, and an upload is served only
to its account (or one whose page was handed it)."""
from __future__ import annotations

import io
import sqlite3
import uuid

import pytest
from PIL import Image

from domain.limits import MAX_UPLOAD_FILES_PER_HOUR

from tests.live_server import start_ui_server
from tests.queue_caller import QueueCaller
from tests.test_session_owners import completed, join
from ui.upload_owners import (FOREIGN_FILE, PerAccount, UploadOwners, file_paths,
                              handed_paths)

PASSWORD = "upload-owner-pw"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = start_ui_server(tmp_path_factory.mktemp("upload-owners"),
                          {"ann": "annotator", "dora": "annotator",
                                                       "flo": "annotator"}, PASSWORD)
    yield srv
    srv.stop()


def png(colour) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (40, 30), colour).save(buffer, "PNG")
    return buffer.getvalue()


def uploaded(caller: QueueCaller, name: str, content: bytes) -> str:
    """The path of `content` uploaded by `caller` as `name`."""
    answer = caller.http.post("/gradio_api/upload", files={"files": (name, content)})
    assert answer.status_code == 200, answer.text
    return answer.json()[0]


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
    path = uploaded(ann, "mine.png", png((200, 10, 10)))
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
    owners = UploadOwners(limit=10, each=3)
    owners.record_upload("ann", ["/tmp/gradio/a/x.png"])
    owners.record_upload("dora", ["/tmp/gradio/a/../a/x.png"])      # the same content
    assert owners.allows("ann", None, "/tmp/gradio/a/x.png")
    assert owners.allows("dora", "s", "/tmp/gradio/a/x.png")
    assert not owners.allows("eve", "s", "/tmp/gradio/a/x.png")
    owners.record_handed("eve", "s1", ["/media/ab/ab12.png"])
    assert owners.allows("eve", "s1", "/media/ab/ab12.png")
    assert not owners.allows("eve", "s2", "/media/ab/ab12.png")
    assert not owners.allows("ann", "s1", "/media/ab/ab12.png")
    for i in range(4):
        owners.record_upload("ann", [f"/tmp/gradio/{i}/y.png"])
    assert not owners.allows("ann", None, "/tmp/gradio/a/x.png")       # the oldest forgotten
    assert owners.allows("dora", None, "/tmp/gradio/a/x.png")          # only ann's own
    assert file_paths([{"path": "/a"}, "/b", {"__type__": "update", "value": {"path": "/c"}},
                       None]) == ["/a", "/b", "/c"]
    assert handed_paths([{"image": {"path": "/m/1.png", "meta": {"_type": "gradio.FileData"}},
                          "boxes": []}, "text", [[1, 2]]]) == ["/m/1.png"]


def test_one_accounts_flood_forgets_only_its_own_entries():
    owners = UploadOwners(limit=8, each=3)
    owners.record_upload("dora", ["/tmp/gradio/d/mine.png"])
    for i in range(100):                                  # flo floods the table
        owners.record_upload("flo", [f"/tmp/gradio/{i}/f.png"])
    assert owners.allows("dora", None, "/tmp/gradio/d/mine.png")
    assert owners.allows("flo", None, "/tmp/gradio/99/f.png")
    assert not owners.allows("flo", None, "/tmp/gradio/96/f.png")


def test_past_the_total_the_account_holding_the_most_gives_way():
    table = PerAccount(each=4, total=6)
    table.add("ann", ["a1"])
    table.add("flo", ["f1", "f2", "f3", "f4"])
    table.add("eve", ["e1", "e2"])                        # 7 entries: flo's oldest goes
    assert table.has("ann", "a1") and table.has("eve", "e1") and table.has("eve", "e2")
    assert not table.has("flo", "f1") and table.has("flo", "f2")


def test_a_file_is_fetched_by_its_uploader_or_an_account_it_was_handed_to():
    owners = UploadOwners()
    owners.record_upload("ann", ["/tmp/gradio/a/x.png"])
    owners.record_handed("eve", "s1", ["/tmp/gradio/b/shown.webp"])
    assert owners.may_fetch("ann", "/tmp/gradio/a/x.png")
    assert owners.may_fetch("ann", "/tmp/gradio/b/../a/x.png")
    assert not owners.may_fetch("dora", "/tmp/gradio/a/x.png")
    assert owners.may_fetch("eve", "/tmp/gradio/b/shown.webp")
    assert not owners.may_fetch("ann", "/tmp/gradio/b/shown.webp")


def test_an_upload_is_served_only_to_the_account_that_uploaded_it(server):
    ann, dora = (QueueCaller(server.url, (name, PASSWORD)) for name in ("ann", "dora"))
    path = uploaded(ann, "victim.png", png((10, 200, 10)))
    head, name = path.rsplit("/", 1)
    mine = ann.http.get(f"/gradio_api/file={path}")
    assert mine.status_code == 200 and mine.content == png((10, 200, 10))
    for spelt in (path, f"{head}/../{head.rsplit('/', 1)[1]}/{name}", path.replace("/", "//")):
        taken = dora.http.get(f"/gradio_api/file={spelt}")
        assert taken.status_code == 403, (spelt, taken.status_code)
        assert b"\x89PNG" not in taken.content


def test_a_flood_of_files_is_refused_and_leaves_other_accounts_uploads(server):
    dora, flo = (QueueCaller(server.url, (name, PASSWORD)) for name in ("dora", "flo"))
    fresh = uploaded(dora, "fresh.png", png((10, 10, 200)))
    flood = [("files", (f"f{i}.png", f"{i}".encode())) for i in range(MAX_UPLOAD_FILES_PER_HOUR)]
    assert flo.http.post("/gradio_api/upload", files=flood).status_code == 200
    refused = flo.http.post("/gradio_api/upload", files={"files": ("one.png", b"x")})
    assert refused.status_code == 429, refused.text
    detail = refused.json()["detail"]
    assert f"flo has uploaded {MAX_UPLOAD_FILES_PER_HOUR:,} files in the last hour" in detail
    assert f"at most {MAX_UPLOAD_FILES_PER_HOUR:,} files an hour " \
        "(MAX_UPLOAD_FILES_PER_HOUR). Try again in 60 minutes." in detail, detail
    made = create_item(dora, "ui/after-the-flood", fresh)
    assert made["success"] is True, made["output"]
    assert dora.http.post("/gradio_api/upload",                 # dora's own count is hers
                          files={"files": ("more.png", b"y")}).status_code == 200
