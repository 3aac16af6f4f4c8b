"""The top bar each user sees: only the pages their role may open (ui/access.PAGE_ROLES).

Gradio puts one list of pages in every page's config and in /config, the same for everyone;
an annotator's top bar offered Results, Experiments and Inspect, each a page saying it is
not for them. RouteAccess (ui/gradio_hooks.py) sends every page and /config of a login
through `own_navbar`, which marks each page the caller may not open as not shown in the
navbar (Gradio's own `show_in_navbar`); the pages' routes refuse them as before.

A link to a model's response (`/?item=X&response=ID`, sent on to Inspect by the page) is for
those who may open Inspect; anyone else who may annotate is sent to the item itself
(`without_response`): an annotator got the page saying Inspect is not for them.
"""
from __future__ import annotations

import json
import re
from urllib.parse import parse_qsl, urlencode

from ui import access

PAGES_LIST = re.compile(rb'"pages":(\[\[[^\[\]]*\](?:,\[[^\[\]]*\])*\])')
"""The config's list of pages: [[path, name, show_in_navbar], ...] ("" is `/`)."""


def shown_pages(who: access.Caller, pages: list) -> list:
    """`pages` with show_in_navbar false for each one `who` may not open."""
    return [[path, name, bool(shown) and access.may_open(who, "/" + path)]
            for path, name, shown in pages]


def own_navbar(body: bytes, who: access.Caller) -> bytes:
    """A page's HTML or a /config body with the pages `who` may not open off the navbar."""
    def rewrite(match):
        try:
            pages = shown_pages(who, json.loads(match.group(1)))
        except (ValueError, TypeError):
            return match.group(0)            # not the list Gradio writes: left as it is
        return b'"pages":' + json.dumps(pages, separators=(",", ":"),
                                        ensure_ascii=False).encode()
    return PAGES_LIST.sub(rewrite, body, count=1)


def without_response(scope, who: access.Caller) -> str | None:
    """Where a request for `/` naming a response goes instead, for a caller who may not open
    Inspect: the same address without `response` (None: the page opens as asked)."""
    if scope.get("path", "").rstrip("/") != "" or scope.get("method") not in ("GET", "HEAD"):
        return None
    query = parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
    if all(key != "response" for key, _ in query) or access.may_open(who, "/inspect"):
        return None
    rest = urlencode([(k, v) for k, v in query if k != "response"], safe="/")
    return "./" + (f"?{rest}" if rest else "")
