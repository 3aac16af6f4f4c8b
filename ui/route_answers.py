"""The HTTP bodies the route middleware (ui/gradio_hooks.RouteAccess) sends, reads or rewrites.

Refused and not-found routes answer a fixed body that quotes nothing of the request:
{"detail": "Forbidden"} (403) and {"detail": "Not found"} (404). That holds for the
middleware's own refusals and for Gradio's answers alike (`fixed_errors`): Gradio's file
route answered "File not allowed: <the requested path>", and a path can carry markup or a
secret (a token pasted into a URL) that would then be shown back, or logged by whatever
reads the answer. The one exception is a page a signed-in user may not use: it gets
assets/no_page.html, which names that user (escaped), not the request.

The login page (`login_page`) says nothing about the app: Gradio embeds the whole API
description in it (every event, its parameters, code to call it) whoever asks, and the
annotator's preload links name a component; both are taken out (ui/workarounds.py,
GRADIO_LOGIN_API_INFO). It gets assets/login_lock.js in its head, without the script's
comments (they name ClueLab's files). A login's body is read here and handed on
(`read_body`, `replay`); any other request's body, but an upload's, is at most
MAX_EVENT_BODY (`limited`: a larger one gets a 413 with a fixed body); a body whose client
went before it was whole (ui/connection_limits.py cuts one that trickles) is CUT_OFF,
answered nothing and handed to no handler; and a POST's body is read as JSON once (ui/body_json.py: one nested too deep, NaN, or too long an array is
refused, `refuse_body`).
"""
from __future__ import annotations

import json
import logging
import re
from pathlib import Path

from ui.quiet_log import QuietLog

TOO_LARGE = {"detail": "Request too large: an event sends at most 16 MB."}
SMALL_TOO_LARGE = {"detail": "Request too large: a login or a cancel sends at most 64 KB."}
FILE_TOO_LARGE = {"detail": "File too large for this server's upload limit."}
NOT_UNDERSTOOD = {"detail": "The request's body is not what this route takes."}
FIXED = {403: {"detail": "Forbidden"}, 404: {"detail": "Not found"}, 413: FILE_TOO_LARGE,
         422: NOT_UNDERSTOOD}
"""The only bodies of a refused (403), not-found (404), too large (413) or unreadable (422)
request: Gradio's 413 for an upload over CLUELAB_MAX_UPLOAD named its own settings, and its
422 quoted the values it could not read back."""
NO_SUCH_EVENT = {"detail": "This app has no event of that name."}
NOT_LOGGED_IN = {"detail": "Not authenticated"}
"""What Gradio's own login check answers (its front end shows the login form on it)."""

LOGIN_SCRIPT = (Path(__file__).resolve().parent.parent / "assets" / "login_lock.js")


def bare_script(text: str) -> str:
    """A script without its comment lines (`// …`: they explain and name files)."""
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))


LOGIN_HEAD = (f"<script>{bare_script(LOGIN_SCRIPT.read_text(encoding='utf-8'))}</script>"
              "</head>").encode()
API_INFO = re.compile(rb"<script>window\.gradio_api_info = .*?</script>", re.DOTALL)
NO_API_INFO = (b'<script>window.gradio_api_info = {"named_endpoints": {}, '
               b'"unnamed_endpoints": {}};</script>')
PRELOADS = re.compile(rb'<link rel="(?:module)?preload"[^>]*/custom_component/[^>]*>\n?')


def bare_login_page(body: bytes) -> bytes:
    """Gradio's login page without the API description and the components' preload links,
    with assets/login_lock.js in its head."""
    body = PRELOADS.sub(b"", API_INFO.sub(lambda _: NO_API_INFO, body, count=1))
    return body.replace(b"</head>", LOGIN_HEAD, 1)
MAX_CANCEL_BODY = 64 * 1024
MAX_EVENT_BODY = 16 * 1024 * 1024
"""The most a request other than an upload may send: an event's values (a page sends a few
KB, an item with a hundred clues well under 1 MB). Without it any signed-in user could
send a 300 MB search text, held in the server's memory while the queue ran it."""
UPLOADS = ("/gradio_api/upload",)
"""Files go there, each at most CLUELAB_MAX_UPLOAD (ui/server.launch_kwargs)."""
SERVER_ERROR = {"detail": "Server error"}
log = logging.getLogger("cluelab.routes")
quiet = QuietLog(log)
"""A route's failures and refused bodies: a client can cause them at will, so each kind is
logged once a minute with a count (2,000 NaN joins wrote 2,000 lines)."""


