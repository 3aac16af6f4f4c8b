"""Who sets which status, on every path that writes an item (store/items.check_status).

Releasing an item (status `released`: read-only until an admin reopens it) is an admin's act
(ui/access.py, ACTS release_item). Only the editor's save checked it, against the status the
editor had loaded: an annotator released an item by restoring a released version (admin
saves it `released`, version 2; `item reopen --reason test`, version 3; the annotator's
`restore_revision(2)` gave version 4, `released`), and an import with replace brought items
in as `released` for a researcher. Now every write passes the caller's right to the store,
which checks it against the status stored at the write: a restore keeps the item's status
(and says so), a save, a merged save and an import are refused. A real server under --auth,
gradio_client, the CLI for the reopen as an admin runs it."""
from __future__ import annotations

import html

import json
import sqlite3
import subprocess
import sys

import pytest
from gradio_client import Client, handle_file

from store import Store
from tests.live_server import ROOT, make_scene, start_ui_server

PASSWORD = "status-rights-pw"
FORM = slice(7, 17)          # question … options in load_item's outputs
CLUES, ANSWERS, STATUS = 6, slice(22, 27), 8     # STATUS: its place in the form


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = start_ui_server(tmp_path_factory.mktemp("status"),
                          {"adm": "admin", "res": "researcher", "ann": "annotator"}, PASSWORD)
    yield srv
    srv.stop()


def client(server, name):
    return Client(server.url, auth=(name, PASSWORD), verbose=False, download_files=False,
                  ssl_verify=False)


def form_of(loaded, status=None):
    form = [*loaded[FORM], loaded[CLUES], *loaded[ANSWERS]]
    form = [v["value"] if isinstance(v, dict) and "value" in v else v for v in form]
    if status:
        form[STATUS] = status
    return form


def row(server, item_id):
    con = sqlite3.connect(server.db)
    try:
        return con.execute("SELECT status, version FROM items WHERE id = ?",
                           [item_id]).fetchone()
    finally:
        con.close()


def release(server, item_id):
    """Save the item as `released`, as an admin does."""
    store = Store.open(server.db)
    try:
        item = store.get_item(item_id)
        store.save_item({**item, "status": "released"}, item["version"], "adm", "release",
                        may_release=True)
    finally:
        store.close()


def test_a_restore_never_makes_an_item_verified_or_rejected(server):
    """rev rejected an item; ann restored its earlier verified version: the item was
    verified again with no review (a save as verified is refused)."""
    store = Store.open(server.db)
    try:
        item = {**store.get_item("ui/gamma"), "id": "ui/restored", "status": "verified"}
        store.create_item(item, "setup")
        verified = 1
        store.add_review("ui/restored", verified, "rev", "reject", "bad gold")
    finally:
        store.close()
    ann = client(server, "ann")
    ann.predict("ui/restored", api_name="/load_item")
    out = ann.predict(verified, api_name="/restore_revision")
    status, version = row(server, "ui/restored")
    assert status == "rejected" and version == verified + 2
    line = html.unescape(" ".join(str(x) for x in out)).replace("\\", "")
    assert "Its status verified was not restored (status kept: rejected; verified and " \
        "rejected come from reviews only): it is rejected" in line


def test_an_annotators_restore_of_a_released_version_keeps_the_status(server):
    release(server, "ui/beta")                                               # version 2
    subprocess.run([sys.executable, str(ROOT / "app.py"), "item", "reopen", "ui/beta",
                    "--reason", "test", "--db", str(server.db)], check=True,
                   capture_output=True)                                      # version 3
    assert row(server, "ui/beta") == ("in_review", 3)
    ann = client(server, "ann")
    ann.predict("ui/beta", api_name="/load_item")
    out = ann.predict(2, api_name="/restore_revision")
    assert row(server, "ui/beta") == ("in_review", 4)
    line = html.unescape(" ".join(str(x) for x in out)).replace("\\", "")
    assert "Restored version 2 as version 4" in line
    assert "status released was not restored (status kept: in_review; releasing is an " \
        "admin's act): it is in_review" in line
    store = Store.open(server.db)
    try:
        assert "status kept: in_review" in store.history("ui/beta")[0]["comment"]
    finally:
        store.close()
    adm = client(server, "adm")                    # an admin's restore is the release it was
    adm.predict("ui/beta", api_name="/load_item")
    adm.predict(2, api_name="/restore_revision")
    assert row(server, "ui/beta") == ("released", 5)


def test_an_annotators_save_and_merged_save_as_released_are_refused(server):
    ann = client(server, "ann")
    loaded = ann.predict("ui/alpha", api_name="/load_item")
    assert form_of(loaded)[STATUS] == "draft"
    with pytest.raises(Exception, match="ann may not release items"):
        ann.predict(*form_of(loaded, "released"), None, "", api_name="/save_item")
    assert row(server, "ui/alpha") == ("draft", 1)
    # a colleague saves meanwhile: the stale save is refused for the rights first (a
    # conflict panel would offer to merge what is refused anyway), and Save merged too
    store = Store.open(server.db)
    try:
        item = store.get_item("ui/alpha")
        store.save_item({**item, "question": "Which exit, then?"}, 1, "res", "")
    finally:
        store.close()
    with pytest.raises(Exception, match="ann may not release items"):
        ann.predict(*form_of(loaded, "released"), None, "", api_name="/save_item")
    with pytest.raises(Exception, match="ann may not release items"):
        ann.predict([], *form_of(loaded, "released"), None, "", [],   # [], no ticks
                    api_name="/save_over_conflict")
    assert row(server, "ui/alpha") == ("draft", 2)


def jsonl(path, lines):
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def import_with_replace(caller, path):
    """Import with replace, confirming the question it asks (kept in the session)."""
    asked = caller.predict("jsonl", handle_file(str(path)), "", "", "", True,
                           api_name="/import_file")
    assert "Replace them?" in str(asked), asked
    return caller.predict("jsonl", handle_file(str(path)), "", "", "", True,
                          api_name="/import_file_confirmed")[0]


def test_a_researchers_import_brings_no_item_in_as_released(server, tmp_path):
    lines = [{"id": "ui/gamma", "question": "Pick the colour of the sign.",
              "answer_type": "open", "answer": "blue", "status": "released"},
             {"id": "ui/delta", "question": "New?", "answer_type": "open", "answer": "x",
              "status": "released"}]
    report = import_with_replace(client(server, "res"), jsonl(tmp_path / "r.jsonl", lines))
    assert row(server, "ui/gamma") == ("draft", 1) and row(server, "ui/delta") is None
    assert report.count("only by those who may release items") == 2, report
    report = import_with_replace(client(server, "adm"), jsonl(tmp_path / "a.jsonl", lines))
    assert row(server, "ui/gamma") == ("released", 2) and row(server, "ui/delta")[0] == \
        "released"


def test_an_annotators_duplicate_and_new_item_are_drafts(server, tmp_path):
    release(server, "ui/gamma") if row(server, "ui/gamma")[0] != "released" else None
    ann = client(server, "ann")
    ann.predict("ui/gamma", api_name="/load_item")
    ann.predict("gamma-copy", api_name="/duplicate_item")
    assert row(server, "ui/gamma-copy") == ("draft", 1)
    image = make_scene(tmp_path / "new.png")
    ann.predict("fresh", "What is it?", [handle_file(str(image))], api_name="/create_item")
    assert row(server, "ui/fresh") == ("draft", 1)
