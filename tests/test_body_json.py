"""A request's JSON is read once at the door (ui/body_json.py) and refused with a 400 that
names the rule when Gradio would choke on it: too long an array, NaN or Infinity.

A save_item whose clue table had 1,000,000 empty rows (15 MB) held the server 13.8 s and a
few at once stalled everyone's load_item for 40-50 s; a join whose fn_index was NaN got a
500 "Server error" and logged a line per request (a security review)."""
from __future__ import annotations

import asyncio
import logging
import time

import pytest

from domain.limits import MAX_JSON_ARRAY, MAX_JSON_VALUES
from tests.live_server import start_ui_server
from tests.queue_caller import QueueCaller
from ui import body_json, route_answers

PASSWORD = "body-json-pw-1"
JSON = {"content-type": "application/json"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = start_ui_server(tmp_path_factory.mktemp("body_json"),
                          {"anna": "annotator", "pat": "participant"}, PASSWORD)
    yield srv
    srv.stop()


def save_item_join(config: dict, rows: list, session: str) -> dict:
    """A join of save_item as the page sends it, its clue table holding `rows`."""
    values = {c["id"]: c.get("props", {}).get("value") for c in config["components"]}
    ids = {c["id"]: c.get("props", {}).get("elem_id") for c in config["components"]}
    dep = next(d for d in config["dependencies"] if d["api_name"] == "save_item")
    data = [{"headers": ["clue", "reasoning", "boxes", "source"], "data": rows, "metadata": None}
            if ids[i] == "clue-table" else values.get(i) for i in dep["inputs"]]
    return {"data": data, "fn_index": dep["id"], "session_hash": session,
            "event_data": None, "trigger_id": None}


def test_a_save_with_a_million_rows_is_refused_before_gradio_reads_it(server):
    anna = QueueCaller(server.url, ("anna", PASSWORD))
    config = anna.config()
    for k, rows in enumerate(([["", "", "", ""]] * 1_000_000,          # one array too long
                              [[""] * 11] * 10_000)):                  # too many in all
        started = time.monotonic()
        reply = anna.http.post("/gradio_api/queue/join",
                               json=save_item_join(config, rows, f"annamillion{k}"))
        assert (reply.status_code, reply.json()) == (400, body_json.TOO_LONG)
        # the 400 TOO_LONG is our guard's; the time only shows Gradio did not parse it
        # first (13.8 s of the server before, unloaded): generous, for a loaded machine
        assert time.monotonic() - started < 10
    assert f"{MAX_JSON_ARRAY:,}" in body_json.TOO_LONG["detail"]
    assert f"{MAX_JSON_VALUES:,}" in body_json.TOO_LONG["detail"]
    # a real save (a hundred clues) is taken
    hundred = [[f"clue {n}", "", "", ""] for n in range(100)]
    reply = anna.http.post("/gradio_api/queue/join",
                           json=save_item_join(config, hundred, "annahundred0"))
    assert reply.status_code == 200, reply.text
    assert anna.answers(config, only={"load_item"})["load_item"] != "no answer"


def test_nan_and_infinity_are_a_400_not_a_server_error(server):
    pat = QueueCaller(server.url, ("pat", PASSWORD)).http
    bodies = [b'{"fn_index": NaN, "data": [], "session_hash": "abcnan0"}',
              b'{"fn_index": 0, "data": [Infinity], "session_hash": "abcnan1"}',
              b'{"fn_index": 0, "data": [-Infinity], "session_hash": "abcnan2"}',
              b'{"fn_index": 1e309, "data": [], "session_hash": "abcnan3"}']
    answers = [pat.post("/gradio_api/queue/join", content=b, headers=JSON) for b in bodies]
    answers += [pat.post("/gradio_api/cancel", headers=JSON,
                         content=b'{"session_hash": "abcnan4", "event_id": NaN}'),
                pat.post("/gradio_api/call/load_item", headers=JSON,
                         content=b'{"data": [NaN]}')]
    for answer in answers:
        assert (answer.status_code, answer.json()) == (400, body_json.NOT_PLAIN), answer.text
    before = server.log.read_text().count("not plain JSON")
    for _ in range(200):
        assert pat.post("/gradio_api/queue/join", content=bodies[0],
                        headers=JSON).status_code == 400
    log = server.log.read_text()
    assert log.count("not plain JSON") - before <= 1          # a line each before
    assert "failed (ValueError)" not in log and "Traceback" not in log


def test_a_routes_failures_are_logged_once_a_minute_with_a_count(caplog):
    """without_traceback logged one line per failed request (2,000 requests: 2,000 lines)."""
    async def failing(scope, receive, send):
        raise ValueError("a value the client sent")

    async def sent(message):
        pass

    async def fail_many():
        for _ in range(50):
            await route_answers.without_traceback(failing, {"type": "http"}, None, sent,
                                                  "/gradio_api/queue/quiet-test")
    with caplog.at_level(logging.WARNING, logger="cluelab.routes"):
        asyncio.run(fail_many())
    lines = [r.getMessage() for r in caplog.records if "quiet-test" in r.getMessage()]
    assert lines == ["request to /gradio_api/queue/quiet-test failed (ValueError)"]
    assert "a value the client sent" not in caplog.text


def test_reading_a_body_refuses_what_gradio_chokes_on():
    assert body_json.read(b'{"a": [1, 2.5, "x"]}') == ({"a": [1, 2.5, "x"]}, None)
    assert body_json.read(b"") == (body_json.NOT_JSON, None)
    assert body_json.read(b"username=a") == (body_json.NOT_JSON, None)       # Gradio's to say
    assert body_json.read(b"[" * 100_000 + b"]" * 100_000)[1] == body_json.TOO_DEEP
    for text in (b"NaN", b"[Infinity]", b'{"a": -Infinity}', b"[1e309]", b"-1e400"):
        assert body_json.read(text)[1] == body_json.NOT_PLAIN, text
    assert body_json.read(b"[" + b"0," * MAX_JSON_ARRAY + b"0]")[1] == body_json.TOO_LONG
    assert body_json.read(b"[" + b"0," * (MAX_JSON_ARRAY - 1) + b"0]")[1] is None
    wide = b'{"d": {' + b",".join(b'"k%d": 0' % n for n in range(MAX_JSON_ARRAY + 1)) + b"}}"
    assert body_json.read(wide)[1] == body_json.TOO_LONG                     # an object too