SAFETY_HEADERS = (
    (b"x-frame-options", b"SAMEORIGIN"),
    (b"content-security-policy", b"frame-ancestors 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
)
"""On every answer: no other site may show a page of ClueLab in a frame (a page of another
site framed the Annotate page, transparent, over its own buttons, and its clicks saved or
deleted items as the logged-in user), a browser does not take a file for another type than
it is sent as, and no address of ClueLab (an item's, a response's) goes to other sites.
Listed in ui/workarounds.py (GRADIO_FRAMEABLE)."""


def with_safety_headers(send):
    """`send` that adds SAFETY_HEADERS to an answer (those it already has are kept)."""
    async def sending(message):
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", []))
            have = {name.lower() for name, _ in headers}
            headers += [(n, v) for n, v in SAFETY_HEADERS if n not in have]
            message = {**message, "headers": headers}
        await send(message)
    return sending


def no_store(send):
    """`send` for an answer no cache may keep (Cache-Control: no-store): the login page and
    /config, whose root URL and account are this request's."""
    async def sending(message):
        if message["type"] == "http.response.start":
            headers = [(n, v) for n, v in message.get("headers", [])
                       if n.lower() != b"cache-control"]
            message = {**message, "headers": [*headers, (b"cache-control", b"no-store")]}
        await send(message)
    return sending


async def send_json(send, status: int, value) -> None:
    body = json.dumps(value).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


async def redirect(send, location: str) -> None:
    """A 303 to `location` (an address of this app), with no body."""
    await send({"type": "http.response.start", "status": 303,
                "headers": [(b"location", location.encode("latin-1")),
                            (b"content-length", b"0")]})
    await send({"type": "http.response.body", "body": b""})


async def send_fixed(send, status: int) -> None:
    """A refusal (403) or a not-found (404), with its fixed body."""
    await send_json(send, status, FIXED[status])


def fixed_errors(send):
    """`send` for the app behind the middleware: a 403 or 404 it answers goes out with the
    fixed body instead of its own (whatever it quoted of the request); other answers pass."""
    fixed_status = None

    async def sending(message):
        nonlocal fixed_status
        if message["type"] == "http.response.start" and message.get("status") in FIXED:
            fixed_status = message["status"]
            return                      # sent with the fixed body once the app's body ends
        if fixed_status is not None and message["type"] == "http.response.body":
            if not message.get("more_body"):
                await send_fixed(send, fixed_status)
            return
        await send(message)
    return sending


def login_page(send):
    """`send` for Gradio's login page, made a bare one (`bare_login_page`); assets/
    login_lock.js is added because the page's config carries none of the app's head scripts
    (ui/workarounds.py, GRADIO_LOGIN_STATUS)."""
    return rewritten(send, lambda body: bare_login_page(body) if b"</head>" in body else body)


def rewritten(send, change):
    """`send` for an answer whose body goes out as `change(body)`: held until it is whole
    (its length changes), then sent with its new length. A compressed body passes as it is."""
    start, chunks = {}, []

    async def sending(message):
        if message["type"] == "http.response.start":
            if any(k.lower() == b"content-encoding" for k, _ in message.get("headers", [])):
                start["passing"] = True
                return await send(message)
            start.update(message)
            return
        if message["type"] != "http.response.body" or start.get("passing") or not start:
            return await send(message)
        chunks.append(message.get("body", b""))
        if message.get("more_body"):
            return
        body = change(b"".join(chunks))
        headers = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]
        await send({**start, "headers": [*headers, (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
    return sending


CUT_OFF = object()
"""What read_body and limited give for a body whose client went (uvicorn's http.disconnect)
before its end. The part that came was handed on as the whole body
(a login checked, an event's JSON read) to a client no longer there."""


async def read_body(receive, limit: int = MAX_CANCEL_BODY) -> bytes | None:
    """The whole body of a request (a login's few fields by default), None if it is more
    than `limit` (it is not read further), CUT_OFF if it never came whole."""
    chunks, size, more = [], 0, True
    while more:
        message = await receive()
        if message["type"] != "http.request":
            return CUT_OFF
        chunks.append(message.get("body", b""))
        size += len(chunks[-1])
        if size > limit:
            return None
        more = message.get("more_body", False)
    return b"".join(chunks)


async def without_traceback(app, scope, receive, send, entry: str | None) -> None:
    """The app behind, with a failure of one of Gradio's routes (a stream asked for a session
    it does not hold, an unknown api_name on /gradio_api/call/v2) logged as one line that
    names the route's entry and the error's type, not the request: uvicorn logged a
    traceback. A failure before the answer started gets a 500 with a fixed body."""
    started = False

    async def sending(message):
        nonlocal started
        started = started or message["type"] in ("http.response.start", "websocket.accept")
        await send(message)
    try:
        await app(scope, receive, sending)
    except Exception as err:  # noqa: BLE001 - every route's failure, without a traceback
        route, kind = entry or "an undeclared route", type(err).__name__
        quiet.warning(("failed", route, kind), f"request to {route} failed ({kind})")
        if scope["type"] != "http":
            return
        if started:                 # a stream: ended here (uvicorn logged it unfinished)
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        else:
            await send_json(send, 500, SERVER_ERROR)


SMALL_BODIES = ("/gradio_api/cancel",)
"""Routes whose body is a few ids: at most MAX_CANCEL_BODY (a login's is checked by
ui/login_route.py)."""


async def refuse_body(send, entry: str | None, refused: dict) -> None:
    """A 400 for a body ui/body_json.py refuses (`refused`: its fixed body, quoting nothing
    of the request), logged aggregated: a client may send thousands."""
    quiet.warning(("refused body", entry, refused["detail"]),
                  f"refused a request to {entry}: {refused['detail']}")
    await send_json(send, 400, refused)


def too_large(entry: str | None) -> dict:
    """The 413 body for a request to `entry` over its limit, naming that limit."""
    return SMALL_TOO_LARGE if entry in SMALL_BODIES else TOO_LARGE


async def limited(scope, receive, entry: str | None):
    """`receive` for the app: the request's body read whole and handed on when it is within
    its limit (MAX_CANCEL_BODY for SMALL_BODIES, else MAX_EVENT_BODY; uploads are not read
    here), None when it is larger, CUT_OFF when it never came whole."""
    if scope["type"] != "http" or entry in UPLOADS or scope.get("method") in ("GET", "HEAD"):
        return receive
    limit = MAX_CANCEL_BODY if entry in SMALL_BODIES else MAX_EVENT_BODY
    length = dict(scope.get("headers", [])).get(b"content-length", b"0")
    if not length.isdigit() or int(length) > limit:
        return None
    body = await read_body(receive, limit)
    return body if body is None or body is CUT_OFF else replay(body)


def replay(body: bytes):
    """A `receive` that hands the body read by read_body to the app behind."""
    sent = False

    async def receive():
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}
    return receive
