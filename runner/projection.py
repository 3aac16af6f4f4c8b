"""What a planned run will cost before it starts: its requests, what the cache answers, and
the tokens and dollars of the rest, with the basis of every estimate said.

Each request's prompt is estimated a priori from its own messages (text and images apart),
then corrected by what this model at this endpoint reported for the requests it was sent
before, else by what the model reported at another URL (runner/costs.py `calibrate`),
whatever their setting, clue source or items: so a clues=gt run is not projected from the
shorter prompts of a clues=none one. Completions are
the endpoint's mean a request for the same prompt setting and clue source (else the same
setting, else a comparable setting: `costs.COMPARABLE`; else max_tokens, said as a bound). The first pass of clues=self is projected under its own setting, without
clues; its answers with the clues its first pass will read from a cached reply when the
cache holds that reply (the run takes it, so the answer's request, and its key, are known:
counted as not cached, a rerun of a clues=self run was said to send half of what it would
take from the cache), else with three placeholder clues (their keys unknown: not cached).
"""
from __future__ import annotations

from collections import Counter

from runner import costs, provenance
from runner.outcomes import from_reply
from runner.prompts import PromptSet
from runner.work import WorkBuilder, clue_texts

PLACEHOLDER_CLUES = ["(a clue)"] * 3


def project(store, plan) -> dict:
    """{"requests", "cached", "to_send", "prompt_tokens", "completion_tokens",
    "completion_tokens_max", "priced", "cost", "cost_max", "work", "use_cache",
    "cached_from", "cache_text", "basis"} of a RunPlan (runner/planning.py)."""
    builder = WorkBuilder(plan.resolved, PromptSet.load(store, plan.resolved["templates"]),
                          plan.items)
    if plan.config.clues.startswith("run:"):
        builder.set_clue_responses(store.run_response_clues(plan.config.clues[4:]))
    endpoint = plan.resolved["endpoint"]
    calibration = costs.calibrate(**store.usage_history(endpoint["base_url"],
                                                        endpoint["model"]))
    sizes = _image_sizes(store, plan.items)
    if plan.config.clues == "self" and plan.execution.use_cache:
        builder.set_clue_responses(_cached_first_pass(store, plan, builder))
    requests = []                       # (cache key or None, prompt tokens, setting, clues)
    for phase, item_id, repeat, sample, *_ in plan.work:
        work = {"phase": phase, "item_id": item_id, "repeat": repeat, "sample": sample}
        clues = "none" if phase == "clues" else plan.config.clues
        if phase == "answer" and clues == "self" and \
                (item_id, repeat) not in builder.injected:
            key, messages = None, builder.messages(work, PLACEHOLDER_CLUES)
        else:
            request = builder.build(work)
            if request.error:           # recorded as an error without a request
                continue
            key, messages = request.key, request.messages
        prompt = calibration.prompt(*costs.estimate_prompt_parts(messages, sizes))
        requests.append((key, prompt, builder.phase_setting(phase), clues))
    keys = [r[0] for r in requests if r[0]]
    hits = store.cache_get_many(keys) if keys and plan.execution.use_cache else {}
    to_send = [r for r in requests if r[0] not in hits]
    max_tokens = plan.resolved["sampling"].get("max_tokens")
    typical, upper, said, bounded, guess = 0, 0, {}, 0, 0
    for setting, clues in (r[2:] for r in to_send):
        mean, basis = calibration.completion(setting, clues)
        each, bound = costs.completion_bounds(setting, max_tokens, mean)
        guess += each
        if mean is None:    # no length measured for this model: its bound, not a guess (an
            # a-priori 350 for CoT was ~35x what the fake server's replies measured)
            each, basis, bounded = (bound, f"{costs.setting_title(setting)}: {costs.UNMEASURED}",
                                     bounded + 1)
        typical, upper = typical + each, upper + bound
        said[basis] = each
    out = costs.projection(store.price_for(endpoint["model"]), len(requests), len(hits),
                           round(sum(r[1] for r in to_send)), typical, upper)
    # the budget's guard (`planning`) keeps the a-priori length until replies come in: at
    # max_tokens a small budget refused a run whose replies cost a fraction of it
    out["cost_guess"] = costs.cost(store.price_for(endpoint["model"]),
                                   out["prompt_tokens"], guess) if bounded else out["cost"]
    out["work"] = len(plan.work)
    out["completion_bounded"] = bounded     # requests counted at max_tokens (none measured)
    out["use_cache"] = plan.execution.use_cache
    out["cached_from"] = dict(Counter(hit.get("run_id") or "" for hit in hits.values()))
    out["cache_text"] = provenance.planned_text(store, out["cached_from"], out["use_cache"])
    out["basis"] = basis_text(endpoint["model"], calibration, said)
    return out


