"""Serve Gradio's front-end files from memory, each compressed once.

Why: a browser that has never opened ClueLab fetches ~100 script, style and font files before
the editor can show anything. Through Gradio's own routes each one costs the single server
process ~5 ms (routing, a FileResponse read through worker threads, brotli again on every
request), and Chromium's six connections per host queue behind it: about 0.9 s of a 4 s first
paint (docs/PERFORMANCE.md). These files never change while the server runs, and those under
/assets/ carry a content hash in their names, so the first response for each path is kept,
compressed once, and answered from memory after that. Hashed names also get a year-long
`immutable` cache lifetime, so a returning browser does not even ask.

Requests for a component's files that name no installed component, a file name with
anything but letters, digits, `_`, `.` and `-`, or no file the component has (checked in its
folder when the cache is given it), are answered 404 here: Gradio's route prints each
request's path parts to the server's log (ui/workarounds.py, COMPONENT_ROUTE_PRINTS), and
anyone could fill the log with text of their choosing (names of 60,000 characters: 7 GB an
hour from a participant's four connections).

Only successful, complete responses of the three front-end prefixes are kept; everything else
(errors, range requests, other methods, other paths) goes to Gradio untouched. `rewrites` may
change a kept file's body once, before it is compressed (ui/annotator_assets.py slims the
annotator's stylesheet); such a file gets an ETag of its new body.
"""
from __future__ import annotations

import gzip
import hashlib
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path

import anyio
import brotli

log = logging.getLogger(__name__)
PREFIXES = ("/assets/", "/static/", "/gradio_api/custom_component/")
HASHED_NAME = re.compile(r"^/assets/[^/]+-[A-Za-z0-9_-]{8,}\.[A-Za-z0-9]+$")
COMPRESSIBLE_TYPES = ("text/", "application/javascript", "application/json", "image/svg+xml")
IMMUTABLE = b"public, max-age=31536000, immutable"
MAX_FILE_BYTES = 8 << 20
MAX_TOTAL_BYTES = 96 << 20
BROTLI_QUALITY = 6          # 640 KB of JS: 26 ms, within 10% of quality 11's size (1.5 s)
COMPONENT_PREFIX = "/gradio_api/custom_component/"
COMPONENT_FILE = re.compile(r"^[A-Za-z0-9_.-]{1,64}/[A-Za-z0-9_.-]{1,128}$")
KEPT_HEADERS = (b"content-type", b"etag", b"last-modified", b"cache-control")
DROPPED_REQUEST_HEADERS = (b"accept-encoding", b"if-none-match", b"if-modified-since",
                           b"range")


@dataclass
class Asset:
    """One front-end file as first served, plus its compressed forms."""
    body: bytes
    headers: dict[bytes, bytes]
    compressible: bool
    encoded: dict[str, bytes] = field(default_factory=dict)

    @property
    def etag(self) -> bytes:
        return self.headers[b"etag"]


async def collect(app, scope, receive) -> list[dict]:
    """Every message of `app`'s response to `scope`, none of them sent yet."""
    messages = []

    async def capture(message):
        messages.append(message)

    await app(scope, receive, capture)
    return messages


def whole_response(messages: list[dict]) -> tuple[dict | None, bytes | None]:
    """(the start message, the whole body), the body None unless the response is complete."""
    start = messages[0] if messages else None
    bodies = [m for m in messages if m["type"] == "http.response.body"]
    if not bodies or bodies[-1].get("more_body", False):
        return start, None
    return start, b"".join(m.get("body", b"") for m in bodies)


async def replay(messages: list[dict], scope, send) -> None:
    """Send a collected response on as it was (no body for a HEAD request)."""
    for message in messages:
        if scope["method"] == "HEAD" and message["type"] == "http.response.body":
            message = dict(message, body=b"")
        await send(message)


