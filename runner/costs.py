"""Prices and projections: what a run will cost before launch, what it costs as it goes.

Prices come from the user-editable `prices` table (model id or glob -> USD per million
input and output tokens). A model without a price has an unknown cost (None), which is
different from free: a budget cannot be enforced on an unknown price, and the CLI says so.

Token counts before launch are estimates: text at ~4 characters per token, images with
OpenAI's high-detail rule (85 + 170 per 512-px tile after fitting 2048 px and a 768-px short
side), completions at a typical length per setting capped by max_tokens. Once a run has
results, projections use its measured mean cost per request instead.
"""
from __future__ import annotations

import math

from runner.messages import ImageRef, image_refs

TYPICAL_COMPLETION = {"direct": 8, "cot": 350, "clue_guided": 450, "structured": 400}
DEFAULT_MAX_COMPLETION = 1024
"""Upper-bound completion length assumed when a run sets no max_tokens."""


def cost(price: dict | None, prompt_tokens: int | None, completion_tokens: int | None
         ) -> float | None:
    """USD for one request, or None when the model has no price."""
    if price is None:
        return None
    return ((prompt_tokens or 0) * price["input_per_m"]
            + (completion_tokens or 0) * price["output_per_m"]) / 1_000_000


def image_tokens(width: int, height: int) -> int:
    """OpenAI's high-detail token count, a fair middle for other providers too."""
    if width <= 0 or height <= 0:
        return 85
    scale = min(1.0, 2048 / max(width, height))
    width, height = width * scale, height * scale
    scale = min(1.0, 768 / min(width, height))
    width, height = width * scale, height * scale
    return 85 + 170 * math.ceil(width / 512) * math.ceil(height / 512)


def _ref_size(ref: ImageRef, sizes: dict[str, tuple[int, int]]) -> tuple[int, int]:
    width, height = sizes.get(ref.sha, (512, 512))
    if ref.op == "crop" and ref.boxes:
        x0, y0, x1, y1 = ref.boxes[0]
        width, height = max(1, int(x1 - x0)), max(1, int(y1 - y0))
    if ref.max_pixels and width * height > ref.max_pixels:
        scale = math.sqrt(ref.max_pixels / (width * height))
        width, height = int(width * scale), int(height * scale)
    return width, height


def estimate_prompt_tokens(messages: list[dict], sizes: dict[str, tuple[int, int]]) -> int:
    """Rough prompt tokens of built messages (before materialising)."""
    chars = 0
    for message in messages:
        content = message["content"]
        if isinstance(content, str):
            chars += len(content)
        else:
            chars += sum(len(p["text"]) for p in content if isinstance(p, dict))
    tokens = chars // 4 + 4 * len(messages)
    return tokens + sum(image_tokens(*_ref_size(r, sizes)) for r in image_refs(messages))


def completion_bounds(setting: str, max_tokens: int | None) -> tuple[int, int]:
    """(typical, upper bound) completion tokens per request for a setting."""
    upper = max_tokens or DEFAULT_MAX_COMPLETION
    return min(TYPICAL_COMPLETION.get(setting, 400), upper), upper


def projection(price: dict | None, requests: int, prompt_tokens: int, setting: str,
               max_tokens: int | None, cached: int = 0) -> dict:
    """Projected tokens and cost of the requests still to send (cached ones are free)."""
    to_send = max(0, requests - cached)
    typical, upper = completion_bounds(setting, max_tokens)
    per_prompt = prompt_tokens / requests if requests else 0
    prompt_total = int(per_prompt * to_send)
    out = {"requests": requests, "cached": cached, "to_send": to_send,
           "prompt_tokens": prompt_total, "completion_tokens": typical * to_send,
           "completion_tokens_max": upper * to_send, "priced": price is not None,
           "cost": cost(price, prompt_total, typical * to_send),
           "cost_max": cost(price, prompt_total, upper * to_send)}
    return out


def projected_spend(spent: float, in_flight: int, per_request: float | None) -> float:
    """What the run will have spent once the requests in flight come back."""
    return spent + in_flight * (per_request or 0.0)
