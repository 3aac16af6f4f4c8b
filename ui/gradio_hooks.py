"""Where ClueLab reaches into Gradio's internals to apply the access table (ui/access.py).

Gradio has no hook that runs before every event, so `GuardedBlocks` overrides
`Blocks.process_api`: every way in (the queue, /gradio_api/run, /gradio_api/call, MCP, the
front end's fn_index calls) ends there, before the inputs are preprocessed. A refused event
runs no handler and changes no output, and it fails for every client alike: the queue's
process_completed says success false with the refusal as its error (it says "not allowed for
your role", escaped), whether a page, gradio_client or a raw queue caller asked. (It used to
succeed with a warning for pages, so a raw queue caller read a refusal as a success.) A page
shows the error as one red toast. A call no page makes (too few values, a value its control
cannot take, a click without its selection) is refused there too (ui/malformed_calls.py).

`RouteAccess` (ui/route_access.py) is ASGI middleware in front of Gradio's routes, with the
helpers here that read a request. To know who is asking it reads
the login cookie as Gradio's own `get_current_user` does (routes.py: `access-token-<cookie
id>` or `access-token-unsecure-<cookie id>`, looked up in `App.tokens`). Anything it cannot
read counts as no user, so it fails closed; whether the server has a login it is told by
ui/server.launch_kwargs, which also gives Gradio its login. An upload control takes only a
file its account uploaded or its session was handed (ui/upload_owners.py: checked in
`preprocess_data`, recorded in `postprocess_data` and by RouteAccess). A request that names a
session of the queue (its heartbeat, its messages, an event's result, a cancel) is checked
further: a session is its first account's (ui/session_owners.py), and a call of an event
the caller's role may not call is refused before it joins the queue (ui/queue_door.py). A login is answered by ui/login_route.py, and the documents Gradio builds per
request (/config, the API description, the pages) come from ui/document_cache.py.

tests/test_access.py fails if a Gradio upgrade renames or moves what these rely on.
"""
from __future__ import annotations

import contextvars
import inspect
import logging
from urllib.parse import parse_qs, urlsplit

import gradio as gr

from ui import access, messages, upload_owners
from ui.malformed_calls import (malformed, malformed_call, refused_malformed,
                                takes_one_value)
from ui.quiet_log import QuietLog, shown

log = logging.getLogger("cluelab.access")
_quiet = QuietLog(log)
_PROCESS_API = inspect.signature(gr.Blocks.process_api)
_EVENT_CALLER: contextvars.ContextVar = contextvars.ContextVar("cluelab_event_caller",
                                                               default=None)
"""(account, session hash) of the event being processed, under a login (ui/upload_owners.py)."""
UPLOAD_CONTROLS = (gr.File, gr.UploadButton)
"""Controls whose value is a file a client uploaded (ui/upload_owners.py)."""


def login_required(server) -> bool:
    """Does this Blocks (or its Gradio App) ask for a login? The same test as Gradio's own
    login_check; a Blocks not launched yet has no login."""
    app = getattr(server, "server_app", None) or server
    return (getattr(app, "auth", None) is not None
            or getattr(app, "auth_dependency", None) is not None)


def event_caller(store, request, demo) -> access.Caller:
    """Who sent an event, for what a handler offers or does by role within the event (the
    access table's acts, e.g. which statuses it may set); `demo`: the app (None: an app
    built without one, which has no login)."""
    return access.caller(store, getattr(request, "username", None) if request else None,
                         demo is not None and login_required(demo))


def refusal_error(text: str) -> gr.Error:
    """A red toast that shows `text` as text (a toast renders HTML; a user name may not)."""
    return messages.error(text, quiet=True)


class GuardedBlocks(gr.Blocks):
    """gr.Blocks that checks the caller's role against the access table before any event."""

    def __init__(self, store, **kwargs):
        super().__init__(**kwargs)
        self.access_store = store

    async def process_api(self, block_fn, *args, **kwargs):
        bound = _PROCESS_API.bind(self, block_fn, *args, **kwargs)
        fn = self.fns[block_fn] if isinstance(block_fn, int) else block_fn
        request = bound.arguments.get("request")
        if isinstance(request, list):            # a batched event: one caller
            request = request[0] if request else None
        who = access.caller(self.access_store, getattr(request, "username", None),
                            login_required(self))
        reason = access.refusal(fn.api_name, who)
        if reason:                  # no handler runs, no input is read, no output changes
            raise refusal_error(reason)
        if (wrong := malformed_call(fn, bound.arguments.get("event_data"))) is not None:
            raise refused_malformed(fn, wrong)
        caller = (who.name, bound.arguments.get("session_hash")
                  or getattr(request, "session_hash", None))
        token = _EVENT_CALLER.set(caller if login_required(self) and who.name else None)
        try:
            return await super().process_api(block_fn, *args, **kwargs)
        finally:
            _EVENT_CALLER.reset(token)

    async def preprocess_data(self, block_fn, inputs, state, explicit_call=False):
        """Inputs no page sends are refused (refused_malformed): Gradio logged a traceback
        and answered a script `error: None` or quoted the value back. A file path in an upload
        control must be one this account uploaded or this session was handed
        (ui/upload_owners.py)."""
        self._check_uploads(block_fn, inputs)
        try:
            if isinstance(inputs, list):
                inputs = [handed_out_value(value) for value in inputs]
            for i, block in enumerate(block_fn.inputs[:len(inputs)]):
                if takes_one_value(block) and isinstance(inputs[i], (list, dict)):
                    raise ValueError(f"input component at index {i}")
            return await super().preprocess_data(block_fn, inputs, state, explicit_call)
        except Exception as err:  # noqa: BLE001 - any failure to read the inputs
            raise refused_malformed(block_fn, malformed(block_fn, inputs, err)) from None

    def _check_uploads(self, block_fn, inputs) -> None:
        caller = _EVENT_CALLER.get()
        if caller is None or not isinstance(inputs, list):
            return
        owners = upload_owners.owners_of(self)
        for block, value in zip(block_fn.inputs, inputs):
            if isinstance(block, UPLOAD_CONTROLS) and not all(
                    owners.allows(*caller, path) for path in upload_owners.file_paths(value)):
                _quiet.warning(("another's upload", caller[0]), "refused a file path not "
                               f"uploaded by {shown(caller[0])} nor handed to its session")
                raise refusal_error(upload_owners.FOREIGN_FILE)

    async def postprocess_data(self, block_fn, predictions, state):
        """The outputs, and their file paths recorded as handed to this session."""
        output = await super().postprocess_data(block_fn, predictions, state)
        caller = _EVENT_CALLER.get()
        if caller is not None:
            upload_owners.owners_of(self).record_handed(
                *caller, upload_owners.handed_paths(output))
        return output


