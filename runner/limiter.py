"""AdaptiveLimiter: bounded concurrency per endpoint that backs off on 429 and recovers.

A rate-limited endpoint answers 429 because we send too much at once; retrying at the same
concurrency only collects more 429s. So, like TCP congestion control (additive increase,
multiplicative decrease): on a 429 the number of slots is halved (never below 1) and nobody new
starts until the server's Retry-After has passed; after `success_window` consecutive successes
one slot comes back, up to the configured maximum.

Many requests in flight when the limit is hit all come back 429 together; they are one signal,
not many, so after a halving further 429s within `shrink_cooldown` seconds only extend the pause.

Waiters are served first come, first served from a queue of futures, and a release wakes exactly
as many waiters as there are free slots (no thundering herd with thousands of queued tasks).

A run that stops (pause, cancel, budget, deadline, failure) closes its limiter: the requests
holding a slot finish, but those still waiting for one, and any retry after a backoff, get
`LimiterClosed` instead of a slot, so nothing new is sent once the stop is known. (Without
this a pause at "8 done + 8 in flight" sent the 8 queued behind them too.)
"""
from __future__ import annotations

import asyncio
import contextlib
import collections
import time

_CLOSED = object()
"""What a waiter's future is resolved with when the limiter closes instead of granting."""

class LimiterClosed(Exception):
    """The limiter was closed (the run is stopping): the request must not be sent."""


class AdaptiveLimiter:
    """`async with limiter:` holds one slot for the duration of a request.

    current: the slots allowed now (1..max_concurrency). in_flight: the slots taken.
    paused_for: seconds until new acquisitions may start again (0 when not paused).
    """

    def __init__(self, max_concurrency: int, *, success_window: int = 10,
                 shrink_cooldown: float = 1.0):
        if max_concurrency < 1:
            raise ValueError("max_concurrency must be at least 1")
        self.max_concurrency = max_concurrency
        self.success_window = max(1, success_window)
        self.shrink_cooldown = shrink_cooldown
        self.current = max_concurrency
        self.in_flight = 0
        self.rate_limited = 0          # 429s reported, for progress displays
        self._successes = 0            # consecutive, since the last growth or 429
        self._paused_until = 0.0       # time.monotonic() before which nobody new starts
        self._last_shrink = float("-inf")
        self._waiters: collections.deque[asyncio.Future] = collections.deque()
        self._timer: asyncio.TimerHandle | None = None
        self.closed = False

    @property
    def paused_for(self) -> float:
        return max(0.0, self._paused_until - time.monotonic())

    async def acquire(self) -> None:
        """Take a slot; raises LimiterClosed once close() was called (also while waiting)."""
        if self.closed:
            raise LimiterClosed()
        if not self._waiters and self._can_start():
            self.in_flight += 1
            return
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        self._wake()  # a slot may be free already, or a pause needs its wake-up timer
        try:
            await waiter  # resolved by _wake, which has already counted us in in_flight
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled() and waiter.result() is not _CLOSED:
                self.release()  # granted a slot just as we were cancelled: give it back
            else:
                with contextlib.suppress(ValueError):  # _wake() may have popped it already
                    self._waiters.remove(waiter)
            raise
        if waiter.result() is _CLOSED:
            raise LimiterClosed()

    def close(self) -> None:
        """No new slot from now on: every waiter gets LimiterClosed, and so does any later
        acquire. Slots already held stay valid until released."""
        self.closed = True
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(_CLOSED)

    def release(self) -> None:
        self.in_flight -= 1
        self._wake()

    async def __aenter__(self) -> "AdaptiveLimiter":
        await self.acquire()
        return self

    async def __aexit__(self, *exc) -> None:
        self.release()

    def on_rate_limited(self, retry_after: float | None) -> None:
        """A 429: halve the slots (once per cooldown) and pause new starts for retry_after."""
        now = time.monotonic()
        self.rate_limited += 1
        self._successes = 0
        if now - self._last_shrink >= self.shrink_cooldown:
            self.current = max(1, self.current // 2)
            self._last_shrink = now
        if retry_after:
            self._paused_until = max(self._paused_until, now + retry_after)
        self._wake()

    def on_success(self) -> None:
        """A success: after success_window of them in a row, one slot more (up to the max)."""
        self._successes += 1
        if self._successes >= self.success_window and self.current < self.max_concurrency:
            self.current += 1
            self._successes = 0
            self._wake()

    def _can_start(self) -> bool:
        return self.in_flight < self.current and time.monotonic() >= self._paused_until

    def _wake(self) -> None:
        """Hand free slots to queued waiters, or arrange to come back when the pause ends."""
        if self.closed:
            return
        pause = self._paused_until - time.monotonic()
        if pause > 0:
            self._wake_later(pause)
            return
        while self._waiters and self.in_flight < self.current:
            waiter = self._waiters.popleft()
            if waiter.done():  # cancelled while queued
                continue
            self.in_flight += 1
            waiter.set_result(None)

    def _wake_later(self, delay: float) -> None:
        if not self._waiters:
            return  # nobody to wake; the next acquire checks the pause itself
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # called outside a loop (a unit test): the next acquire/release wakes
        if self._timer is not None:
            self._timer.cancel()
        self._timer = loop.call_later(delay, self._wake)
