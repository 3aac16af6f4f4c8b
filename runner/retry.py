"""Classified retries with exponential backoff, jitter and Retry-After.

We do not use the OpenAI SDK's retries: a retry spends money and rate-limit budget, so the runner
wants one place that decides which failures are worth another attempt (408, 409, 429, 5xx,
timeouts, connection errors, malformed bodies), how long to wait, and that reports every attempt
to the engine for its accounting. Everything else (400, 401, 403, 404, 422, ...) fails at once:
repeating a request the server has called invalid only repeats the bill.
"""
from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass
from typing import Callable

from runner.replies import ChatResult, RequestFailed


@dataclass
class RetryPolicy:
    """How often to try and how long to wait in between.

    The wait before attempt n+1 is base_delay * 2**(n-1), multiplied by a random factor in
    [1 - jitter, 1 + jitter] (so that many requests failing together do not come back together),
    capped at max_delay. A Retry-After from the server is a floor: we never come back earlier than
    the server asked, even when that is later than max_delay.
    """
    max_attempts: int = 6
    base_delay: float = 0.5
    max_delay: float = 60.0
    jitter: float = 0.25

    def backoff(self, attempt: int, rng: random.Random | None = None) -> float:
        """The wait after failed attempt number `attempt` (1-based), without Retry-After."""
        rng = rng or random
        raw = self.base_delay * (2 ** max(0, attempt - 1))
        factor = 1.0 + self.jitter * (2.0 * rng.random() - 1.0)
        return max(0.0, min(self.max_delay, raw * factor))

    def delay(self, attempt: int, retry_after: float | None,
              rng: random.Random | None = None) -> float:
        """The wait after failed attempt `attempt`: the backoff, but at least Retry-After."""
        wait = self.backoff(attempt, rng)
        if retry_after is not None:
            wait = max(wait, retry_after)
        return wait


async def call_with_retries(client, payload: dict | bytes, policy: RetryPolicy, limiter=None,
                            on_attempt: Callable[[dict], None] | None = None, *,
                            stream: bool = False, request_id: str | None = None,
                            on_send: Callable[[], None] | None = None) -> ChatResult:
    """Send `payload` through `client` until it succeeds, fails for good, or attempts run out.
    (A payload encoded beforehand, bytes, is sent as it is on every attempt.)

    Each attempt holds one slot of `limiter` (None: no limit) only while the request is in
    flight, not during the backoff sleep, so other requests keep going meanwhile. A 429 tells the
    limiter to shrink and pause; a success lets it grow back.

    on_attempt(event) is called after every attempt, successful or not, with
    {"attempt", "status", "retryable", "delay", "reason", "latency"}: status is 200 on success and
    None for timeouts / connection errors / bad bodies; delay is the seconds we will sleep before
    the next attempt, or None when there is none (success, or the failure that is raised).
    on_send() is called as each attempt goes on the wire (its limiter slot taken): a request
    is counted when it is sent, not when it ends, so one abandoned in flight (a cancel does
    not wait for it; a provider bills it) is counted too (runner/totals.RunTotals.on_send).

    Returns the ChatResult; raises the last RequestFailed when the failure is not retryable or
    the attempts are exhausted. `stream` uses client.chat_stream; `request_id` is sent as the
    X-Request-Id header (the same id on every attempt, so logs can tie retries together).
    """
    chat = client.chat_stream if stream else client.chat

    async def send(payload, request_id):
        if on_send is not None:
            on_send()
        return await chat(payload, request_id=request_id)

    attempts = max(1, policy.max_attempts)
    for attempt in range(1, attempts + 1):
        started = time.monotonic()
        try:
            if limiter is None:
                result = await send(payload, request_id=request_id)
            else:
                async with limiter:
                    result = await send(payload, request_id=request_id)
        except RequestFailed as failure:
            if failure.status == 429 and limiter is not None:
                limiter.on_rate_limited(failure.retry_after)
            final = not failure.retryable or attempt == attempts
            wait = None if final else policy.delay(attempt, failure.retry_after)
            if on_attempt is not None:
                on_attempt({"attempt": attempt, "status": failure.status,
                            "retryable": failure.retryable, "delay": wait,
                            "reason": failure.reason,
                            "latency": time.monotonic() - started})
            if final:
                raise
            await asyncio.sleep(wait)
            continue
        if limiter is not None:
            limiter.on_success()
        if on_attempt is not None:
            on_attempt({"attempt": attempt, "status": 200, "retryable": False, "delay": None,
                        "reason": "ok", "latency": result.latency})
        return result
    raise AssertionError("unreachable: the loop returns or raises")
