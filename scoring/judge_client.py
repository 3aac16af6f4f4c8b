"""Sending judge prompts: the runner's client, retries, limiter and response cache.

A judge call is an ordinary chat request (one user message, temperature 0) to any endpoint,
keyed exactly like a run's requests (`runner.cache.cache_key`) and stored in the same
`response_cache` table. So re-scoring a run finds every reply it already paid for and sends
nothing, and two runs that need the same judgement share it. Failed calls are not cached
(they are retried next time) and give `unscored`, never a 0. An endpoint that cannot work at
all (nothing listening, key refused, unknown model) stops the scoring with a readable message.
"""
from __future__ import annotations

import asyncio

from domain.judge_ids import format_judge, llm_judge

from runner.cache import cache_key
from runner.client import ChatClient, RequestFailed
from runner.endpoints import api_key_for, explain_failure, preflight
from runner.limiter import AdaptiveLimiter
from runner.outcomes import cache_row, is_endpoint_failure
from runner.retry import RetryPolicy, call_with_retries

from scoring.same_judge import JUDGE_PARAMS, endpoint_identity, judge_params

FLUSH_EVERY = 20   # cache entries written per transaction while replies come in


class JudgeUnavailable(Exception):
    """The judge endpoint cannot answer at all; the message says why and what to check."""


class JudgeClient:
    """One judge endpoint. `ask_many(prompts)` blocks; call it from a worker thread."""

    def __init__(self, store, endpoint_name: str, *, timeout: float = 120.0,
                 max_attempts: int = 4, retry_base_delay: float = 0.5, use_cache: bool = True):
        self.store = store
        self.endpoint = store.get_endpoint(endpoint_name)
        self.name = format_judge(llm_judge(endpoint_name))
        self.params = judge_params(self.endpoint)
        self.timeout = timeout
        self.policy = RetryPolicy(max_attempts=max_attempts, base_delay=retry_base_delay)
        self.use_cache = use_cache                # False: ask again (`score --no-cache`)
        # every distinct prompt ends as one of: answered (sent, and its reply read), cached,
        # failed: `unreadable` (a reply the stage could not read) or no reply, counted in
        # `failures` by kind ("HTTP 500", "timed out": `failure_kind`)
        self.answered = self.cached = self.failed = self.unreadable = 0
        self.failures: dict[str, int] = {}
        self.reused: dict[str, int] = {}   # cached replies another judge's calls made: {judge: n}

    @staticmethod
    def messages(prompt: str) -> list[dict]:
        return [{"role": "user", "content": prompt}]

    def key(self, prompt: str) -> str:
        return cache_key(self.endpoint["base_url"], self.endpoint["model"],
                         self.messages(prompt), self.params)

    def ask_many(self, prompts: list[str], on_progress=None,
                 readable=lambda prompt, reply: True) -> dict[str, dict]:
        """{prompt: {"reply": text or None, "error": reason or None, "cached": bool}} for the
        distinct prompts; cached replies are not sent again.

        `readable(prompt, reply)`: whether the stage can read a reply. One it cannot is
        returned (the verdict says it was unreadable) but never cached, and a cached one is
        not taken: a judge that answered badly once is asked again by the next scoring, not
        held to that reply for ever. Counted as failed (and in `unreadable`)."""
        distinct = list(dict.fromkeys(prompts))
        keys = {p: self.key(p) for p in distinct}
        hits = self.store.cache_get_many(list(set(keys.values()))) \
            if distinct and self.use_cache else {}
        out = {p: {"reply": hits[keys[p]]["text"], "error": None, "cached": True}
               for p in distinct if keys[p] in hits and readable(p, hits[keys[p]]["text"])}
        self.cached += len(out)
        for p in out:
            made_for = hits[keys[p]].get("judge")
            if made_for and made_for != self.name:
                self.reused[made_for] = self.reused.get(made_for, 0) + 1
        self._readable = readable
        missing = [p for p in distinct if p not in out]
        if on_progress:
            on_progress(len(out), len(distinct))
        if missing:
            asyncio.run(self._send_all(missing, keys, out, len(distinct), on_progress))
        return out

    async def _send_all(self, prompts, keys, out, total, on_progress) -> None:
        key, problem = api_key_for(self.endpoint)
        if problem:
            raise JudgeUnavailable(problem)
        concurrency = int(self.endpoint.get("concurrency") or 4)
        client = ChatClient(self.endpoint["base_url"], key, timeout=self.timeout,
                            max_connections=concurrency)
        limiter, pending = AdaptiveLimiter(concurrency), []
        down: list[str] = []
        try:
            problem = await preflight(client, self.endpoint)
            if problem:
                raise JudgeUnavailable(problem)

            async def one(prompt: str) -> None:
                payload = {"model": self.endpoint["model"], "messages": self.messages(prompt),
                           **self.params}
                try:
                    result = await call_with_retries(client, payload, self.policy, limiter)
                except RequestFailed as failure:
                    if is_endpoint_failure(failure):
                        down.append(explain_failure(failure, self.endpoint))
                    self.failed += 1
                    kind = failure_kind(failure)
                    self.failures[kind] = self.failures.get(kind, 0) + 1
                    out[prompt] = {"reply": None, "error": failure.reason, "cached": False}
                else:
                    out[prompt] = {"reply": result.text, "error": None, "cached": False}
                    if self._readable(prompt, result.text):
                        self.answered += 1
                        pending.append({**cache_row(keys[prompt], result), "judge": self.name})
                    else:
                        self.failed += 1
                        self.unreadable += 1
                    if len(pending) >= FLUSH_EVERY:
                        self._flush(pending)
                if on_progress:
                    on_progress(len(out), total)

            await asyncio.gather(*(one(p) for p in prompts))
        finally:
            self._flush(pending)
            await client.close()
        if down:
            raise JudgeUnavailable(down[0])

    def _flush(self, pending: list[dict]) -> None:
        """Paid replies go to the cache as they come, so an interrupted scoring keeps them."""
        while pending:
            self.store.cache_put(pending.pop())

    def counts(self) -> dict:
        """answered + cached + failed = `requests` (the distinct prompts); of the failed,
        `unreadable` the replies the judge's stage could not read and `failures` {kind:
        requests} those that got no reply, adding up to `failed` (all unscored, not
        cached); `sent`: the requests that went to the endpoint (answered + failed)."""
        return {"judge": self.name, "requests": self.answered + self.cached + self.failed,
                "answered": self.answered, "cached": self.cached, "failed": self.failed,
                "unreadable": self.unreadable, "failures": dict(self.failures),
                "sent": self.answered + self.failed, "reused": dict(self.reused)}


