"""A handler that fails shows one message and leaves its outputs as they were.

Why: when a handler raises (gr.Error included), Gradio marks every output of the event with a
red "Error" badge, so one refused filter (say, a flip filter left over from another run) put
badges over the whole results list. Instead, in the browser, the failure becomes one warning
toast and every output gets gr.skip(). A script (gradio_client sends `x-gradio-user: api`)
still gets the error raised, so it cannot mistake a refusal for a result.

Applied per page in one place: `with messages_for_errors():` around the code that wires a
page's events wraps every handler registered inside it. gr.Error messages were escaped by
ui.messages.error when made (toasts render HTML); anything else is a bug: its traceback
goes to the server log and the message names only its type (an exception's text may quote a
file or a server's reply).
"""
from __future__ import annotations

import contextlib
import functools
import inspect
import logging
from typing import Iterator

import gradio as gr
from gradio.context import Context, LocalContext

from ui import messages

log = logging.getLogger("cluelab.ui")
WRAPPED = "_cluelab_messages_for_errors"


def from_script(request=None) -> bool:
    """Does a script make this call (gradio_client sends `x-gradio-user: api`), not a page?
    `request`: the gr.Request, by default the current event's."""
    request = request if request is not None else LocalContext.request.get(None)
    headers = getattr(request, "headers", None) or {}
    return headers.get("x-gradio-user") == "api"


def unchanged(n_outputs: int):
    """What a handler returns to leave its `n_outputs` outputs as they were."""
    if n_outputs == 0:
        return None
    return gr.skip() if n_outputs == 1 else [gr.skip()] * n_outputs


def _instead(error: Exception, n_outputs: int):
    """What the browser gets for a failed handler: a warning, the outputs as they were."""
    if from_script():
        raise error
    if isinstance(error, gr.Error):
        messages.warn_instead(error)
    else:
        log.exception("handler failed")
        messages.warn(f"Something went wrong on the server ({type(error).__name__}); "
                      "nothing was changed on this page. The details are in the server's log.")
    return unchanged(n_outputs)


def shown_as_message(fn, n_outputs: int):
    """`fn` (a plain or async handler) with its failures turned into one message."""
    if getattr(fn, WRAPPED, False) or inspect.isgeneratorfunction(fn) \
            or inspect.isasyncgenfunction(fn):
        return fn
    if inspect.iscoroutinefunction(fn):
        @functools.wraps(fn)
        async def wrapper(*args, **kwargs):
            try:
                return await fn(*args, **kwargs)
            except Exception as error:  # noqa: BLE001 - every failure becomes a message
                return _instead(error, n_outputs)
    else:
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except Exception as error:  # noqa: BLE001 - every failure becomes a message
                return _instead(error, n_outputs)
    setattr(wrapper, WRAPPED, True)
    return wrapper


@contextlib.contextmanager
def messages_for_errors() -> Iterator[None]:
    """Wrap every handler registered inside the block with `shown_as_message`."""
    root = Context.root_block
    before = set(root.fns) if root is not None else set()
    yield
    if root is None:
        return
    for key, block_fn in root.fns.items():
        if key not in before and block_fn.fn is not None:
            block_fn.fn = shown_as_message(block_fn.fn, len(block_fn.outputs))
