"""Which Host a request is believed to have come to, and from which client.

Why: Gradio builds the page's root URL from X-Forwarded-Host/-Proto whoever sends them, so
`curl -H "X-Forwarded-Host: evil.test"` made the login page's root, /logout's redirect and
/config say http://evil.test, and the Origin check (ui/gradio_hooks.foreign_origin) then
took a POST from http://evil.test for one of ClueLab's own pages (an attacker's review).
Like X-Forwarded-For, the forwarded headers (X-Forwarded-*, Forwarded) are believed only
from a proxy named in FORWARDED_ALLOW_IPS, and removed from any other request before
anything reads them. uvicorn read X-Forwarded-For/-Proto itself, after which the proxy's
own address is gone: `launch` (ui/server.py) keeps the operator's list for `Forwarded`
and gives uvicorn none, and this middleware, first of all, applies uvicorn's own reading
(ProxyHeadersMiddleware) to a trusted proxy's requests.

The Host header itself named the root too (`curl -H "Host: evil.test"`: the pages and
/config said http://evil.test, as did the file addresses of events' answers), and so did
X-Gradio-Server (removed like the forwarded headers). Gradio is given a Host only when it
is a name of this server (`own_names`: the loopback names, the address the connection came
to, the machine's name, the --host the server was started with and CLUELAB_HOSTS, any
port); any other is replaced, for the app behind, by the address the connection came to.
The Host the browser sent is kept beside it (`cluelab.host`) for the Origin check, which
compares it with the page's own address.

Without a login (local mode: a loopback address only) a request must name a loopback host
(127.0.0.1, localhost, [::1], any port): a page of another site whose name it made resolve
to 127.0.0.1 (DNS rebinding) could otherwise drive the login-free app as its one user.
Listed in ui/workarounds.py (GRADIO_FORWARDED_HOST).
"""
from __future__ import annotations

import json
import os
import socket

from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware, _TrustedHosts

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
NOT_LOOPBACK = {"detail": ("This server runs without a login and answers only to a loopback "
                           "address (127.0.0.1, localhost or [::1]); this request names another "
                           "host. Open it at http://127.0.0.1:<port>/.")}


def host_name(host: str) -> str:
    """The name of a Host header's value, without its port."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[:host.find("]") + 1]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def forwarded_header(name: bytes) -> bool:
    return name.startswith(b"x-forwarded-") or name in (b"forwarded", b"x-gradio-server")


def own_names(host: str = "") -> frozenset:
    """The names a request may call this server by (without a port): `host` (--host, unless
    it is every address), the loopback names, the machine's name and CLUELAB_HOSTS (names
    separated by commas, for a server reached under a name of its own)."""
    names = {*LOOPBACK_NAMES, socket.gethostname(), socket.getfqdn()}
    names |= {n for n in os.environ.get("CLUELAB_HOSTS", "").split(",")}
    if host not in ("", "0.0.0.0", "::"):
        names.add(host)
    return frozenset(host_name(n) for n in names if n.strip())


def address_host(scope) -> str:
    """The address the connection came to, as a Host header names it."""
    host, port = (scope.get("server") or ("127.0.0.1", None))[:2]
    host = f"[{host}]" if ":" in host else host
    return f"{host}:{port}" if port else host


class Forwarded:
    """ASGI middleware: forwarded headers from a trusted proxy (`trusted`, as
    FORWARDED_ALLOW_IPS spells it) read as uvicorn reads them, from anyone else removed;
    with `loopback_only`, a Host that is not a loopback name refused (403)."""

    def __init__(self, app, trusted: str = "", loopback_only: bool = False, host: str = ""):
        self.app = app
        self.names = own_names(host)
        self.trusted = _TrustedHosts(trusted) if trusted.strip() else None
        self.through_proxy = ProxyHeadersMiddleware(app, trusted) if self.trusted else None
        self.loopback_only = loopback_only

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        if self.loopback_only and not self.loopback_host(scope):
            return await self.refuse(scope, send)
        peer = (scope.get("client") or ("",))[0]
        if self.trusted is not None and peer in self.trusted:
            return await self.through_proxy(scope, receive, send)
        headers = scope.get("headers", [])
        if any(forwarded_header(name) for name, _ in headers):
            scope = {**scope, "headers": [(n, v) for n, v in headers if not forwarded_header(n)]}
        return await self.app(self.own_host(scope), receive, send)

    def own_host(self, scope) -> dict:
        """`scope` with a Host of this server's for the app (the address the connection
        came to, when the one sent is none of `self.names`), the one sent in `cluelab.host`."""
        sent = [v.decode("latin-1") for n, v in scope.get("headers", []) if n == b"host"]
        own = {*self.names, host_name(address_host(scope))}
        if len(sent) == 1 and host_name(sent[0]) in own:
            return scope
        headers = [(n, v) for n, v in scope["headers"] if n != b"host"]
        return {**scope, "headers": [(b"host", address_host(scope).encode()), *headers],
                "cluelab.host": sent[0] if sent else ""}

    @staticmethod
    def loopback_host(scope) -> bool:
        hosts = [v.decode("latin-1") for n, v in scope.get("headers", []) if n == b"host"]
        return len(hosts) == 1 and host_name(hosts[0]) in LOOPBACK_NAMES

    @staticmethod
    async def refuse(scope, send) -> None:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        body = json.dumps(NOT_LOOPBACK).encode()
        await send({"type": "http.response.start", "status": 403,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
