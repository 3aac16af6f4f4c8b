"""The access table's routes (ui/access.py ROUTES), applied before Gradio answers anything.

`RouteAccess` is ASGI middleware in front of Gradio's routes (ui/gradio_hooks.py says how it
reads who is asking). Beyond the table it checks what a route names: a session of the queue
is its first account's (ui/session_owners.py), a download is the account's it was made for
(ui/downloads.py), a file in Gradio's upload folder is the account's that uploaded it or was
handed it (ui/upload_owners.py), and a login that an admin ended since (a disabled account, a new
password: ui/login_route.py) is no login. Every answer to a signed-in user but the
content-addressed media (ui/media_http.py) says `Cache-Control: no-store`: pages, /config,
events and files are that account's, and neither a shared cache nor the browser's, after a
logout, should keep them.
"""
from __future__ import annotations

import html
from pathlib import Path

from ui import (access, body_json, navbar, queue_door, route_answers, session_caps,
                session_owners, stream_caps)
from ui.document_cache import DocumentCache, document_key
from ui.downloads import downloads_for
from ui.gradio_hooks import (asks_deep_link, cookie_token, cross_site_logout,
                             foreign_origin, unknown_call, unreadable_path)
from ui.media_http import is_media_request
from ui.stream_caps import StreamCaps
from ui.upload_limits import COUNTED, UploadLimits
from ui.upload_owners import in_upload_folder, of_request, uploads_recorded

