"""The cache key of a request: what makes two requests the same draw, computed without
encoding a single image.

A request is identified by the endpoint's base URL and model, the messages with every image
replaced by its content hash and the transformation applied to it (mask, crop, resize,
format, quality) and the sampling parameters. A run's request is also one draw: the item
it asks about, its repeat and its sample enter the key too, so a cached reply stands only
for the same draw position of the same request. Two items whose requests read the same
(same text, no image) never share a reply, and repeat 1 never takes repeat 0's: with
temperature > 0 each (item, repeat, sample) is an independent draw. (A later run asking
the same request at the same position may reuse the reply, and says so: runner/draws.py;
`run --no-cache` does not.) Because images enter the key as hashes + parameters, a warm
rerun never decodes or encodes an image.

Judge calls use the same function with their own messages and no item (a judgement is one
deterministic question, shared by whoever asks it).
"""
from __future__ import annotations

import hashlib
import json
from typing import Any

from runner.messages import ImageRef

KEY_VERSION = 2
"""Bump when the key's recipe changes, so old entries are not matched by a new recipe."""


def _image_fields(part: Any) -> dict:
    """json.dumps' hook for what it cannot encode itself: an image enters as its key fields."""
    if isinstance(part, ImageRef):
        return part.key_fields()
    raise TypeError(f"Object of type {type(part).__name__} is not JSON serializable")


def _sha256_json(document: Any) -> str:
    encoded = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                         default=_image_fields)
    return hashlib.sha256(encoded.encode("utf-8")).hexdigest()


def messages_digest(messages: list[dict]) -> str:
    """sha256 of the messages with images as hash + transformation. Samples and repeats of
    an item share their messages, so callers compute this once and pass it on."""
    return _sha256_json(messages)


def cache_key(base_url: str, model: str, messages: list[dict] | None, params: dict,
              sample: int = 0, repeat: int = 0, *, digest: str | None = None,
              item: str | None = None) -> str:
    """sha256 hex of the canonical JSON of everything that determines the reply (the
    messages enter through their digest; give `digest` when it is known already) and, for
    a run's request, of its draw position: `item`, `repeat`, `sample`. Entries keyed before
    the item was part of a run's key match no run's request any more (they may have been
    shared between items); judges' keys (no item) are unchanged."""
    document = {"v": KEY_VERSION, "base_url": base_url.rstrip("/"), "model": model,
                "messages": digest or messages_digest(messages), "params": params,
                "sample": sample, "repeat": repeat}
    if item is not None:
        document["item"] = item
    return _sha256_json(document)
