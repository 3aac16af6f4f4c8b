"""A handler that fails shows one message and leaves its outputs as they were.

Why: when a handler raises (gr.Error included), Gradio marks every output of the event with a
red "Error" badge, so one refused filter (say, a flip filter left over from another run) put
badges over the whole results list, and a status line read "Error" instead of the refusal.
Instead, in this site's pages, the failure becomes one warning toast and every output gets
gr.skip(). Every other caller (gradio_client, a raw queue caller: anything that is not a page
of this site, see from_script) gets the error raised, success false, so that it cannot
mistake a refusal for a result.

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
    """Does a script make this call, not a page of this site? gradio_client says so
    (`x-gradio-user: api`); a browser names the page's origin on every POST (and pages of
    other sites are refused before any event: gradio_hooks.foreign_origin), so a call that
    names none is a script's. `request`: the gr.Request, by default the current event's."""
    request = request if request is not None else LocalContext.request.get(None)
    headers = getattr(request, "headers", None) or {}
    return headers.get("x-gradio-user") == "api" or not headers.get("origin")


def unchanged(n_outputs: int):
    """What a handler returns to leave its `n_outputs` outputs as they were."""
    if n_outputs == 0:
        return None
    return gr.skip() if n_outputs == 1 else [gr.skip()] * n_outputs


def _instead(error: Exception, n_outputs: int):
    """What a failed handler gives: a page, one warning and its outputs as they were; any
    other caller, the error (success false). A gr.Error was escaped when made; any other
    exception is a bug, logged, its text never sent."""
    if isinstance(error, gr.Error):     # a handler's refusal: no failure, no traceback
        error.print_exception = False
    else:
        log.exception("handler failed")
        error = messages.error(f"Something went wrong on the server ({type(error).__name__}); "
                               "nothing was changed on this page. The details are in the "
                               "server's log.", quiet=True)
    if from_script():
        raise error
    messages.warn_instead(error)
    return unchanged(n_outputs)


def _counted(fn, result, n_outputs: int):
    """`result` fitted to the event's outputs. A handler that returns another count of values
    is a bug; Gradio's own message about it (a warning for too many, an error for too few)
    quotes every value returned, which put gold answers and item texts in the server log:
    here the log names the handler and the counts only, too many are cut (as Gradio does)
    and too few leave the outputs as they were."""
    if n_outputs < 2 or not isinstance(result, (list, tuple)) or len(result) == n_outputs:
        return result
    log.error("handler %s returned %d values for %d outputs", getattr(fn, "__qualname__", fn),
              len(result), n_outputs)
    return list(result[:n_outputs]) if len(result) > n_outputs else unchanged(n_outputs)


def shown_as_message(fn, n_outputs: int):
    """`fn` (a plain or async handler) with its failures turned into one message."""
    if getattr(fn, WRAPPED, False) or inspect.isgeneratorfunction(fn) \
            or inspect.isasyncgenfunction(fn):
        return fn
    if inspect.iscoroutinefunction(fn):
        @functools.wraps(fn)
        async def wrapper(*args, **kwargs):
            try:
                return _counted(fn, await fn(*args, **kwargs), n_outputs)
            except Exception as error:  # noqa: BLE001 - every failure becomes a message
                return _instead(error, n_outputs)
    else:
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            try:
                return _counted(fn, fn(*args, **kwargs), n_outputs)
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
