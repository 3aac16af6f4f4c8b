"""Prices and projections: what a run will cost before launch, what it costs as it goes.

Prices come from the user-editable `prices` table (model id or glob -> USD per million
input and output tokens). A model without a price has an unknown cost (None), which is
different from free: a budget cannot be enforced on an unknown price, and the CLI says so.

Token counts before launch are estimates. A priori: text at ~4 characters per token, images
with OpenAI's high-detail rule (85 + 170 per 512-px tile after fitting 2048 px and a 768-px
short side; Claude's w*h/750 and Qwen-VL's 28-px patches land near it, Gemini's flat 258 and
low-detail 85 well below), completions at a typical length per setting capped by max_tokens.
Providers count images so differently (a server counting 85 per image gets a fifth of the
a-priori prompt tokens) that the a-priori numbers are only a first guess: when the same model
has answered the same items with the same setting and image mode before, the estimate is
calibrated on what its endpoint reported (`calibrate`): prompt tokens scaled by measured /
estimated on those items, completions at their measured mean. The projection says which
basis it used. Once a run has results, projections use its measured mean cost per request.
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


def completion_bounds(setting: str, max_tokens: int | None,
                      typical: float | None = None) -> tuple[int, int]:
    """(typical, upper bound) completion tokens per request for a setting (`typical`: a
    measured mean instead of the setting's a-priori length)."""
    upper = max_tokens or DEFAULT_MAX_COMPLETION
    guess = TYPICAL_COMPLETION.get(setting, 400) if typical is None else math.ceil(typical)
    return min(guess, upper), upper


def calibrate(estimated: dict[str, int], measured: dict[str, tuple[float, float]]
              ) -> tuple[float, float | None, int]:
    """(prompt scale, typical completion tokens, items measured) from the a-priori prompt
    estimates {item_id: tokens} of this plan and the endpoint's reported usage {item_id:
    (prompt, completion)} on the same items; (1.0, None, 0) when there is none."""
    both = [i for i in estimated if i in measured and estimated[i] > 0]
    if not both:
        return 1.0, None, 0
    scale = sum(measured[i][0] for i in both) / sum(estimated[i] for i in both)
    return scale, sum(measured[i][1] for i in both) / len(both), len(both)


def projection(price: dict | None, requests: int, prompt_tokens: int, setting: str,
               max_tokens: int | None, cached: int = 0,
               typical_completion: float | None = None) -> dict:
    """Projected tokens and cost of the requests still to send (cached ones are free)."""
    to_send = max(0, requests - cached)
    typical, upper = completion_bounds(setting, max_tokens, typical_completion)
    per_prompt = prompt_tokens / requests if requests else 0
    prompt_total = int(per_prompt * to_send)
    out = {"requests": requests, "cached": cached, "to_send": to_send,
           "prompt_tokens": prompt_total, "completion_tokens": typical * to_send,
           "completion_tokens_max": upper * to_send, "priced": price is not None,
           "cost": cost(price, prompt_total, typical * to_send),
           "cost_max": cost(price, prompt_total, upper * to_send)}
    return out


UNKNOWN_COST = "unknown (no price)"


def money(value: float | None) -> str:
    """A cost as shown: '$0.0123', or 'unknown (no price)' (never a fake $0.0000)."""
    return UNKNOWN_COST if value is None else f"${value:.4f}"


def projected_spend(spent: float, in_flight: int, per_request: float | None) -> float:
    """What the run will have spent once the requests in flight come back."""
    return spent + in_flight * (per_request or 0.0)