FAILURE_KINDS = (("timed out", "timed out"), ("cannot connect", "could not connect"),
                 ("connection to", "connection failed"), ("malformed", "malformed reply"),
                 ("error in stream", "error in the stream"), ("invalid URL", "invalid URL"))


def failure_kind(failure) -> str:
    """A request that got no reply, in a few words that never name the URL: 'HTTP 500',
    'timed out', ... (the reason's own words name the endpoint's URL, once per request)."""
    if failure.status is not None:
        return f"HTTP {failure.status}"
    return next((kind for start, kind in FAILURE_KINDS if failure.reason.startswith(start)),
                "no reply")


def counts_text(counts: dict, responses: int | None = None) -> str:
    """A judge's counters in words, the same on the page and the command line, adding up
    to its requests, and its failed ones by reason adding up to them: 'llm:j: 23
    requests: 14 answered, 0 from the cache, 9 failed (8 replies unreadable, 1 HTTP 500:
    unscored, not cached, so the next scoring asks again)' (the 9th was not said). (Unless
    an earlier readable reply to the same prompt is cached: after `--no-cache`, that one is
    taken.) With the run's `responses`, why the requests are not as many when they differ or
    some were cached (`score` said "6 responses" beside "2 requests: 0 answered, 2 from the
    cache" without a word): `why_requests`."""
    requests = counts["requests"]
    text = (f"{counts['judge']}: {requests} request{'' if requests == 1 else 's'}: "
            f"{counts['answered']} answered, {counts['cached']} from the cache, "
            f"{counts['failed']} failed{failed_why(counts)}")
    covering = counts.get("failed_responses")    # a request stands for identical prompts
    if counts["failed"] and covering:
        text += f", covering {covering} response{'' if covering == 1 else 's'}"
    return text + reused_text(counts) + why_requests(counts, responses)


def failed_why(counts: dict) -> str:
    """What a judge's failed requests were, adding up to them, after "9 failed": ' (8
    replies unreadable, 1 HTTP 500: unscored, not cached, so the next scoring asks again)',
    or '' when none failed. The command line's and the Results page's headline
    (ui/score_summary.py: it said "12 of 15 requests failed" of replies that came and could
    not be read)."""
    unreadable = counts.get("unreadable") or 0
    failures = dict(counts.get("failures") or {})
    other = counts["failed"] - unreadable - sum(failures.values())
    if other > 0:        # counters without `failures` (a caller's own): the parts still add up
        failures["no reason recorded"] = other
    parts = ([f"{unreadable} {'reply' if unreadable == 1 else 'replies'} unreadable"]
             if unreadable else []) + [f"{n} {kind}" for kind, n in sorted(
                 failures.items(), key=lambda pair: (-pair[1], pair[0]))]
    return (f" ({', '.join(parts)}: unscored, not cached, so the next scoring asks again)"
            if parts else "")


