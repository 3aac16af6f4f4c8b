"""Every download the app makes goes through ui/downloads.py: one folder per database, the
file written there once (a dataset's images straight into its ZIP), removed after
CLUELAB_UPLOAD_KEEP_S and at server start, the folder kept within CLUELAB_DOWNLOADS_MAX, and
at most MAX_PREPARING in the making per account.

Before, each export made two folders in /tmp that nothing removed, with a copy of the dataset
in each, and Gradio copied the file once more into its cache: 40 exports of the demo by one
annotator added 80 folders and ~109 MB to /tmp. A real server under --auth, gradio_client."""
from __future__ import annotations

import hashlib
import tempfile
import threading
import time
import zipfile
from pathlib import Path

import pytest
from gradio_client import Client

from tests.inspect_helpers import built, env  # noqa: F401 (fixtures)
from tests.live_server import LiveServer, add_user, build_ui_db
from ui.downloads import MAX_PREPARING, ROOT, DownloadRefused, Downloads

PASSWORD = "downloads-pw-1"
MB = 2**20


def folder_of(db: Path) -> Path:
    return ROOT / hashlib.sha256(str(db.resolve()).encode()).hexdigest()[:16]


def stray_exports() -> set[str]:
    """What the old code left: its own folders in the temporary folder."""
    return {p.name for p in Path(tempfile.gettempdir()).glob("cluelab-export*")}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("downloads") / "downloads.db"
    build_ui_db(db)
    add_user(db, "ann", "annotator", PASSWORD)
    left = folder_of(db) / ("0" * 32)              # a download an earlier run left behind
    left.mkdir(parents=True, exist_ok=True)
    (left / "old.zip").write_bytes(b"x" * 1000)
    srv = LiveServer(db, "--auth", env={"CLUELAB_UPLOAD_KEEP_S": "4",
                                        "CLUELAB_DOWNLOADS_MAX": "60kb"})
    srv.db = db
    yield srv
    srv.stop()


def test_exports_leave_at_most_the_bounded_files_and_old_ones_go(server):
    folder = folder_of(server.db)
    assert not (folder / ("0" * 32)).exists()       # removed at server start
    before = stray_exports()
    ann = Client(server.url, auth=("ann", PASSWORD), verbose=False, download_files=False,
                 ssl_verify=False)
    sizes = []
    for _ in range(12):
        path, summary, _line = ann.predict("jsonl", None, api_name="/export_file")
        served = Path(path["path"])
        assert served.parent.parent == folder, path     # served from the folder, no copy
        with zipfile.ZipFile(served) as bundle:
            names = bundle.namelist()
        assert "cluelab-jsonl.jsonl" in names and sum(n.startswith("cluelab-jsonl_images/")
                                                 for n in names) == 4, names
        assert summary["files"] == ["cluelab-jsonl.jsonl", "cluelab-jsonl_images"]
        sizes.append(served.stat().st_size)
        total = sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())
        assert total <= 60 * 1024, total                 # CLUELAB_DOWNLOADS_MAX
        assert sorted(p.name for p in served.parent.iterdir()) == ["cluelab-jsonl.zip"]
    assert max(sizes) * 3 > 60 * 1024   # so the bound, not the count, decided what stayed
    assert stray_exports() == before    # nothing else in /tmp
    deadline = time.monotonic() + 30    # CLUELAB_UPLOAD_KEEP_S: 4 s
    while any(folder.iterdir()) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert not any(folder.iterdir())


def test_one_account_has_at_most_max_preparing_downloads_in_the_making(tmp_path):
    downloads = Downloads(tmp_path / "d", keep_s=60, max_bytes=MB)
    started, release = threading.Barrier(MAX_PREPARING + 1), threading.Event()

    def slow(path):
        started.wait(10)
        release.wait(10)
        path.write_text("x")

    threads = [threading.Thread(target=downloads.make, args=("ann", "export_file", f"f{i}.txt", slow))
               for i in range(MAX_PREPARING)]
    for t in threads:
        t.start()
    started.wait(10)
    with pytest.raises(DownloadRefused, match="ann already has 2 downloads being prepared, as many as an account may"):
        downloads.make("ann", "export_file", "more.txt", lambda path: path.write_text("x"))
    assert downloads.make("bob", "export_file", "his.txt", lambda path: path.write_text("x"))   # others not
    release.set()
    for t in threads:
        t.join(10)
    assert downloads.make("ann", "export_file", "again.txt", lambda path: path.write_text("x"))


def test_a_download_larger_than_the_bound_is_refused_and_removed(tmp_path):
    downloads = Downloads(tmp_path / "d", keep_s=60, max_bytes=MB)
    with pytest.raises(DownloadRefused, match="more than the 1 MB the server keeps"):
        downloads.make("ann", "export_file", "big.bin", lambda path: path.write_bytes(b"x" * (2 * MB)))
    assert not any((tmp_path / "d").iterdir())


def test_a_result_table_and_a_tag_export_are_downloads_too(env):  # noqa: F811
    """Results' and Inspect's exports made their own mkdtemp folders too (cluelab-results-,
    cluelab-tags-)."""
    from scoring.score_run import score_run
    from ui import inspect_tags as it
    from ui import results_handlers as h
    from ui.downloads import downloads_for

    store, ids = env
    folder = downloads_for(store).folder
    score_run(store, "run-a")
    table = Path(h.export_table(store, ["run-a"], "general", "main", "csv", account="rita"))
    it.save_tags(store, ids["a"]["ui/beta"], ["perception error"], "rita")
    tags = Path(it.export_tagged(store, "run-a", "json", account="rita")[0])
    assert table.parent.parent == folder and tags.parent.parent == folder
    assert "run-a" in table.read_text(encoding="utf-8-sig")
    assert "perception error" in tags.read_text()


def test_downloads_and_a_new_database_are_the_server_accounts_only(tmp_path):
    """An export (every gold answer) was 0644 in 0755 folders and a new database (password
    hashes) 0644: readable by every user of the machine. The downloads folder and each
    download's folder are 0700 now, a new database and its -wal/-shm files 0600; a database
    that exists keeps its mode."""
    from store import Store
    downloads = Downloads(tmp_path / "downloads", keep_s=60, max_bytes=10_000)
    downloads.start()
    made = Path(downloads.make("ann", "export_file", "x.jsonl",
                               lambda path: path.write_text("{}")))
    assert {oct(p.stat().st_mode & 0o777) for p in (tmp_path / "downloads", made.parent)} == \
        {"0o700"}
    store = Store.open(tmp_path / "new.db")
    store.count_items()
    assert {oct(p.stat().st_mode & 0o777) for p in tmp_path.glob("new.db*")} == {"0o600"}
    store.close()
    (tmp_path / "old.db").touch(mode=0o644)
    Store.open(tmp_path / "old.db").close()
    assert oct((tmp_path / "old.db").stat().st_mode & 0o777) == "0o644"
