"""Uploads no action uses (ui/server.py, upload_cache and max_file_size): an annotator could
POST any number of 100 MB files to /gradio_api/upload and they stayed in Gradio's cache for
good. One upload is at most CLUELAB_MAX_UPLOAD (a larger one: 413 with a fixed body, not
Gradio's message naming its settings), and uploads are deleted CLUELAB_UPLOAD_KEEP_S after
they were made. A real server under --auth, real uploads."""
from __future__ import annotations

import os
import time

import pytest

from tests.live_server import LiveServer, add_user, build_ui_db
from tests.queue_caller import QueueCaller
from ui import route_answers

PASSWORD = "upload-limit-pw"
MB = 1024 * 1024


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("uploads") / "uploads.db"
    build_ui_db(db)
    add_user(db, "ann", "annotator", PASSWORD)
    srv = LiveServer(db, "--auth", env={"CLUELAB_MAX_UPLOAD": "2mb",
                                        "CLUELAB_UPLOAD_KEEP_S": "2"})
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def ann(server):
    return QueueCaller(server.url, ("ann", PASSWORD))


def test_an_upload_over_the_limit_is_refused_with_a_fixed_body(ann):
    refused = ann.http.post("/gradio_api/upload",
                            files={"files": ("big.bin", os.urandom(3 * MB))})
    assert (refused.status_code, refused.json()) == (413, route_answers.TOO_LARGE)
    kept = ann.http.post("/gradio_api/upload", files={"files": ("ok.bin", os.urandom(MB))})
    assert kept.status_code == 200


def test_an_upload_no_action_uses_is_deleted(ann):
    answer = ann.http.post("/gradio_api/upload", files={"files": ("left.bin", os.urandom(MB))})
    path = answer.json()[0]
    assert os.path.isfile(path)
    deadline = time.monotonic() + 30
    while os.path.isfile(path) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert not os.path.exists(path)