class AssetCache:
    """ASGI middleware in front of Gradio's routes for its static front-end files."""

    def __init__(self, app, rewrites: dict | None = None, component_ids: tuple = (),
                 component_dirs: dict | None = None):
        """`component_dirs`: {component id: its template folder}; a file it does not hold
        is refused before Gradio's route prints its name."""
        self.app = app
        self.component_folders = tuple(f"{COMPONENT_PREFIX}{i}/client/" for i in component_ids)
        self.component_dirs = {f"{COMPONENT_PREFIX}{i}/client/": Path(d)
                               for i, d in (component_dirs or {}).items()}
        self.rewrites = dict(rewrites or {})
        self.assets: dict[str, Asset] = {}
        self.total_bytes = 0

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and not self._known_component_file(scope["path"]):
            await send({"type": "http.response.start", "status": 404,
                        "headers": [(b"content-type", b"text/plain")]})
            await send({"type": "http.response.body", "body": b"Not found"})
            return
        if not self._cacheable_request(scope):
            return await self.app(scope, receive, send)
        key = scope["path"]
        asset = self.assets.get(key)
        if asset is None:
            asset = await self._fetch(scope, receive, send)
            if asset is None:           # not kept: the response has been sent as it was
                return
        await self._answer(asset, scope, send)

    def _known_component_file(self, path: str) -> bool:
        """False for a component-file path naming no installed component or an odd file."""
        if not path.startswith(COMPONENT_PREFIX):
            return True
        folder = next((f for f in self.component_folders if path.startswith(f)), None)
        if folder is None or not COMPONENT_FILE.match(path[len(folder):]):
            return False
        where = self.component_dirs.get(folder)
        return where is None or (where / path[len(folder):]).is_file()

    @staticmethod
    def _cacheable_request(scope) -> bool:
        return (scope["type"] == "http" and scope["method"] in ("GET", "HEAD")
                and not scope.get("query_string")
                and scope["path"].startswith(PREFIXES)
                and not any(name == b"range" for name, _ in scope["headers"]))

    async def _fetch(self, scope, receive, send) -> Asset | None:
        """Ask Gradio for the plain file; keep it if it is a complete 200 of sane size."""
        plain_scope = dict(scope, method="GET", headers=[
            (name, value) for name, value in scope["headers"]
            if name not in DROPPED_REQUEST_HEADERS])
        messages = await collect(self.app, plain_scope, receive)
        start, body = whole_response(messages)
        headers = dict(start["headers"]) if start else {}
        if (start is None or start["status"] != 200 or body is None
                or b"content-encoding" in headers or len(body) > MAX_FILE_BYTES
                or self.total_bytes + len(body) > MAX_TOTAL_BYTES):
            await replay(messages, scope, send)
            return None
        kept = {name: value for name, value in headers.items() if name in KEPT_HEADERS}
        rewrite = self.rewrites.get(scope["path"])
        if rewrite is not None:
            try:
                body = await anyio.to_thread.run_sync(rewrite, body)
                kept.pop(b"etag", None)
            except Exception:        # an unexpected file: serve it as installed
                log.exception("could not rewrite %s; serving it unchanged", scope["path"])
        kept.setdefault(b"etag", b'"' + hashlib.sha1(body).hexdigest().encode() + b'"')
        if HASHED_NAME.match(scope["path"]):
            kept[b"cache-control"] = IMMUTABLE
        content_type = kept.get(b"content-type", b"").decode("latin-1")
        asset = Asset(body, kept, content_type.startswith(COMPRESSIBLE_TYPES))
        if asset.compressible:
            asset.encoded["br"] = await anyio.to_thread.run_sync(
                lambda: brotli.compress(body, quality=BROTLI_QUALITY))
        if scope["path"] not in self.assets:
            self.total_bytes += len(body) + len(asset.encoded.get("br", b""))
        self.assets[scope["path"]] = asset
        return asset

    async def _answer(self, asset: Asset, scope, send) -> None:
        request = dict(scope["headers"])
        headers = dict(asset.headers)
        if asset.compressible:
            headers[b"vary"] = b"Accept-Encoding"
        if request.get(b"if-none-match") == asset.etag:
            await send({"type": "http.response.start", "status": 304,
                        "headers": list(headers.items())})
            await send({"type": "http.response.body", "body": b""})
            return
        body, encoding = asset.body, self._encoding(asset, request.get(b"accept-encoding", b""))
        if encoding == "gzip" and "gzip" not in asset.encoded:
            asset.encoded["gzip"] = await anyio.to_thread.run_sync(
                lambda: gzip.compress(asset.body, 6))
        if encoding:
            body = asset.encoded[encoding]
            headers[b"content-encoding"] = encoding.encode()
        headers[b"content-length"] = str(len(body)).encode()
        await send({"type": "http.response.start", "status": 200,
                    "headers": list(headers.items())})
        await send({"type": "http.response.body",
                    "body": b"" if scope["method"] == "HEAD" else body})

    @staticmethod
    def _encoding(asset: Asset, accept: bytes) -> str | None:
        if not asset.compressible:
            return None
        offered = set()
        for part in accept.lower().split(b","):
            name, _, params = part.partition(b";")
            if params.replace(b" ", b"") not in (b"q=0", b"q=0.0", b"q=0.00", b"q=0.000"):
                offered.add(name.strip())
        if b"br" in offered:
            return "br"
        if b"gzip" in offered:
            return "gzip"
        return None