FILE_ROUTES = ("/gradio_api/file=*", "/gradio_api/file/*")

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
        self.streams = StreamCaps()

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        headers = scope.get("headers", [])
        if scope["type"] == "http":
            send = route_answers.with_safety_headers(send)
        if foreign_origin(headers, scope.get("cluelab.host")) or cross_site_logout(scope):
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
        user = self.signed_in(scope)
        if self.require_login and not user:
            if entry in access.PAGES:                          # Gradio's login page
                return await self._document(scope, receive, route_answers.no_store(send),
                                            entry, access.Caller(
                    "anonymous", access.NOBODY), route_answers.login_page)
            return await self._not_logged_in(scope, send)
        who = access.caller(self.store, user, self.require_login)
        if self.require_login and scope["type"] == "http" and \
                not is_media_request(scope["path"], self.store.media_dir):
            send = route_answers.no_store(send)     # this account's: kept by no cache
            app_send = route_answers.fixed_errors(send)
        if entry is None and scope["type"] == "http":      # no such route: not a refusal
            return await route_answers.send_fixed(send, 404)
        if not who.roles & roles:
            page = entry in access.PAGES
            return await self._forbidden(scope, send, who, page,
                                         "deep_link" if page and asks_deep_link(scope) else "role")
        if self.require_login and entry in FILE_ROUTES and \
                not downloads_for(self.store).may_fetch(file_named(scope["path"]), who):
            return await route_answers.send_fixed(send, 403)       # another's download
        if self.require_login and entry in FILE_ROUTES and \
                in_upload_folder(scope, file_named(scope["path"])) and \
                not self._may_fetch_upload(scope, user):
            return await route_answers.send_fixed(send, 403)       # another's upload
        if (location := navbar.without_response(scope, who)) is not None:
            return await route_answers.redirect(send, location)
        if document_key(scope, entry, who) is not None:
            if entry == "/config":       # its root URL and account: this request's
                send = route_answers.no_store(send)
            return await self._document(scope, receive, send, entry, who, lambda out: (
                route_answers.rewritten(out, lambda b: navbar.own_navbar(b, who))
                if self.require_login and (entry in access.PAGES or entry == "/config")
                else out))
        if entry in route_answers.UPLOADS and scope.get("method") == "POST" and \
                (refused := self.uploads.refusal(scope, who, self.require_login)):
            return await route_answers.send_json(send, *refused)     # ui/upload_limits.py
        if self.require_login and entry in route_answers.UPLOADS and \
                scope.get("method") == "POST":
            app_send = uploads_recorded(app_send, self._taken_upload(scope, user))
            files = self.uploads.files_of(user)       # counted as parsed: ui/upload_limits.py
            COUNTED.set(files)          # this request's own context: no other request sees it
            app_send = files.answered(app_send)
        if (receive := await route_answers.limited(scope, receive, entry)) is None:
            return await route_answers.send_json(send, 413, route_answers.too_large(entry))
        if receive is route_answers.CUT_OFF:
            return                      # the client went: its part of a body goes nowhere
        if unknown_call(scope):
            return await route_answers.send_json(send, 400, route_answers.NO_SUCH_EVENT)
        body = b""
        if scope["type"] == "http" and scope.get("method") == "POST" and \
                entry not in route_answers.UPLOADS:
            body = (await receive()).get("body", b"")      # read whole by `limited`: again
            receive = route_answers.replay(body)
            value, refused = body_json.read(body)          # parsed once (ui/body_json.py)
            if refused is not None:
                return await route_answers.refuse_body(send, entry, refused)
            if self.require_login and entry in ("/gradio_api/queue/*", "/gradio_api/call/*") \
                    and (refused := queue_door.refusal(scope, value, who)) is not None:
                return await route_answers.send_json(send, 403, {"detail": refused})
        # ui/session_owners.py: ids Gradio makes, of events it holds, of no other account
        if session_owners.unreadable_ids(scope, body):
            return await route_answers.send_json(send, 400, {"detail": session_owners.NOT_AN_ID})
        if session_owners.unheld_event(scope):
            return await route_answers.send_json(send, 404, session_owners.NO_SUCH_EVENT)
        if self.require_login and session_owners.foreign_upload(scope, user):
            return await route_answers.send_json(send, 403, {
                "detail": session_owners.ANOTHER_ACCOUNTS_UPLOAD})
        if self.require_login and session_owners.foreign(scope, user, body):
            return await route_answers.send_json(send, 403, {
                "detail": session_owners.ANOTHER_ACCOUNTS})
        if session_owners.unheld_session(scope):       # quietly: no log line per request
            return await session_owners.not_held(send, who.name)
        if stream_caps.is_stream(scope):        # at most so many open per account
            holder = stream_caps.holder_of(scope, user if self.require_login else None)
            if (refused := self.streams.refusal(holder)) is not None:
                return await route_answers.send_json(send, 429, refused)
            # a heartbeat is counted open: its session is in use (ui/session_caps.py)
            return await self.streams.held(holder, session_caps.heartbeat_counted(
                scope, lambda: route_answers.without_traceback(
                    self.app, scope, receive, app_send, entry)))
        return await route_answers.without_traceback(self.app, scope, receive, app_send, entry)

    @staticmethod
    def _taken_upload(scope, user: str):
        """What an upload's paths are handed to: they are `user`'s (ui/upload_owners.py)."""
        owners = of_request(scope)

        def taken(paths: list[str]) -> None:
            if owners is not None:
                owners.record_upload(user, paths)
        return taken

    @staticmethod
    def _may_fetch_upload(scope, user: str) -> bool:
        """May `user` fetch the file in the upload folder the request names: one it uploaded,
        or that an event handed to a page of its (ui/upload_owners.py)? No, without an app."""
        owners = of_request(scope)
        return owners is not None and owners.may_fetch(user, file_named(scope["path"]))

    def signed_in(self, scope) -> str | None:
        """The account of the request's login; None for none, or for a login that ended
        (ui/login_route.LoginRoute.current: the account was disabled or its password
        changed since), which is then forgotten."""
        app = scope.get("app")
        token = cookie_token(app, scope.get("headers", []))
        if token is None:
            return None
        if self.login is None:
            return app.tokens.get(token)
        return self.login.current(app, token)

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
                # the page has no top bar: the ones this account may open, as links
                links = ", ".join(f'<a href="{path}">{html.escape(access.PAGE_TITLES[path])}</a>'
                                  for path in access.PAGES
                                  if who.roles & access.PAGE_ROLES[path])
                advice = (f"Pages of yours: {links}. Ask an admin if your account should "
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


def file_named(path: str) -> str:
    """The file a request to Gradio's file route names (`/gradio_api/file=<path>` or the
    older `/gradio_api/file/<path>`), as Gradio reads it."""
    for prefix in ("/gradio_api/file=", "/gradio_api/file/"):
        if path.startswith(prefix):
            return path[len(prefix):]
    return path