def _cached_first_pass(store, plan, builder) -> dict[tuple[str, int], dict]:
    """{(item, repeat): {"status", "clues"}} read from the cached replies of the first pass
    (its sample 0, which the answers inject, as the engine reads them: runner/outcomes.py),
    for those the cache holds and that list clues; an answer whose first pass must be sent
    is left to the placeholder clues."""
    requests = {}
    for phase, item_id, repeat, sample, *_ in plan.work:
        if phase == "clues" and sample == 0 and item_id in builder.items:
            request = builder.build({"phase": phase, "item_id": item_id, "repeat": repeat,
                                     "sample": sample})
            if not request.error:
                requests[(item_id, repeat)] = request.key
    hits = store.cache_get_many(list(requests.values())) if requests else {}
    found = {}
    for (item_id, repeat), key in requests.items():
        if key in hits:
            item = builder.items[item_id]
            row = from_reply(0, hits[key], item["answer_type"], item["options"],
                             cache_key=key, price_cost=None, cached_from="", phase="clues",
                             box_convention=plan.resolved.get("box_convention") or "auto")
            if clue_texts(row["clues"]):
                found[(item_id, repeat)] = {"status": row["status"], "clues": row["clues"]}
    return found


def _image_sizes(store, items: dict[str, dict]) -> dict[str, tuple[int, int]]:
    sizes = {}
    for item in items.values():
        for sha in list(item["images"]) + [o["image"] for o in item["options"] if o.get("image")]:
            if sha not in sizes:
                info = store.image_info(sha)
                sizes[sha] = (info["width"], info["height"])
    return sizes


def basis_text(model: str, calibration: costs.Calibration, completions: dict[str, int]) -> str:
    """What the token estimate rests on, part by part: 'calibrated on the usage gpt-4o's
    endpoint reported: prompt text x0.98 (28 text-only requests), images x0.21 of OpenAI's
    high-detail rule (14 requests with images); completion length: CoT with clues none (14
    replies): 3 tokens a request', or 'a priori (...)' when nothing is recorded."""
    c = calibration
    if not completions:
        return "nothing to send: the cache answers every request"
    if not (c.text_requests or c.image_requests or c.completions):
        return ("a priori (~4 characters a token, images by OpenAI's high-detail rule; "
                f"completion tokens at most max_tokens a request, an upper bound): {model} "
                "has no recorded usage to calibrate on yet, at this endpoint or another")
    text = (f"prompt text ×{c.text_scale:.2f} ({c.text_requests} text-only requests)"
            if c.text_requests else "prompt text a priori (~4 characters a token)")
    images = (f"images ×{c.image_scale:.2f} of OpenAI's high-detail rule ({c.image_requests} "
              "requests with images)" if c.image_requests
              else "images a priori (OpenAI's high-detail rule)")
    # "... (70 replies) 21" ended in a bare number: each basis says what its number is
    each = ", ".join(f"{basis.replace(': a priori', ' a priori')}: {n} tokens a request"
                     for basis, n in completions.items())
    whose = f"{model}'s endpoint reported" if c.at == "endpoint" else \
        f"{model} reported at another endpoint URL (none recorded at this one)"
    # a part with no recorded usage is a priori: "calibrated on … prompt text a priori" read
    # as a contradiction (a review)
    partly = "a priori" in f"{text} {images}" or costs.UNMEASURED in each
    return (f"{'partly ' if partly else ''}calibrated on the usage {whose}"
            f"{' (a priori where none is recorded)' if partly else ''}: {text}, {images}; "
            f"completion length: {each}")
