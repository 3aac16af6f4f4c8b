"""A refused action fails for every caller that is not a page of this site (ui/handler_errors.py):
gradio_client and a raw queue caller get the error (success false); a page gets one warning
and its outputs as they were (the error would put "Error" on every output, and on the status
line where the refusal belongs). Before, a raw queue caller (no `x-gradio-user: api`) read a
refused save of a released item as `success: true`."""
import asyncio
from types import SimpleNamespace

import gradio as gr
import pytest
from gradio.context import LocalContext

from ui import messages
from ui.handler_errors import from_script, shown_as_message


def refused_save(_work):
    raise messages.error("item x is released and read-only")


def as_request(headers: dict):
    return SimpleNamespace(headers=headers)


def test_a_call_that_names_no_page_is_a_scripts():
    assert from_script(as_request({}))                                 # a raw queue caller
    assert from_script(as_request({"x-gradio-user": "api", "origin": "http://h"}))
    assert not from_script(as_request({"origin": "http://127.0.0.1:7860"}))    # a page


def test_a_refusal_is_raised_for_a_raw_queue_caller():
    token = LocalContext.request.set(as_request({}))
    try:
        with pytest.raises(gr.Error, match="released and read-only"):
            shown_as_message(refused_save, 3)(None)
    finally:
        LocalContext.request.reset(token)


def test_a_page_gets_its_outputs_unchanged_and_one_warning():
    token = LocalContext.request.set(as_request({"origin": "http://127.0.0.1:7860"}))
    try:
        assert shown_as_message(refused_save, 3)(None) == [gr.skip()] * 3
    finally:
        LocalContext.request.reset(token)


def test_a_bug_fails_naming_only_its_type():
    def broken():
        raise KeyError("/secret/path/file.json")

    with pytest.raises(gr.Error) as caught:
        shown_as_message(broken, 1)()
    assert "KeyError" in caught.value.message and "secret" not in caught.value.message


def test_an_async_refusal_is_raised():
    async def refused():
        raise messages.error("no")

    with pytest.raises(gr.Error):
        asyncio.run(shown_as_message(refused, 2)())


def test_a_wrong_count_of_values_is_logged_without_them(caplog):
    """Gradio's own message about a handler returning too many or too few values quotes
    every value (gold answers, item texts) in the server's log."""
    token = LocalContext.request.set(as_request({"origin": "http://127.0.0.1:7860"}))
    try:
        with caplog.at_level("ERROR", logger="cluelab.ui"):
            assert shown_as_message(lambda: ["gold Canada", 2, 3], 2)() == ["gold Canada", 2]
            assert shown_as_message(lambda: ("gold Canada",), 3)() == [gr.skip()] * 3
            assert shown_as_message(lambda: ["a", "b"], 2)() == ["a", "b"]
            assert shown_as_message(lambda: ("one", "tuple"), 1)() == ("one", "tuple")
    finally:
        LocalContext.request.reset(token)
    assert [r.getMessage().split(" returned ")[1] for r in caplog.records] == [
        "3 values for 2 outputs", "1 values for 3 outputs"]
    assert "Canada" not in caplog.text
