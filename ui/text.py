"""Escaping for untrusted text (imported files, model output) shown in Markdown or HTML.

Gradio renders Markdown components as HTML; anything that did not come from our own code
goes through these helpers so that `<script>`, `<img onerror=…>` and `javascript:` links
are shown as text and never run.
"""
from __future__ import annotations

import html
import re

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|>~])")


def escape_html(text) -> str:
    return html.escape("" if text is None else str(text), quote=True)


def escape_md(text) -> str:
    """Text that Markdown shows literally: HTML escaped, Markdown syntax backslashed."""
    return _MD_SPECIAL.sub(r"\\\1", escape_html(text))


def short(text, limit: int = 90) -> str:
    text = " ".join(("" if text is None else str(text)).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
