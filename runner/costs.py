"""Prices and projections: what a run will cost before launch, what it costs as it goes.

Prices come from the user-editable `prices` table (model id or glob -> USD per million
input and output tokens). A model without a price has an unknown cost (None), which is
different from free: a budget cannot be enforced on an unknown price, and the CLI says so.

Token counts before launch are estimates. A priori: text at ~4 characters per token, images
with OpenAI's high-detail rule (85 + 170 per 512-px tile after fitting 2048 px and a 768-px
short side; Claude's w*h/750 and Qwen-VL's 28-px patches land near it, Gemini's flat 258 and
low-detail 85 well below), completions at a typical length per setting capped by max_tokens.
Providers count images so differently (a server counting 85 per image gets a fifth of the
a-priori prompt tokens), and models write so differently (a few tokens, or thousands), that
the a-priori numbers are only a first guess. Every request sent records its a-priori text and
image estimates beside the prompt tokens its endpoint reported, so the projection of a later
run is calibrated on that endpoint's recorded usage (`Calibration`): text tokens scaled by
reported / estimated on its text-only requests, image tokens by what its requests with images
reported beyond their text, whatever their setting, clue source or items (so a clues=gt run is
not judged by the shorter prompts of a clues=none one); completions, per request (one sample
of one item), at the mean the endpoint reported for the same prompt setting and clue source
(else the same setting, else a comparable one: CoT, Clue-guided CoT and Structured for each
other), else at most max_tokens, said as a bound. The projection
says which basis each part used; the a-priori figure stays only where there is nothing to
calibrate from. Once a run has results, projections use its measured mean cost per request.
"""
from __future__ import annotations

from decimal import Decimal

import math
from dataclasses import dataclass, field

from domain.vocabulary import SETTING_TITLES
from runner.messages import ImageRef, image_refs

TYPICAL_COMPLETION = {"direct": 8, "cot": 350, "clue_guided": 450, "structured": 400}
DEFAULT_MAX_COMPLETION = 1024
"""Upper-bound completion length assumed when a run sets no max_tokens."""
UNMEASURED = "no length measured yet, at most max_tokens"
"""A projection's completion part for a setting whose lengths this model never reported: its
upper bound (`completion_bounds`), said as one, not a typical length guessed a priori."""


def completion_words(p: dict, grouped: bool = False) -> str:
    """'~9 completion tokens' of a projection, or 'at most 3,072 completion tokens (max_tokens
    a request: no completion length measured for this model yet)' when some requests are
    counted at their bound (`projection.project`'s "completion_bounded"). `grouped`: 3,072
    (the page), else 3072 (the command line)."""
    n = f"{p['completion_tokens']:,}" if grouped else str(p["completion_tokens"])
    if not p.get("completion_bounded"):
        return f"~{n} completion tokens"
    some = "" if p["completion_bounded"] >= p.get("to_send", 0) else \
        f" for {p['completion_bounded']} of the {p['to_send']} requests"
    return (f"at most {n} completion tokens (max_tokens a request{some}: "
            "no completion length measured for this model and setting yet)")


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


def estimate_prompt_parts(messages: list[dict], sizes: dict[str, tuple[int, int]]
                          ) -> tuple[int, int]:
    """(text tokens, image tokens) of built messages (before materialising), a priori."""
    chars = 0
    for message in messages:
        content = message["content"]
        if isinstance(content, str):
            chars += len(content)
        else:
            chars += sum(len(p["text"]) for p in content if isinstance(p, dict))
    text = chars // 4 + 4 * len(messages)
    return text, sum(image_tokens(*_ref_size(r, sizes)) for r in image_refs(messages))


def estimate_prompt_tokens(messages: list[dict], sizes: dict[str, tuple[int, int]]) -> int:
    """Rough prompt tokens of built messages (before materialising)."""
    return sum(estimate_prompt_parts(messages, sizes))


def clue_kind(clues: str) -> str:
    """A clue source as calibration groups it: none, gt, self, or run (whichever run)."""
    return "run" if clues.startswith("run:") else clues


@dataclass
class Calibration:
    """How an endpoint's recorded usage corrects the a-priori estimates (`calibrate`)."""
    text_scale: float = 1.0
    image_scale: float = 1.0
    text_requests: int = 0          # text-only requests the text scale rests on
    image_requests: int = 0         # requests with images the image scale rests on
    completions: dict = field(default_factory=dict)   # (setting, clue kind) -> (mean, n)
    at: str = "endpoint"            # whose usage: this endpoint's, or the model's elsewhere

    def prompt(self, text: int, images: int) -> float:
        return text * self.text_scale + images * self.image_scale

    def completion(self, setting: str, clues: str) -> tuple[float | None, str]:
        """(measured completion tokens a request, i.e. per sample of one item, or None when
        nothing comparable is measured; what it rests on): the endpoint's mean for this
        setting and clue source, else for this setting, else for a comparable setting (one
        that reasons the same way: `COMPARABLE`), else None (the caller counts max_tokens,
        said as a bound). A setting is never scaled from an unlike one: one short Direct
        run (3 tokens against an a-priori 8, ×0.38) projected CoT at 350 × 0.38 = 132
        tokens a request where the same server answered in 3, ×40 too high."""
        title = setting_title(setting)   # "clue_guided as a priori" read as an id
        found = self.completions.get((setting, clue_kind(clues)))
        if found:
            return found[0], f"{title} with clues {clue_kind(clues)} ({found[1]} replies)"
        same = [v for (s, _), v in self.completions.items() if s == setting]
        if same:
            return _mean(same), f"{title}, any clue source ({sum(n for _, n in same)} replies)"
        like = [(s, v) for (s, _), v in self.completions.items()
                if s != setting and COMPARABLE.get(s) == COMPARABLE.get(setting, setting)]
        if like:
            names = " and ".join(sorted({setting_title(s) for s, _ in like}))
            return (_mean([v for _, v in like]),
                    f"{title} as measured for {names} ({sum(n for _, (_, n) in like)} "
                    "replies)")
        return None, f"{title}: a priori"


