"""No reason, message or stored error quotes what an endpoint sent (runner/replies.py): an
error body may echo the key, carry other secrets or hostile text. Against the real fake
OpenAI server, each way a reply can fail, through the client, a run and Test connection."""
import asyncio
import json
import sqlite3

import pytest

from runner.client import ChatClient, RequestFailed
from tests.openai_server import start_server
from tests.test_runner_engine import launch
from ui import experiments_endpoints as xe

PLANTED = "PLANTED-remote-text-9f8e7d"
HOSTILE = f'<img src="http://127.0.0.1:9/x.png"> {PLANTED} =HYPERLINK("http://127.0.0.1:9")'


@pytest.fixture(scope="module")
def server():
    with start_server() as handle:
        yield handle


@pytest.fixture
def fake(server):
    server.configure(reset=True, error_text=HOSTILE)
    server.reset_log()
    return server


def assert_quotes_nothing(text: str) -> None:
    assert PLANTED not in text and "<img" not in text and "HYPERLINK" not in text, text


def chat_failure(url: str, stream: bool) -> RequestFailed:
    body = {"model": "fake-vlm", "stream": stream,
            "messages": [{"role": "user", "content": "Which one? A. x B. y"}]}

    async def attempt():
        client = ChatClient(url, None, timeout=5)
        try:
            await (client.chat_stream(body) if stream else client.chat(body))
        except RequestFailed as failure:
            return failure
        finally:
            await client.close()
        raise AssertionError("the request did not fail")
    return asyncio.run(attempt())


@pytest.mark.parametrize("action, stream, expected", [
    ("400", False, "HTTP 400 from {url}/chat/completions (invalid_request_error)"),
    ("500", False, "HTTP 500 from {url}/chat/completions (server_error)"),
    ("429", True, "HTTP 429 from {url}/chat/completions (rate_limit_exceeded)"),
    ("html_502", False, "HTTP 502 from {url}/chat/completions"),
    ("error_200", False, "malformed body from {url}/chat/completions: an error instead of "
                         "choices (server_error)"),
    ("stream_error", True, "error in stream from {url}/chat/completions (server_error)"),
])
def test_a_failed_reply_is_summarised_not_quoted(fake, action, stream, expected):
    fake.configure(script=[action])
    failure = chat_failure(fake.url, stream)
    assert failure.reason == expected.format(url=fake.url)
    assert_quotes_nothing(failure.reason + repr(failure.args))


def test_a_runs_stored_error_quotes_nothing(fake, store, make_item):
    store.add_endpoint("fake", fake.url, "fake-vlm", concurrency=1)
    store.create_item(make_item("demo/Q_0"), "t")
    fake.configure(script=["400"])
    outcome = launch(store, ["demo/Q_0"], setting="direct")
    [result] = store.run_results(outcome.run_id)
    assert result["status"] == "error" and result["reason"].startswith("HTTP 400 from ")
    con = sqlite3.connect(store.path)
    try:
        everything = json.dumps([con.execute(f"SELECT * FROM {table}").fetchall()
                                 for (table,) in con.execute(
                                     "SELECT name FROM sqlite_master WHERE type='table'")],
                                default=repr)
    finally:
        con.close()
    assert_quotes_nothing(everything)


def test_test_connection_says_status_class_and_count_only(fake, store, monkeypatch):
    """A refused key with a hostile error text, then a server whose model ids are hostile."""
    monkeypatch.setenv("XP_KEY", "wrong-key-value")
    fake.configure(api_key="right-key-value")
    refused = xe.test_connection(store, "", fake.url, "fake-vlm", "XP_KEY")
    assert refused["kind"] == "unauthorized"
    assert refused["message"].startswith(f"endpoint (unsaved) ({fake.url}, model fake-vlm): "
                                         f"HTTP 401 from {fake.url}/models (invalid_api_key)")
    assert_quotes_nothing(refused["message"] + refused["markdown"])
    fake.configure(api_key=None, models=[HOSTILE, "other"])
    unknown = xe.test_connection(store, "", fake.url, "fake-vlm", "")
    assert unknown["kind"] == "unknown_model" and "(2 models listed" in unknown["message"]
    assert_quotes_nothing(unknown["message"] + unknown["markdown"])
    fake.configure(models=[HOSTILE, "fake-vlm"])
    ok = xe.test_connection(store, "", fake.url, "fake-vlm", "")
    assert ok["ok"] and "(2 models listed)" in ok["message"]
    assert_quotes_nothing(ok["message"] + ok["markdown"])
