"""The Gradio app as an API: real server process, gradio_client, real SQLite."""
import html
import os
import shutil
import json
import sqlite3
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

import pytest
from gradio_client import Client

from tests.live_server import ROOT, LiveServer, build_ui_db, start_ui_server

FORM = slice(7, 17)  # question … options in load_item's outputs (clues come at 6)
CLUES = 6
ANSWERS = slice(22, 27)  # the answer controls of each type (ui/answer_form.ANSWER_FIELDS)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = start_ui_server(tmp_path_factory.mktemp("wiring"))
    yield srv
    srv.stop()


def client(url, **kw):
    return Client(url, verbose=False, download_files=False, **kw)


def save_args(loaded, question, comment):
    form = [*loaded[FORM], loaded[CLUES], *loaded[ANSWERS]]
    form[0] = question
    form = [v["value"] if isinstance(v, dict) and "value" in v else v for v in form]
    return [*form, None, comment]  # no annotator value: boxes stay as they are


def test_every_event_has_an_api_name(server):
    """Every event is named; the scripting API page documents the public ones only."""
    config = json.loads(urllib.request.urlopen(server.url + "/config").read())
    deps = config["dependencies"]
    assert deps and all(d.get("api_name") for d in deps)
    visibility = {d["api_name"]: d.get("api_visibility") for d in deps}
    assert visibility["autosave_draft"] == "undocumented"      # callable, not documented
    info = client(server.url).view_api(return_format="dict", print_info=False)
    names = set(info["named_endpoints"])
    for required in ("/load_item", "/save_item", "/next_item", "/prev_item", "/search_items",
                     "/diff_revisions", "/restore_revision", "/import_file",
                     "/export_file", "/stats"):
        assert required in names
    assert "/autosave_draft" not in names and "/add_clue" not in names
    assert not info["unnamed_endpoints"]


def test_opening_an_item_shows_progress_on_the_annotator_alone(server):
    config = json.loads(urllib.request.urlopen(server.url + "/config").read())
    ids = {c["props"].get("elem_id"): c["id"] for c in config["components"]}
    deps = {d["api_name"]: d for d in config["dependencies"]}
    for name in ("open_initial", "load_item", "select_item", "next_item", "prev_item"):
        assert deps[name]["show_progress_on"] == [ids["annotator"]], name
        assert len(deps[name]["outputs"]) > 20
    assert deps["init_browser"]["show_progress_on"] == [ids["item-list"]]


def test_the_list_form_and_save_bar_are_built_after_the_first_item(server):
    """A fresh page builds the annotator's column first; the item list, the form and the
    save bar start invisible (Gradio builds no invisible component) and init_browser,
    chained after open_initial, shows them."""
    config = json.loads(urllib.request.urlopen(server.url + "/config").read())
    by_elem = {c["props"].get("elem_id"): c for c in config["components"]}
    panels = [by_elem[e] for e in ("item-browser-body", "item-form", "item-footer")]
    assert [p["props"]["visible"] for p in panels] == [False, False, False]
    for shown_at_once in ("annotator", "item-id", "next-item", "image-strip"):
        assert by_elem[shown_at_once]["props"].get("visible", True) is True
    deps = {d["api_name"]: d for d in config["dependencies"]}
    init = deps["init_browser"]
    assert init["trigger_after"] == deps["open_initial"]["id"]
    assert {p["id"] for p in panels} <= set(init["outputs"])


def test_load_and_save_through_the_api(server):
    c = client(server.url)
    loaded = c.predict("ui/gamma", api_name="/load_item")
    assert loaded[0] == "ui/gamma" and loaded[7] == "Pick the colour of the sign."
    out = c.predict(*save_args(loaded, "Pick the sign's colour.", "api edit"),
                    api_name="/save_item")
    assert "version 2" in " ".join(str(x) for x in out)
    con = sqlite3.connect(server.db)
    assert con.execute("SELECT question, version FROM items WHERE id='ui/gamma'").fetchone() == (
        "Pick the sign's colour.", 2)
    assert con.execute("SELECT author, comment FROM revisions WHERE item_id='ui/gamma' "
                       "AND version=2").fetchone() == ("local", "api edit")


def test_stale_save_through_the_api_is_a_conflict(server):
    first, second = client(server.url), client(server.url)
    a = first.predict("ui/beta", api_name="/load_item")
    b = second.predict("ui/beta", api_name="/load_item")
    first.predict(*save_args(a, "First?", ""), api_name="/save_item")
    out = second.predict(*save_args(b, "Second?", ""), api_name="/save_item")
    assert any("was changed by you, in another tab or window" in str(x) for x in out)
    con = sqlite3.connect(server.db)
    assert con.execute("SELECT question FROM items WHERE id='ui/beta'").fetchone() == ("First?",)


def test_next_item_walks_the_filtered_list(server):
    c = client(server.url)
    c.predict("ui/alpha", api_name="/load_item")
    c.predict("(all)", "(all)", "(all)", "(all)", "all", "", 1, api_name="/search_items")
    assert c.predict(api_name="/next_item")[0] == "ui/beta"
    last = server.ids[-1]
    c.predict(last, api_name="/load_item")
    # at the end: said (a toast), and nothing changes (the item is not opened again)
    assert c.predict(api_name="/next_item")[:2] == (
        {"__type__": "update"}, {"props": {"__type__": "update"}, "__type__": "update"})