def reused_text(counts: dict) -> str:
    """'; 18 of the cached replies were made for llm:judge, one judge with llm:judge2 (the
    same model on the same server, asked the same way): these verdicts are llm:judge's, not
    a second opinion', or '': `score --judge judge2` said "18 from the cache" and no more,
    and judge2's verdicts were a copy of judge's."""
    reused = counts.get("reused") or {}
    if not reused:
        return ""
    made = "; ".join(f"{n} made for {judge}" for judge, n in sorted(reused.items()))
    whose = " and ".join(sorted(reused))
    return (f"; of the replies from the cache, {made}: one judge with {counts['judge']} (the "
            f"same model on the same server, asked the same way), so these verdicts are "
            f"{whose}'s replies, not a second judge's")


def why_requests(counts: dict, responses: int | None) -> str:
    """'; 2 requests for 6 responses: one per distinct prompt (identical prompts, as of
    identical samples, are asked once; what the rules decided is not asked; each protocol's
    stage asks its own), and the 2 answered before are served from the cache, not sent', or
    '' when there is nothing to explain. The cached count is said: "7 from the cache … and
    one answered before is served from the cache" read as fixed text."""
    requests, cached = counts["requests"], counts["cached"]
    if responses is None or (requests == responses and not cached):
        return ""
    cache = (f", and the {cached} answered before {'is' if cached == 1 else 'are'} served "
             "from the cache, not sent" if cached else "")
    return (f"; {requests} request{'' if requests == 1 else 's'} for {responses} "
            f"response{'' if responses == 1 else 's'}: one per distinct prompt (identical "
            "prompts, as of identical samples, are asked once; what the rules decided is not "
            f"asked; each protocol's stage asks its own){cache}")


def panel_problem(clients: list[JudgeClient]) -> str:
    """Why a panel is refused when two of its members are one judge ('' when none are): the
    same endpoint named twice, or two endpoints that send the same request (same URL, model
    and parameters as sent, so the same cache key). Such a "second opinion" is a copy: its reply is the first member's, taken
    from the response cache, and even asked afresh it is the same model reading the same
    prompt at temperature 0. Its votes would double one judge's and the panel's agreement
    would read near 100% whatever the judge is worth. Refused rather than sent again under
    a key of its own: a researcher asking for a panel wants independent judges, and a
    second paid call of the same request is no more independent than the cached one; a
    panel needs members that differ (another model, another provider, other parameters:
    not another temperature, which a judge call sets to 0 itself, and the message says so)."""
    seen: dict[str, JudgeClient] = {}
    for client in clients:
        first = seen.get(endpoint_identity(client.endpoint))
        if first is None:
            seen[endpoint_identity(client.endpoint)] = client
            continue
        if first.name == client.name:
            return f"judge {client.name} is named twice: a panel needs different judges"
        return (
            f"judges {first.name} and {client.name} are one judge: the same model "
            f"({client.endpoint['model']}) at the same URL{_same_params(first, client)}, so "
            f"the second would only repeat the first's replies (from the cache) and the "
            f"panel's votes and agreement would be a copy. Make a panel of judges that differ "
            f"in model, URL or parameters (other than {' or '.join(JUDGE_PARAMS)}), or score "
            f"with one of them")
    return ""


def _same_params(first: JudgeClient, second: JudgeClient) -> str:
    """' with the same parameters', or the truth when their parameters differ only in what
    every judge call sets itself (`JUDGE_PARAMS`): a temperature of 0.7 against none was
    refused as "the same parameters"."""
    own = [c.endpoint.get("params") or {} for c in (first, second)]
    differ = [k for k in JUDGE_PARAMS if own[0].get(k) != own[1].get(k)]
    if not differ:
        return " with the same parameters"
    values = "; ".join(f"{c.name} " + ", ".join(f"{k} {p.get(k, 'not set')}" for k in differ)
                       for c, p in zip((first, second), own))
    sent = ", ".join(f"{k} {v}" for k, v in JUDGE_PARAMS.items())
    return (f", whose parameters differ only in {' and '.join(differ)} ({values}), which does "
            f"not make them differ: a judge is always asked at {sent}, whatever its "
            f"endpoint's {' and '.join(differ)}")