def handed_out_value(value):
    """An input as an event's output handed it out: Gradio's update of a control (what
    gradio_client returns for one, e.g. load_item's Clue boxes) is read as the value it
    sets (None: the control keeps its value), so a script may send back what it was given."""
    if isinstance(value, dict) and value.get("__type__") == "update":
        return value.get("value")
    return value


def unknown_call(scope) -> bool:
    """Is this a POST /gradio_api/call/<name> naming no event of the app, or one to
    /gradio_api/call/v2/<name> (which fails in Gradio whatever it names)? Gradio answered
    both with a 500 (FnIndexInferError, TypeError); the caller gets a 400 saying so."""
    parts = scope["path"].rstrip("/").split("/")
    if scope.get("method") != "POST" or parts[1:3] != ["gradio_api", "call"]:
        return False
    if len(parts) == 5 and parts[3] == "v2":    # Gradio's POST /call/v2/<name>: a TypeError
        return True
    if len(parts) != 4:
        return False
    try:
        fns = scope["app"].get_blocks().fns.values()
    except (KeyError, AttributeError):
        return False
    return not any(fn.api_name == parts[3] for fn in fns)


def cookie_user(app, headers: list[tuple[bytes, bytes]]) -> str | None:
    """The logged-in user of a request, from Gradio's login cookie (None if none)."""
    token = cookie_token(app, headers)
    return app.tokens.get(token) if token else None


def cookie_token(app, headers: list[tuple[bytes, bytes]]) -> str | None:
    """The login token a request brings in Gradio's login cookie, if Gradio's table holds it."""
    tokens, cookie_id = getattr(app, "tokens", None), getattr(app, "cookie_id", None)
    if not isinstance(tokens, dict) or not cookie_id:
        return None
    cookies = {}
    for name, value in headers:
        if name == b"cookie":
            for part in value.decode("latin-1").split(";"):
                key, _, val = part.strip().partition("=")
                cookies.setdefault(key, val)
    token = (cookies.get(f"access-token-{cookie_id}")
             or cookies.get(f"access-token-unsecure-{cookie_id}"))
    return token if token and token in tokens else None


def foreign_origin(headers: list[tuple[bytes, bytes]], host: str | None = None) -> bool:
    """Does the request come from a page of another site (its Origin is not this host)?

    Gradio's CORS middleware lets any page served from localhost or 127.0.0.1, on any port,
    call the API with the user's login cookie, so a page on another port of a shared host
    could act as whoever is logged in. A browser names the page's origin on every
    cross-origin request and preflight; ClueLab's own pages are on this host (Host, or
    X-Forwarded-Host behind a proxy: only a trusted proxy's reaches here, ui/forwarded.py;
    `host`: the Host the browser sent, when ui/forwarded.py gave the app another one for its
    root URL). Requests without an Origin (navigation, scripts, gradio_client) are not
    affected."""
    values = {name: value.decode("latin-1") for name, value in headers
              if name in (b"origin", b"host", b"x-forwarded-host")}
    origin = values.get(b"origin")
    if origin is None:
        return False
    netloc = urlsplit(origin).netloc.lower()
    own = {(host if host is not None else values.get(b"host", "")).lower()}
    own |= {h.strip().lower() for h in values.get(b"x-forwarded-host", "").split(",") if h}
    return not netloc or netloc not in own


def cross_site_logout(scope) -> bool:
    """A GET /logout sent by another site's page (an <img> or a link pointing here): the
    browser says so in Sec-Fetch-Site. /logout is a GET that ends the session, so any page
    could log a user out; it carries no Origin for foreign_origin to see. Typed into the
    address bar ("none") or clicked on ClueLab's own pages ("same-origin"), it works."""
    if scope.get("path", "").rstrip("/") != "/logout":
        return False
    site = dict(scope.get("headers", [])).get(b"sec-fetch-site", b"").decode("latin-1")
    return site not in ("", "none", "same-origin")


def unreadable_path(scope) -> bool:
    """A path with control characters (a CR or LF sent as %0d%0a): no route has one, and
    Gradio printed such a path into the server's log, where it forged lines of its own."""
    return any(ord(c) < 32 or ord(c) == 127 for c in scope.get("path", ""))


def asks_deep_link(scope) -> bool:
    """Whether a request names one of Gradio's deep links (see access.ROUTES: not used)."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    return any(value for value in query.get("deep_link", []))