def test_login_required_guards_pages_api_and_media(tmp_path):
    db = tmp_path / "auth.db"
    build_ui_db(db)
    subprocess.run([sys.executable, str(ROOT / "app.py"), "user", "add", "ann", "--role",
                    "annotator", "--db", str(db)], check=True,
                   env={**os.environ, "CLUELAB_PASSWORD": "correct horse"})
    srv = LiveServer(db, "--auth")
    try:
        media = next((tmp_path / "auth-media").rglob("*.png"))
        for path in ("/gradio_api/info", f"/gradio_api/file={media}"):
            with pytest.raises(urllib.error.HTTPError) as err:
                urllib.request.urlopen(srv.url + path, timeout=10)
            assert err.value.code in (401, 403)
        with pytest.raises(Exception):
            client(srv.url).predict("ui/alpha", api_name="/load_item")
        with pytest.raises(Exception):
            client(srv.url, auth=("ann", "wrong password"))
        c = client(srv.url, auth=("ann", "correct horse"))
        loaded = c.predict("ui/alpha", api_name="/load_item")
        c.predict(*save_args(loaded, "Which exit?", ""), api_name="/save_item")
        con = sqlite3.connect(db)
        assert con.execute("SELECT updated_by FROM items WHERE id='ui/alpha'").fetchone() == ("ann",)
    finally:
        srv.stop()


def test_no_auth_is_refused_off_loopback(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "app.py"), "--db", str(tmp_path / "x.db"),
                           "--host", "0.0.0.0", "--no-auth"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and "loopback" in done.stderr
    assert not (tmp_path / "x.db").exists()


def test_new_database_is_seeded_with_the_demo(tmp_path):
    db = tmp_path / "fresh.db"
    srv = LiveServer(db)
    try:
        c = client(srv.url)
        loaded = c.predict("demo/park-season", api_name="/load_item")
        assert loaded[0] == "demo/park-season"
    finally:
        srv.stop()
    con = sqlite3.connect(db)
    assert con.execute("SELECT count(*) FROM items WHERE dataset='demo'").fetchone()[0] >= 12


def test_import_and_export_through_the_ui_api(server, tmp_path):
    from gradio_client import handle_file

    c = client(server.url)
    # a server path must lie inside the import roots: locally, the server's working folder
    demo_dir = server.db.parent / "demo-import"
    shutil.copytree(ROOT / "assets" / "demo", demo_dir)
    report, *_ = c.predict("jsonl", None, str(demo_dir / "demo.jsonl"), "", "",
                          api_name="/import_file")
    assert "imported:   14" in report or "imported: 14" in report.replace("  ", " ")
    hostile = tmp_path / "evil.zip"
    import zipfile

    with zipfile.ZipFile(hostile, "w") as zf:
        zf.writestr("../../escape.jsonl", "{}")
    with pytest.raises(Exception, match="unsafe path"):
        c.predict("jsonl", handle_file(str(hostile)), "", "", "", api_name="/import_file")
    assert not (tmp_path.parent / "escape.jsonl").exists()
    path, summary, line = c.predict("coco", "demo", api_name="/export_file")
    assert summary["annotations"] > 0 and html.unescape(line) == "demo: 14 items"
    assert path["orig_name"] in ("demo-coco.json", "demo-coco.zip")
    # the summary names the download and its files, never the server's temporary folder
    assert summary["download"] == path["orig_name"] and "paths" not in summary
    assert summary["files"][0] == "demo-coco.json"
    assert tempfile.gettempdir() not in json.dumps(summary) and "cluelab-export" not in \
        json.dumps(summary)


def test_users_added_before_the_first_start_do_not_stop_the_demo_seeding(tmp_path):
    """The README's --auth path adds users first (which creates the database); the first
    start still seeds the demo, and a later one seeds nothing more."""
    from cli.serve_command import open_seeded

    db = tmp_path / "auth.db"
    done = subprocess.run([sys.executable, str(ROOT / "app.py"), "user", "add", "ada", "--role",
                           "admin", "--db", str(db)], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "CLUELAB_PASSWORD": "pw-123456"})
    assert done.returncode == 0, done.stderr
    store = open_seeded(db)
    items = len(store.list_items())
    store.close()
    demo = (ROOT / "assets" / "demo" / "demo.jsonl").read_text(encoding="utf-8").splitlines()
    assert items == len([line for line in demo if line.strip()]) == 14
    store = open_seeded(db)
    assert len(store.list_items()) == items
    store.close()


BOXES = 4  # the annotator in load_item's outputs


def test_a_save_takes_back_the_boxes_value_load_item_returned(server):
    """save_item given the annotator's value exactly as load_item returned it (a box's colour
    as [r, g, b], inside Gradio's update) saves; it was refused as 'value 17 (Clue boxes) is
    not of the kind its control takes' (the annotator read a colour as text only)."""
    c = client(server.url)
    loaded = c.predict("ui/alpha", api_name="/load_item")
    drawn = {**loaded[BOXES]["value"], "boxes": [     # a box as the browser sends it
        {"label": "clue 1", "color": "rgb(230, 25, 75)", "xmin": 300, "ymin": 200,
         "xmax": 420, "ymax": 260}]}
    c.predict(*save_args(loaded, "Which exit?", "")[:-2], drawn, "", api_name="/save_item")
    c = client(server.url)      # a new session: the page's values are all sent again
    loaded = c.predict("ui/alpha", api_name="/load_item")
    assert [b["color"] for b in loaded[BOXES]["value"]["boxes"]] == [[230, 25, 75]]
    for question, value in (("Which exit is it?", loaded[BOXES]),       # the update,
                            ("Which exit is this?", loaded[BOXES]["value"])):  # its value
        out = c.predict(*save_args(loaded, question, "")[:-2], value, "",
                        api_name="/save_item")
        assert "Saved" in " ".join(str(x) for x in out), out
        c = client(server.url)
        loaded = c.predict("ui/alpha", api_name="/load_item")
        assert len(loaded[BOXES]["value"]["boxes"]) == 1
