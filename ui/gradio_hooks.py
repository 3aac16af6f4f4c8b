"""Where ClueLab reaches into Gradio's internals to apply the access table (ui/access.py).

Gradio has no hook that runs before every event, so `GuardedBlocks` overrides
`Blocks.process_api`: every way in (the queue, /gradio_api/run, /gradio_api/call, MCP, the
front end's fn_index calls) ends there, before the inputs are preprocessed. A refused event
raises ui.messages.error, so no handler runs and no output changes.

`RouteAccess` is ASGI middleware in front of Gradio's routes. To know who is asking it reads
the login cookie as Gradio's own `get_current_user` does (routes.py: `access-token-<cookie
id>` or `access-token-unsecure-<cookie id>`, looked up in `App.tokens`). Anything it cannot
read counts as no user, so it fails closed; whether the server has a login it is told by
ui/server.launch_kwargs, which also gives Gradio its login.

tests/test_access.py fails if a Gradio upgrade renames or moves what these rely on.
"""
from __future__ import annotations

import html
import inspect
import json
from urllib.parse import urlsplit
from pathlib import Path

import gradio as gr

from ui import access, messages

_PROCESS_API = inspect.signature(gr.Blocks.process_api)
NO_PAGE_HTML = Path(__file__).resolve().parent.parent / "assets" / "no_page.html"


def login_required(server) -> bool:
    """Does this Blocks (or its Gradio App) ask for a login? The same test as Gradio's own
    login_check; a Blocks not launched yet has no login."""
    app = getattr(server, "server_app", None) or server
    return (getattr(app, "auth", None) is not None
            or getattr(app, "auth_dependency", None) is not None)


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
        if reason:
            raise refusal_error(reason)
        return await super().process_api(block_fn, *args, **kwargs)


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
    X-Forwarded-Host behind a proxy). Requests without an Origin (navigation, scripts,
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


class RouteAccess:
    """ASGI middleware: a request to a route its caller's role may not reach gets a 403."""

    def __init__(self, app, store, require_login: bool):
        self.app = app
        self.store = store
        self.require_login = require_login

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket") and foreign_origin(scope.get("headers", [])):
            return await self._forbidden(scope, send, access.Caller("another site",
                                                                     access.NOBODY))
        if scope["type"] in ("http", "websocket"):
            roles = access.route_roles(scope["path"])
            if roles != access.SIGNED_IN:
                user = cookie_user(scope.get("app"), scope.get("headers", []))
                who = access.caller(self.store, user, self.require_login)
                page = access.route_entry(scope["path"]) in access.PAGES
                if page and not user and self.require_login:
                    pass                    # Gradio answers with its login page
                elif not who.roles & roles:
                    return await self._forbidden(scope, send, who, page)
        return await self.app(scope, receive, send)

    @staticmethod
    async def _forbidden(scope, send, who, page: bool = False) -> None:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        if page:
            body = NO_PAGE_HTML.read_text(encoding="utf-8").replace(
                "{user}", html.escape(who.name)).replace("{role}", html.escape(who.role))
            await send({"type": "http.response.start", "status": 403,
                        "headers": [(b"content-type", b"text/html; charset=utf-8"),
                                    (b"content-length", str(len(body.encode())).encode())]})
            await send({"type": "http.response.body", "body": body.encode()})
            return
        body = json.dumps({"detail": f"{who.name} (role {who.role}) may not reach this "
                                     "route"}).encode()
        await send({"type": "http.response.start", "status": 403,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
