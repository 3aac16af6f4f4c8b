"""The cache key of a request: what makes two requests the same, computed without encoding
a single image.

A request is identified by the endpoint's base URL and model, the messages with every image
replaced by its content hash and the transformation applied to it (mask, crop, resize,
format, quality), the sampling parameters, and the sample index (and repeat, so that the
repeats of an unseeded run are not mistaken for one another). Because images enter the key
as hashes + parameters, a warm rerun never decodes or encodes an image.

Judge calls use the same function with their own messages (sample 0).
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
              sample: int = 0, repeat: int = 0, *, digest: str | None = None) -> str:
    """sha256 hex of the canonical JSON of everything that determines the reply (the
    messages enter through their digest; give `digest` when it is known already)."""
    return _sha256_json({"v": KEY_VERSION, "base_url": base_url.rstrip("/"), "model": model,
                         "messages": digest or messages_digest(messages), "params": params,
                         "sample": sample, "repeat": repeat})
