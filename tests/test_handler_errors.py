"""A refused action fails for every client (ui/handler_errors.py): a page's call, a raw queue
caller's and gradio_client's alike get the error, never a warning and a normal return."""
import asyncio

import gradio as gr
import pytest

from ui import messages
from ui.handler_errors import shown_as_message


def test_a_refusal_is_raised_for_a_page_call_too():
    """A refused save of a released item answered a raw queue caller `success: true`, the
    refusal only in a warning toast."""
    def refused_save(_work):
        raise messages.error("item x is released and read-only")

    wrapped = shown_as_message(refused_save, 3)
    with pytest.raises(gr.Error, match="released and read-only"):
        wrapped(None)                      # no request: a page's call, no x-gradio-user


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
