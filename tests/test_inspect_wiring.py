"""The Inspect tab as an API: real server process, gradio_client, real SQLite."""
import json
import sqlite3

import pytest
from gradio_client import Client

from tests.inspect_helpers import build_inspect_db
from tests.live_server import LiveServer, event_names

ENDPOINTS = ("/inspect_open_tab", "/inspect_judges", "/inspect_filter", "/inspect_next_page",
             "/inspect_prev_page", "/inspect_open", "/inspect_select", "/inspect_next",
             "/inspect_prev", "/inspect_image", "/inspect_zoom_gt", "/inspect_zoom_model",
             "/inspect_verdict_detail", "/inspect_save_tags", "/inspect_add_tag",
             "/inspect_add_note", "/inspect_compare", "/inspect_tag_counts", "/inspect_export",
             "/inspect_remove_tag", "/inspect_rename_tag", "/inspect_delete_tag",
             "/inspect_deep_link")
NO_FILTER = ["(all)", "(all)", "(all)", "", "(all)", "offline", "(any)", "(any)", "(any)",
             "(any)", False, "(none)", "(no flip filter)", "general", "(off)"]


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
    assert set(ENDPOINTS) <= event_names(server.url)


def test_open_filter_walk_tag_and_export(server):
    a, b = server.ids["a"], server.ids["b"]
    c = client(server.url)
    out = c.predict(str(a["ui/alpha"]), "offline", api_name="/inspect_open")
    assert out[0] == str(a["ui/alpha"]) and "ui/alpha" in out[1]
    assert "inspect-cache/ov-" in out[5]["path"] and "inspect-cache/ov-" in out[9]["path"]
    assert out[7]["data"][0][0] == "GT1" and "judge llm:judge" in out[7]["data"][0][4]
    assert "EXIT 12" in out[12] and '?item=ui%2Falpha' in out[3]

    listing = c.predict("run order", "run-a", *NO_FILTER, "(any)", api_name="/inspect_filter")
    assert [row[0] for row in listing[0]["data"]] == [a["ui/alpha"], a["ui/beta"], a["ui/gamma"]]
    walked = c.predict(str(a["ui/alpha"]), "offline", api_name="/inspect_next")
    assert walked[0] == str(a["ui/beta"])

    message, tags, log, _ = c.predict(str(a["ui/beta"]), ["perception error"],
                                      api_name="/inspect_save_tags")
    assert "perception error" in message and log["data"][0][:3] == [
        "perception error", "added", "local"]
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
    filtered = c.predict("(all)", "csv", "perception error", api_name="/inspect_export")
    assert filtered["path"].endswith("/cluelab-tagged-all-runs-perception-error.csv")

    compared = c.predict(str(a["ui/gamma"]), str(b["ui/gamma"]), "offline",
                         api_name="/inspect_compare")
    assert "differ on general" in compared[0]
    assert ["general", "offline", "wrong", "correct", "◆ differs"] in compared[1]["data"]
    with pytest.raises(Exception):
        c.predict("not a number", "offline", api_name="/inspect_open")


def test_remove_rename_flip_by_protocol_compare_images_and_old_gt(server):
    a, b = server.ids["a"], server.ids["b"]
    c = client(server.url)
    c.predict(str(a["ui/gamma"]), "offline", api_name="/inspect_open")  # fills the tag choices
    c.predict(str(a["ui/gamma"]), ["missed clue", "format error"], api_name="/inspect_save_tags")
    message, _, log, choice = c.predict(str(a["ui/gamma"]), "format error",
                                        api_name="/inspect_remove_tag")
    assert "removed format error" in message.replace("\\", "")
    assert ["format error", "removed", "local"] == [r[:3] for r in log["data"]
                                                     if r[1] == "removed"][0]
    assert [x[0] for x in choice["choices"]] == ["missed clue"]
    out = c.predict("missed clue", "Missed GT clue", str(a["ui/gamma"]), ["missed clue"],
                    api_name="/inspect_rename_tag")
    assert "Renamed" in out[0] and out[1]["value"] == ["Missed GT clue"]
    con = sqlite3.connect(server.db)
    assert con.execute("SELECT tag, author FROM response_tags WHERE work_id = ?",
                       [a["ui/gamma"]]).fetchall() == [("Missed GT clue", "local")]
    assert con.execute("SELECT action, tag, old_name, author FROM tag_events WHERE "
                       "work_id = ? OR action = 'rename' ORDER BY id", [a["ui/gamma"]]
                       ).fetchall() == [("tag", "missed clue", None, "local"),
                                        ("tag", "format error", None, "local"),
                                        ("untag", "format error", None, "local"),
                                        ("rename", "Missed GT clue", "missed clue", "local")]

    flips = NO_FILTER[:11] + ["run-a", "any flip", "rigorous", "(off)", "(any)"]
    found = c.predict("run order", "run-b", *flips, api_name="/inspect_filter")
    assert found[0]["data"] == [] and "No response matches" in found[1]
    flips[13] = "general"
    found = c.predict("run order", "run-b", *flips, api_name="/inspect_filter")
    assert [row[0] for row in found[0]["data"]] == [b["ui/beta"], b["ui/gamma"]]

    compared = c.predict(str(a["ui/alpha"]), str(b["ui/alpha"]), "offline",
                         api_name="/inspect_compare")
    assert [len(compared[k]) for k in (3, 6)] == [2, 2]  # both images of each response
    assert compared[3][1]["caption"].startswith("image 2")

    out = c.predict(str(a["ui/gamma"]), "offline", api_name="/inspect_open")
    assert out[8]["visible"] and "Ground truth of version 2" in out[8]["value"]
    assert "**Question:** *(changed since)* Pick the colour" in out[8]["value"]
    assert c.predict(str(a["ui/alpha"]), "offline", api_name="/inspect_open")[8] == {
        "__type__": "update", "value": "", "visible": False}


def test_a_link_naming_no_response_fills_the_page_and_logs_nothing_of_it(server):
    """`?response=abc` opened the page as usual but returned one value more than the event's
    outputs, and Gradio's warning about it wrote every value (run names, items, gold answers)
    to the server's log."""
    from tests.queue_caller import QueueCaller
    caller = QueueCaller(server.url)
    config = caller.config()
    dep = next(d for d in config["dependencies"] if d["api_name"] == "inspect_deep_link")
    session = "deeplinktest"
    reply = caller.http.post("/gradio_api/queue/join?response=abc", json={
        "data": [], "fn_index": dep["id"], "session_hash": session, "event_data": None,
        "trigger_id": None}, headers={"origin": server.url.rstrip("/")})
    assert reply.status_code == 200, reply.text
    with caller.http.stream("GET", "/gradio_api/queue/data", params={"session_hash": session},
                            timeout=60) as stream:
        done = next(json.loads(line[5:]) for line in stream.iter_lines()
                    if line.startswith("data:") and '"process_completed"' in line)
    assert done["success"], done
    assert len(done["output"]["data"]) == len(dep["outputs"])
    log = server.log.read_text()
    assert "Output values returned" not in log and "ui/alpha" not in log
    assert "returned" not in log or "values for" not in log
