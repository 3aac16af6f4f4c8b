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

`RouteAccess` is ASGI middleware in front of Gradio's routes. To know who is asking it reads
the login cookie as Gradio's own `get_current_user` does (routes.py: `access-token-<cookie
id>` or `access-token-unsecure-<cookie id>`, looked up in `App.tokens`). Anything it cannot
read counts as no user, so it fails closed; whether the server has a login it is told by
ui/server.launch_kwargs, which also gives Gradio its login. A request that names a
session of the queue (its heartbeat, its messages, an event's result, a cancel) is checked
further: a session is its first account's (ui/session_owners.py), and a call of an event
the caller's role may not call is refused before it joins the queue (ui/queue_door.py). A login is answered by ui/login_route.py, and the documents Gradio builds per
request (/config, the API description, the pages) come from ui/document_cache.py.

tests/test_access.py fails if a Gradio upgrade renames or moves what these rely on.
"""
from __future__ import annotations

import html
import inspect
import logging
from urllib.parse import parse_qs, urlsplit
from pathlib import Path

import gradio as gr

from ui import access, messages, navbar, queue_door, route_answers, session_owners
from ui.document_cache import DocumentCache, document_key
from ui.malformed_calls import (malformed, malformed_call, refused_malformed,
                                takes_one_value)
from ui.upload_limits import UploadLimits

log = logging.getLogger("cluelab.access")
_PROCESS_API = inspect.signature(gr.Blocks.process_api)
NO_PAGE_HTML = Path(__file__).resolve().parent.parent / "assets" / "no_page.html"
# why a signed-in user gets assets/no_page.html instead of a page: (reason, advice), HTML
NO_PAGE_WHY = {
    "role": ("This page is one of the annotation and research tools, which your account "
             "does not use.",
             "If you take part in a study, open the link you were given for it. If you think "
             "your account should reach this page, ask the person who created it."),
    "deep_link": ("This link asks for a saved page state (<code>?deep_link=</code>), which "
                  "this server does not open for anyone.",
                  "Open the page without it; to share an item or a response, copy the link "
                  "the page shows for it."),
}


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
        return await super().process_api(block_fn, *args, **kwargs)

    async def preprocess_data(self, block_fn, inputs, state, explicit_call=False):
        """Inputs no page sends are refused (refused_malformed): Gradio logged a traceback
        and answered a script `error: None` or quoted the value back."""
        try:
            if isinstance(inputs, list):
                inputs = [handed_out_value(value) for value in inputs]
            for i, block in enumerate(block_fn.inputs[:len(inputs)]):
                if takes_one_value(block) and isinstance(inputs[i], (list, dict)):
                    raise ValueError(f"input component at index {i}")
            return await super().preprocess_data(block_fn, inputs, state, explicit_call)
        except Exception as err:  # noqa: BLE001 - any failure to read the inputs
            raise refused_malformed(block_fn, malformed(block_fn, inputs, err)) from None


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
    return tokens.get(token) if token else None


def foreign_origin(headers: list[tuple[bytes, bytes]]) -> bool:
    """Does the request come from a page of another site (its Origin is not this host)?

    Gradio's CORS middleware lets any page served from localhost or 127.0.0.1, on any port,
    call the API with the user's login cookie, so a page on another port of a shared host
    could act as whoever is logged in. A browser names the page's origin on every
    cross-origin request and preflight; ClueLab's own pages are on this host (Host, or
    X-Forwarded-Host behind a proxy: only a trusted proxy's reaches here, ui/forwarded.py). Requests without an Origin (navigation, scripts,
    gradio_client) are not affected."""
    values = {name: value.decode("latin-1") for name, value in headers
              if name in (b"origin", b"host", b"x-forwarded-host")}
    origin = values.get(b"origin")
    if origin is None:
        return False
    netloc = urlsplit(origin).netloc.lower()
    own = {values.get(b"host", "").lower()}
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


class RouteAccess:
    """ASGI middleware: a request to a route its caller's role may not reach gets a 403, to
    a path no route of the table has a 404 (401 for anyone not logged in)."""

    def __init__(self, app, store, require_login: bool, login=None):
        self.app = app
        self.store = store
        self.require_login = require_login
        self.login = login                # ui/login_route.LoginRoute, under a login
        self.documents = DocumentCache()
        self.uploads = UploadLimits()

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        headers = scope.get("headers", [])
        if scope["type"] == "http":
            send = route_answers.with_safety_headers(send)
        if foreign_origin(headers) or cross_site_logout(scope):
            return await self._forbidden(scope, send)
        if unreadable_path(scope):
            return await route_answers.send_fixed(send, 404)
        app_send = route_answers.fixed_errors(send) if scope["type"] == "http" else send
        entry = access.route_entry(scope["path"])
        roles = access.route_roles(scope["path"])
        if asks_deep_link(scope):
            roles = access.NOBODY
        if entry == "/login" and scope.get("method") == "POST" and self.login:
            return await self.login(scope, receive, send)
        if entry == "/login" and scope.get("method") in ("GET", "HEAD"):
            # the login form is posted here; a person who opens the address gets the form
            # (Gradio shows it at /), not {"detail": "Method Not Allowed"}
            return await route_answers.redirect(send, "/")
        if roles == access.ANYONE:
            return await route_answers.without_traceback(self.app, scope, receive, app_send, entry)
        user = cookie_user(scope.get("app"), headers)
        if self.require_login and not user:
            if entry in access.PAGES:                          # Gradio's login page
                return await self._document(scope, receive, route_answers.no_store(send),
                                            entry, access.Caller(
                    "anonymous", access.NOBODY), route_answers.login_page)
            return await self._not_logged_in(scope, send)
        who = access.caller(self.store, user, self.require_login)
        if entry is None and scope["type"] == "http":      # no such route: not a refusal
            return await route_answers.send_fixed(send, 404)
        if not who.roles & roles:
            page = entry in access.PAGES
            return await self._forbidden(scope, send, who, page,
                                         "deep_link" if page and asks_deep_link(scope) else "role")
        if (location := navbar.without_response(scope, who)) is not None:
            return await route_answers.redirect(send, location)
        if document_key(scope, entry, who) is not None:
            if entry == "/config":
                send = route_answers.no_store(send)
            return await self._document(scope, receive, send, entry, who, lambda out: (
                route_answers.rewritten(out, lambda b: navbar.own_navbar(b, who))
                if self.require_login and (entry in access.PAGES or entry == "/config")
                else out))
        if entry in route_answers.UPLOADS and scope.get("method") == "POST" and \
                (refused := self.uploads.refusal(scope, who, self.require_login)):
            return await route_answers.send_json(send, *refused)     # ui/upload_limits.py
        if (receive := await route_answers.limited(scope, receive, entry)) is None:
            return await route_answers.send_json(send, 413, route_answers.too_large(entry))
        if unknown_call(scope):
            return await route_answers.send_json(send, 400, route_answers.NO_SUCH_EVENT)
        body = b""
        if entry == "/gradio_api/cancel":
            body = await route_answers.read_body(receive)          # within its limit: read
            receive = route_answers.replay(body)
        elif entry in ("/gradio_api/queue/*", "/gradio_api/call/*") and \
                scope.get("method") == "POST" and self.require_login:
            body = (await receive()).get("body", b"")      # read whole by `limited`: again
            receive = route_answers.replay(body)
            if (refused := queue_door.refusal(scope, body, who)) is not None:
                return await route_answers.send_json(send, 403, {"detail": refused})
        # ui/session_owners.py: ids Gradio makes, of events it holds, of no other account
        if session_owners.unreadable_ids(scope, body):
            return await route_answers.send_json(send, 400, {"detail": session_owners.NOT_AN_ID})
        if session_owners.unheld_event(scope):
            return await route_answers.send_json(send, 404, session_owners.NO_SUCH_EVENT)
        if self.require_login and session_owners.foreign(scope, user, body):
            return await route_answers.send_json(send, 403, {
                "detail": session_owners.ANOTHER_ACCOUNTS})
        return await route_answers.without_traceback(self.app, scope, receive, app_send, entry)

    async def _document(self, scope, receive, send, entry, who, rewrite) -> None:
        """A document Gradio builds per request (ui/document_cache.py), from the cache (any
        other request to its route, from the app); `rewrite(send)`: the `send` that makes
        Gradio's answer this caller's."""
        def build(get_scope, out):
            return route_answers.without_traceback(
                self.app, get_scope, receive, rewrite(route_answers.fixed_errors(out)), entry)
        if (key := document_key(scope, entry, who)) is None:
            return await build(scope, send)
        builder = who.name if who.roles else ("address", (scope.get("client") or ("",))[0])
        await self.documents.serve(scope, send, key, builder, build)

    @staticmethod
    async def _not_logged_in(scope, send) -> None:
        """What Gradio's login check answers (its front end shows the login form on it)."""
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        await route_answers.send_json(send, 401, route_answers.NOT_LOGGED_IN)

    @staticmethod
    async def _forbidden(scope, send, who=None, page: bool = False, why: str = "role") -> None:
        """A 403 with the fixed body (ui/route_answers.py); a page a signed-in `who` may
        not use: assets/no_page.html, naming them and why (NO_PAGE_WHY)."""
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        if page:
            reason, advice = NO_PAGE_WHY[why]
            entry = access.route_entry(scope["path"])
            if why == "role" and who.roles & access.STAFF:      # staff on a research page
                allowed = " and ".join(f"{r}s" for r in access.ROLES
                                       if r in access.PAGE_ROLES[entry])
                article = "an" if who.role[0] in "aeiou" else "a"
                reason = (f"{access.PAGE_TITLES[entry]} is for {allowed}; your account is "
                          f"{article} {html.escape(who.role)}.")
                advice = ("Use the pages of the top bar; ask an admin if your account should "
                          "reach this one.")
            body = NO_PAGE_HTML.read_text(encoding="utf-8").replace(
                "{user}", html.escape(who.name)).replace("{role}", html.escape(who.role)).replace(
                "{reason}", reason).replace("{advice}", advice)
            await send({"type": "http.response.start", "status": 403,
                        "headers": [(b"content-type", b"text/html; charset=utf-8"),
                                    (b"content-length", str(len(body.encode())).encode())]})
            await send({"type": "http.response.body", "body": body.encode()})
            return
        await route_answers.send_fixed(send, 403)