def setting_title(setting: str) -> str:
    """A prompt setting as the run form titles it ('Clue-guided CoT' for clue_guided)."""
    return SETTING_TITLES.get(setting, setting)


# settings whose replies are alike in length: the reasoning ones (a chain of thought before
# the answer) stand in for each other where one is not measured; Direct (the answer alone)
# for none, nor any of them for it
COMPARABLE = {"cot": "reasoning", "clue_guided": "reasoning", "structured": "reasoning",
              "direct": "direct"}


def _typical(setting: str) -> int:
    return TYPICAL_COMPLETION.get(setting, 400)


def _mean(pairs: list[tuple[float, int]]) -> float:
    """The mean over groups given as (mean, count)."""
    return sum(mean * count for mean, count in pairs) / sum(count for _, count in pairs)


def calibrate(prompts: list[dict], completions: list[dict], at: str = "endpoint"
              ) -> Calibration:
    """From an endpoint's recorded usage (`Store.usage_history`): `prompts` [{"images": bool,
    "n", "prompt", "text", "image"}] (reported prompt tokens and the a-priori text and image
    estimates, summed over its requests without / with images) and `completions`
    [{"setting", "clues", "n", "completion"}]. The text scale comes from the text-only
    requests (1 without any); the image scale from what the requests with images reported
    beyond their (scaled) text (1 without any). `at`: "endpoint" when the usage is this
    endpoint's (its URL), "model" when it is the same model's at other URLs."""
    out = Calibration(at=at)
    text_only = next((p for p in prompts if not p["images"] and p["text"]), None)
    if text_only:
        out.text_scale, out.text_requests = text_only["prompt"] / text_only["text"], \
            text_only["n"]
    imaged = next((p for p in prompts if p["images"] and p["image"]), None)
    if imaged:
        beyond = imaged["prompt"] - imaged["text"] * out.text_scale
        out.image_scale, out.image_requests = max(0.0, beyond) / imaged["image"], imaged["n"]
    for c in completions:
        key = (c["setting"], clue_kind(c["clues"]))
        mean, n = out.completions.get(key, (0.0, 0))
        out.completions[key] = ((mean * n + c["completion"]) / (n + c["n"]), n + c["n"])
    return out


def completion_bounds(setting: str, max_tokens: int | None,
                      typical: float | None = None) -> tuple[int, int]:
    """(typical, upper bound) completion tokens per request for a setting (`typical`: a
    measured mean instead of the setting's a-priori length)."""
    upper = max_tokens or DEFAULT_MAX_COMPLETION
    guess = _typical(setting) if typical is None else math.ceil(typical)
    return min(guess, upper), upper


def projection(price: dict | None, requests: int, cached: int, prompt_tokens: int,
               completion_tokens: int, completion_max: int) -> dict:
    """Projected tokens and cost of the requests still to send (cached ones are free):
    `prompt_tokens`, `completion_tokens` (typical) and `completion_max` (at max_tokens) are
    totals over those requests. With nothing to send the cost is $0 whatever the price
    (the run that follows spends nothing either)."""
    to_send = max(0, requests - cached)
    nothing = 0.0 if not to_send else None
    return {"requests": requests, "cached": cached, "to_send": to_send,
            "prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
            "completion_tokens_max": completion_max, "priced": price is not None,
            "cost": nothing if price is None else cost(price, prompt_tokens, completion_tokens),
            "cost_max": nothing if price is None else cost(price, prompt_tokens, completion_max)}


UNKNOWN_COST = "unknown (no price)"


def money(value: float | None) -> str:
    """A cost as shown: '$0.0123', or 'unknown (no price)' (never a fake $0.0000)."""
    return UNKNOWN_COST if value is None else f"${value:.4f}"


def usd(amount: float) -> str:
    """An amount a person typed (a budget) as plain dollars, "$2.5", "$0.0000001": "{:g}"
    wrote "$1e-07", a number in scientific notation read as no amount of money."""
    return "$" + format(Decimal(repr(float(amount))).normalize(), "f")


def projected_spend(spent: float, in_flight: int, per_request: float | None) -> float:
    """What the run will have spent once the requests in flight come back."""
    return spent + in_flight * (per_request or 0.0)
