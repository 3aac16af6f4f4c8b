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

Without a login (local mode: a loopback address only) a request must name a loopback host
(127.0.0.1, localhost, [::1], any port): a page of another site whose name it made resolve
to 127.0.0.1 (DNS rebinding) could otherwise drive the login-free app as its one user.
Listed in ui/workarounds.py (GRADIO_FORWARDED_HOST).
"""
from __future__ import annotations

import json

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
    return name.startswith(b"x-forwarded-") or name == b"forwarded"


class Forwarded:
    """ASGI middleware: forwarded headers from a trusted proxy (`trusted`, as
    FORWARDED_ALLOW_IPS spells it) read as uvicorn reads them, from anyone else removed;
    with `loopback_only`, a Host that is not a loopback name refused (403)."""

    def __init__(self, app, trusted: str = "", loopback_only: bool = False):
        self.app = app
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
        return await self.app(scope, receive, send)

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
