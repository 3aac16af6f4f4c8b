"""The documents Gradio builds per request outside the queue, built once and kept.

/config (530 KB), the API description (/gradio_api/info, 225 KB, and its OpenAPI form) and
the pages (each embeds its part of the config and of the API description) are answered by
Gradio's routes directly, not through the queue, so no per-account limit applied to them
(ui/queue_share.py), and each cost 10-30 ms of Python (a deep copy of the config, its file
URLs rewritten, FastAPI's encoding of the API description) holding the interpreter, more
under load: 160 /config, 16 at a time, made another user's load_item take 22 s.

What such a document depends on (routes.py: `get_config`, `main`, `api_info`): the app's
config, fixed at launch; the query parameters Gradio reads (READS); the name of the user
(in the config) and, through ClueLab's top bar (ui/navbar.py), their role; and the app's
root URL, which Gradio takes from the request (Host, X-Forwarded-Host/-Proto,
X-Gradio-Server, the scheme and root path). That is the key; nothing else of a request
changes the answer. A document is built by the app behind, once per key, and kept while the
cache holds at most MAX_BYTES (the least recently used go first). Builds are one at a time
per user (per address for callers not logged in): a flood of requests the cache cannot
answer (a new Host or query each time) waits for itself, and never has more than one build
running. Only a whole 200 answer without cookies or an encoding is kept.
"""
from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass
from urllib.parse import parse_qsl

from ui import access

DOCUMENTS = frozenset({"/config", "/gradio_api/info", "/gradio_api/openapi.json",
                       "/openapi.json", *access.PAGES})
READS = frozenset({"page", "deep_link", "all_endpoints"})
"""The query parameters Gradio's document routes read."""
ROOT_HEADERS = (b"host", b"x-forwarded-host", b"x-forwarded-proto", b"x-gradio-server")
MAX_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class Answer:
    status: int
    headers: tuple
    body: bytes


def document_key(scope, entry: str | None, who: access.Caller) -> tuple | None:
    """What the answer to this request depends on (None: not a document)."""
    if scope["type"] != "http" or entry not in DOCUMENTS or scope.get("method") not in (
            "GET", "HEAD"):
        return None
    pages = app_pages(scope)
    query = tuple((k, v) for k, v in parse_qsl(scope.get("query_string", b"").decode(
        "latin-1"), keep_blank_values=True)
        if k in READS and (k != "page" or pages is None or v in pages))
    headers = tuple((k, v) for k, v in scope.get("headers", []) if k in ROOT_HEADERS)
    return (scope["path"], query, who.name, tuple(sorted(who.roles)), headers,
            scope.get("scheme"), scope.get("root_path", ""), scope.get("server"))


def app_pages(scope) -> frozenset | None:
    """The page names of the app's config. Gradio's /config takes `?page=` only when it names
    one of them, and answers any other value as if none were given: so does the key, or one
    account's /config?page=<anything new> filled the cache with copies and pushed out the
    others' documents. None when there is no app to ask (the value is then kept)."""
    try:
        return frozenset(scope["app"].get_blocks().config.get("page") or {})
    except (KeyError, AttributeError):
        return None


def keepable(answer: Answer) -> bool:
    names = {name.lower() for name, _ in answer.headers}
    return answer.status == 200 and not names & {b"set-cookie", b"content-encoding"}


class DocumentCache:
    def __init__(self, max_bytes: int = MAX_BYTES):
        self.max_bytes = max_bytes
        self.answers: OrderedDict[tuple, Answer] = OrderedDict()
        self.size = 0
        self.builders: dict[object, list] = {}     # builder: [its lock, requests using it]

    async def serve(self, scope, send, key: tuple, builder: object, build) -> None:
        """Answer from the cache, or by `build(scope, send)` (the app behind, for a GET)
        with the builds of `builder` one at a time."""
        answer = self._get(key)
        if answer is None:
            entry = self.builders.setdefault(builder, [asyncio.Lock(), 0])
            entry[1] += 1
            try:
                async with entry[0]:
                    answer = self._get(key) or await self._build(scope, build, key)
            finally:
                entry[1] -= 1
                if entry[1] == 0:
                    del self.builders[builder]
        await send({"type": "http.response.start", "status": answer.status,
                    "headers": list(answer.headers)})
        await send({"type": "http.response.body",
                    "body": answer.body if scope.get("method") == "GET" else b""})

    def _get(self, key: tuple) -> Answer | None:
        answer = self.answers.get(key)
        if answer is not None:
            self.answers.move_to_end(key)
        return answer

    async def _build(self, scope, build, key: tuple) -> Answer:
        start, chunks = {}, []

        async def capture(message):
            if message["type"] == "http.response.start":
                start.update(message)
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
        await build({**scope, "method": "GET"}, capture)
        answer = Answer(start.get("status", 500), tuple(start.get("headers", ())),
                        b"".join(chunks))
        if keepable(answer) and len(answer.body) <= self.max_bytes:
            self.answers[key] = answer
            self.size += len(answer.body)
            while self.size > self.max_bytes:
                self.size -= len(self.answers.popitem(last=False)[1].body)
        return answer
