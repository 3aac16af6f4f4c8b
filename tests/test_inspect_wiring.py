"""The Inspect tab as an API: real server process, gradio_client, real SQLite."""
import json
import sqlite3

import pytest
from gradio_client import Client

from tests.inspect_helpers import build_inspect_db
from tests.live_server import LiveServer

ENDPOINTS = ("/inspect_open_tab", "/inspect_judges", "/inspect_filter", "/inspect_next_page",
             "/inspect_prev_page", "/inspect_open", "/inspect_select", "/inspect_next",
             "/inspect_prev", "/inspect_image", "/inspect_zoom_gt", "/inspect_zoom_model",
             "/inspect_verdict_detail", "/inspect_save_tags", "/inspect_add_tag",
             "/inspect_add_note", "/inspect_compare", "/inspect_tag_counts", "/inspect_export")
NO_FILTER = ["(all)", "(all)", "(all)", "", "(all)", "offline", "(any)", "(any)", "(any)",
             "(any)", False, "(none)", "(no flip filter)", "(off)"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("inspect-wiring") / "ui.db"
    ids = build_inspect_db(db)
    srv = LiveServer(db, "--no-auth")
    srv.db, srv.ids = db, ids
    yield srv
    srv.stop()


def client(url):
    return Client(url, verbose=False, download_files=False)


def test_every_inspect_event_is_named(server):
    info = client(server.url).view_api(return_format="dict", print_info=False)
    assert set(ENDPOINTS) <= set(info["named_endpoints"])
    assert not info["unnamed_endpoints"]


def test_open_filter_walk_tag_and_export(server):
    a, b = server.ids["a"], server.ids["b"]
    c = client(server.url)
    out = c.predict(str(a["ui/alpha"]), api_name="/inspect_open")
    assert out[0] == str(a["ui/alpha"]) and "ui/alpha" in out[1]
    assert "inspect-cache/ov-" in out[5]["path"] and "inspect-cache/ov-" in out[8]["path"]
    assert out[7]["data"][0][0] == "GT1" and "judge llm:judge" in out[7]["data"][0][4]
    assert "EXIT 12" in out[11] and '?item=ui%2Falpha' in out[3]

    listing = c.predict("run order", "run-a", *NO_FILTER, "(any)", api_name="/inspect_filter")
    assert [row[0] for row in listing[0]["data"]] == [a["ui/alpha"], a["ui/beta"], a["ui/gamma"]]
    walked = c.predict(str(a["ui/alpha"]), api_name="/inspect_next")
    assert walked[0] == str(a["ui/beta"])

    message, tags, log = c.predict(str(a["ui/beta"]), ["perception error"],
                                   api_name="/inspect_save_tags")
    assert "perception error" in message and log["data"][0][:2] == ["perception error", "local"]
    c.predict(str(a["ui/beta"]), "platform sign misread", api_name="/inspect_add_note")
    con = sqlite3.connect(server.db)
    assert con.execute("SELECT tag, author, run_id FROM response_tags WHERE work_id = ?",
                       [a["ui/beta"]]).fetchall() == [("perception error", "local", "run-a")]
    assert con.execute("SELECT note, author FROM response_notes").fetchall() == [
        ("platform sign misread", "local")]
    found = c.predict("run order", "(all)", *NO_FILTER, "perception error",
                      api_name="/inspect_filter")
    assert [row[0] for row in found[0]["data"]] == [a["ui/beta"]]
    exported = c.predict("run-a", "json", "(any)", api_name="/inspect_export")
    with open(exported["path"]) as f:
        assert json.load(f)[0]["tags"][0]["tag"] == "perception error"

    compared = c.predict(str(a["ui/gamma"]), str(b["ui/gamma"]), api_name="/inspect_compare")
    assert "differ on general" in compared[0]
    assert ["general", "offline", "wrong", "correct", "◆ differs"] in compared[1]["data"]
    with pytest.raises(Exception):
        c.predict("not a number", api_name="/inspect_open")
