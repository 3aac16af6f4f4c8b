"""Every message the app shows the user: toasts (info, warning, error) and status lines.

Gradio renders a toast's message as HTML, and a message often quotes untrusted text (an
item id from an imported file, a URL parameter, a server's reply, a file name). So handlers
build plain text, never escaped, and it is escaped here, exactly once, where it is shown:
a `<form>` in `?item=` shows as the characters `<form>`, not as a form. No other module
calls gr.Info / gr.Warning / gr.Error (tests/test_messages.py checks the ui/ tree).

    messages.info("Saved …")            a green toast
    messages.warn(f"No item {item_id}")  a yellow toast
    raise messages.error(str(err))       a red toast that stops the event
    messages.status(text)                a status line shown in a gr.Markdown

Each says a command-line remedy in the page's words (ui/page_words.py): "--runs" is no
control of a page.
"""
from __future__ import annotations

import html

import gradio as gr

from ui.page_words import on_page
from ui.text import escape_md, without_overrides


def as_toast_text(message) -> str:
    """A toast's HTML that shows `message` as it is. Quotes stay: a toast's text is no
    attribute, and API clients read the message as written."""
    return html.escape(without_overrides(on_page(message)), quote=False)


def info(message) -> None:
    gr.Info(as_toast_text(message))


def warn(message) -> None:
    gr.Warning(as_toast_text(message))


def warn_instead(caught: gr.Error) -> None:
    """A caught error shown as a warning (ui/handler_errors.py: the event's outputs stay as
    they were). Its message was escaped when the error was made: not escaped again."""
    gr.Warning(caught.message, title=caught.title)


def error(message, *, quiet: bool = False) -> gr.Error:
    """The error to raise (`raise messages.error(...) from None`): the event stops and the
    page shows the message as text. `quiet`: no traceback in the server's log (a refusal
    by the access policy is no failure). A script's call (gradio_client) gets the message
    as written: it reads JSON, not HTML, and got `a domain may not hold "&lt;"`."""
    text = without_overrides(on_page(message)) if script_call() else as_toast_text(message)
    return gr.Error(text, print_exception=not quiet)


def script_call() -> bool:
    """Is the current event a script's call? Outside an event (no request known) the text
    is taken to reach a page: escaped."""
    from gradio.context import LocalContext
    from ui.handler_errors import from_script      # it imports this module
    request = LocalContext.request.get(None)
    return request is not None and from_script(request)


def status(message) -> str:
    """A status line for a gr.Markdown output: shown literally, never as markup or a link."""
    return escape_md(without_overrides(on_page(message)))


def require_open(work) -> dict:
    """The open item's work state. An event that needs one, called before any item is open
    (by a script, or by a page still loading), is refused with this one message."""
    if not work:
        raise error("open an item first")
    return work
