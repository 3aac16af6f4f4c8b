"""Experiments tab, part 2: the preview of the exact request for one item.

The payload the run would send (runner.planning.preview_request) is shown three ways:
a readable transcript (roles, text, one line per image), the JSON body with every data URL
replaced by a short description, and the images themselves as thumbnails decoded from
those data URLs, so the user sees the masks, crops and resizing the model will get.
No base64 ever reaches the page.
"""
from __future__ import annotations

import base64
import binascii
import io
import json
import re

from PIL import Image

from runner.config import ConfigError
from runner.totals import counter
from store import StoreError
from ui.experiments_common import ExperimentError, code, redact
from ui.experiments_handlers import check_endpoint, plan, projection_md
from ui.text import escape_md

THUMB = 320
_DATA_URL = re.compile(r"^data:(image/[a-z]+);base64,(.*)$", re.S)


def _decode(url: str) -> tuple[str, bytes] | None:
    match = _DATA_URL.match(url or "")
    if not match:
        return None
    try:
        return match.group(1), base64.b64decode(match.group(2), validate=True)
    except (binascii.Error, ValueError):
        return None


def describe_images(messages: list[dict]) -> tuple[list[dict], list[tuple], list[str]]:
    """(messages with data URLs replaced by descriptions, [(thumbnail, caption)],
    [description per image])."""
    shown, thumbs, descriptions = [], [], []
    for message in messages:
        content = message["content"]
        if isinstance(content, list):
            parts = []
            for part in content:
                if part.get("type") != "image_url":
                    parts.append(part)
                    continue
                number = len(descriptions) + 1
                url = part["image_url"]["url"]
                decoded = _decode(url)
                if decoded is None:
                    text = f"<image {number}: {url[:60]}>"
                else:
                    mime, data = decoded
                    with Image.open(io.BytesIO(data)) as img:
                        width, height = img.size
                        thumb = img.convert("RGB")
                        thumb.thumbnail((THUMB, THUMB))
                    text = (f"<image {number}: {mime}, {width}×{height} px, "
                            f"{len(data) / 1024:.0f} KB>")
                    thumbs.append((thumb, f"image {number}: {width}×{height}"))
                descriptions.append(text)
                parts.append({"type": "image_url", "image_url": {"url": text}})
            content = parts
        shown.append({"role": message["role"], "content": content})
    return shown, thumbs, descriptions


def transcript(messages: list[dict]) -> str:
    """The messages as a person reads them: a header per role, images as one line each."""
    out = []
    for message in messages:
        out.append(f"──── {message['role']} ────")
        content = message["content"]
        if isinstance(content, str):
            out.append(content)
            continue
        for part in content:
            if part.get("type") == "text":
                out.append(part["text"])
            else:
                out.append(f"[{part['image_url']['url'].strip('<>')}]")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


STALE = "⚠ **stale — preview again**: a setting or a price changed since this preview."
SHOW_PREVIEW_JS = ("() => { document.getElementById('run-summary')?.scrollIntoView("
                   "{block: 'start'}); return []; }")


def marked_stale(summary: str | None) -> str | None:
    """The preview's summary marked stale once an input it depends on (a field of the form,
    the preview item, a price) changed: the projected cost and the request shown are no
    longer what Start would do. None: nothing to mark (no preview yet, or marked; or no
    text at all: a script's malformed call)."""
    if not isinstance(summary, str) or not summary.strip() or summary.startswith(STALE):
        return None
    return f"{STALE}\n\n{summary}"


def start_warning(store, the_plan) -> str:
    """What Start would say of the endpoint, tested as Start tests it: a preview of a run on
    a dead endpoint said "14 to send" without a word, and only Start refused it."""
    from runner.coverage import Coverage

    projection = the_plan.projection
    try:
        warning = check_endpoint(store, the_plan.endpoint, "Start would refuse this run",
                                 lambda: Coverage(projection["cached"],
                                                  projection["requests"]))
    except ExperimentError as err:
        warning = str(err)
    return f"  \n⚠ {escape_md(warning)}" if warning else ""


def unsent_line(reason: str) -> str:
    """What becomes of an item the run sends no request for, as the run counts it: an item
    its clue source run has no clues for is "no source clue", apart from the errors (the
    preview called it an error one line below the projection saying it was not one)."""
    if counter("error", reason) == "no_source_clue":
        return ("this item is not asked: counted as \"no source clue\", not as an error "
                f"({escape_md(reason)})")
    return f"this item would be recorded as an error without a request: {escape_md(reason)}"


PHASE_WORDS = {"answer": "the answer request",
               "clues": "the clue pass: the request that finds the clues to inject"}
"""A work row's phase as the preview's header says it ('(phase answer)' was jargon)."""


def preview(store, form: dict, item_id: str | None = None, may_price: bool = True) -> dict:
    """{"summary" (Markdown), "transcript", "payload" (JSON text, images described),
    "thumbnails" [(PIL image, caption)], "item_id", "items"}; `may_price`: whether the
    reader may set prices (`projection_md`)."""
    from runner.planning import preview_request

    the_plan = plan(store, form)
    try:
        request = preview_request(store, the_plan, (item_id or "").strip() or None)
    except (ConfigError, StoreError) as err:
        raise ExperimentError(str(err)) from None
    endpoint = the_plan.endpoint
    phase = PHASE_WORDS.get(request["phase"], request["phase"])
    head = (f"Preview of item {code(request['item_id'])} ({phase}), "
            f"request to {code(endpoint['base_url'] + '/chat/completions')}, model "
            f"{code(endpoint['model'])}; cache key {code((request['cache_key'] or '')[:16])}"
            + (" — **already cached: this request is free**" if request["cached"] else ""))
    summary = head + "  \n" + projection_md(the_plan, may_price) + start_warning(store, the_plan)
    if request["error"]:
        summary += f"  \n⚠ {unsent_line(request['error'])}"
        return {"summary": redact(store, summary), "transcript": "", "payload": "",
                "thumbnails": [], "item_id": request["item_id"],
                "items": list(the_plan.items)}
    payload = dict(request["payload"])
    messages, thumbs, _ = describe_images(payload.pop("messages"))
    params = {k: v for k, v in payload.items() if k != "model"}
    text = (f"POST {endpoint['base_url']}/chat/completions\nmodel: {endpoint['model']}\n"
            + "".join(f"{k}: {v}\n" for k, v in params.items()) + "\n" + transcript(messages))
    body = json.dumps({**payload, "messages": messages}, indent=2, ensure_ascii=False)
    return {"summary": redact(store, summary), "transcript": redact(store, text),
            "payload": redact(store, body), "thumbnails": thumbs,
            "item_id": request["item_id"], "items": list(the_plan.items)}
