"""The dispatch loop of a run: send its pending work with bounded concurrency, stop in time.

Kept apart from engine.py, which owns a run's lifecycle (claim, phases, stop reasons, final
status) and the commits. This part decides, request by request, what happens to a work row:
a build error or a cache hit (unless the run takes nothing from the cache) is recorded at
once, anything else is sent once a slot is free and the budget and deadline allow it. No two
work rows of a run share a request (the key holds the item, repeat and sample: each is its
own draw), so nothing waits for another row's reply. When the run stops, the requests in
flight get one request timeout to finish (cancel: none), those still waiting for a slot are
not sent (the limiter is closed), and the rest are abandoned and stay pending, to be resent
on resume.
"""
from __future__ import annotations

import asyncio
import re
import traceback

from runner import leases
from runner.costs import money, projected_spend, usd
from runner.limiter import LimiterClosed
from runner.outcomes import from_failure
from runner.sending import EndpointDown
from runner.work import Request

# the start of `_over_budget`'s stop message, which the run keeps (after a note, perhaps)
BUDGET_REACHED = re.compile(r"(?:^|; )budget of \$\S+ reached: ")


def stopped_by_budget(run: dict) -> bool:
    """Whether `run` stopped at its budget: resumed with that budget, it stops again at once
    (what it spent still reaches it)."""
    return run.get("status") == "stopped" and bool(BUDGET_REACHED.search(run.get("message")
                                                                          or ""))

LOOKAHEAD = 256
"""Work rows built and looked up in the cache together (one SELECT per chunk)."""


class DispatchMixin:
    """Mixed into `Engine` (engine.py), whose state it uses: `store`, `run_id`, `builder`,
    `sender`, `totals`, `execution`, `started`, `stop_reason`, `_stop()`, `_record()`, the
    tasks `_tasks`, `_slot_freed`, `_abandoning` and `_hurry`."""

    # -- dispatch -------------------------------------------------------------------------
    async def _dispatch(self, pending: list[dict]) -> None:
        for start in range(0, len(pending), LOOKAHEAD):
            if self.stop_reason:
                break
            await asyncio.sleep(0)  # let the ticker read pause/cancel during cache replays
            requests = [self.builder.build(work) for work in pending[start:start + LOOKAHEAD]]
            hits = self.store.cache_get_many([r.key for r in requests if not r.error]) \
                if self.execution.use_cache else {}
            await self._dispatch_chunk(requests, hits)
        await self._drain()

    async def _dispatch_chunk(self, requests: list[Request], hits: dict[str, dict]) -> None:
        cap = max(2, 2 * (self.totals.concurrency or 1))
        for request in requests:
            if self.stop_reason:
                break
            work = request.work
            if request.error:
                self._record(from_failure(work["id"], request.error))
                continue
            hit = hits.get(request.key)
            if hit is not None:
                self._record(self.sender.cached_row(request, hit))
                continue
            while self._budget_waits() and not self.stop_reason:
                self._slot_freed.clear()   # those in flight first: their cost decides
                await self._slot_freed.wait()
            if self.stop_reason or self._over_budget() or self._past_deadline():
                break
            while len(self._tasks) >= cap and not self.stop_reason:
                self._slot_freed.clear()  # cheaper than asyncio.wait over every task
                await self._slot_freed.wait()
            if self.stop_reason:
                break
            self._spawn(self._send(request))

    def _spawn(self, coroutine) -> None:
        task = asyncio.create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task) -> None:
        """A bug in our code must stop the run loudly, not vanish with its task."""
        self._tasks.discard(task)
        self._slot_freed.set()
        if not task.cancelled() and task.exception() is not None:
            error = task.exception()
            if self._abandoning:  # noise from a task we are cancelling on purpose
                leases.warn(f"run {self.run_id}: while abandoning a request: "
                            f"{type(error).__name__}: {error}")
                return
            leases.warn("".join(traceback.format_exception(error)).rstrip())
            self._stop("failed", f"internal error: {type(error).__name__}: {error}")

    async def _drain(self) -> None:
        """Wait for the requests in flight; once stopping, give them one request timeout
        (cancel: none) and abandon the rest (they stay pending and are resent on resume)."""
        grace_until = None
        while self._tasks:
            if self.stop_reason and grace_until is None or self._hurry:
                wait = 0.0 if self.stop_reason in ("cancel", "lost") or self._hurry else \
                    self.execution.request_timeout + 1
                grace_until = asyncio.get_running_loop().time() + wait
            if grace_until is not None and asyncio.get_running_loop().time() >= grace_until:
                self._abandoning = True
                # sent (a slot taken) and not answered yet: paid for, perhaps, never recorded
                self.abandoned_in_flight = self.sender.limiter.in_flight
                self.totals.abandoned += self.abandoned_in_flight  # counted when sent
                for task in list(self._tasks):
                    task.cancel()
                await asyncio.gather(*self._tasks, return_exceptions=True)
                break
            await asyncio.wait(self._tasks, timeout=0.25)

    def _worst_per_request(self) -> float:
        """What one request may cost: the dearest reply so far (the mean let a long reply
        after short ones take a run 11% over its budget), the mean or the plan's estimate,
        and at least the plan's bound at the run's max_tokens when it sets one (runs with
        concurrency 8 spent twice their budget when the requests in flight were counted at
        the typical reply's length). Without max_tokens a reply dearer than every one before
        can still go over: only max_tokens bounds a request."""
        return max(self.totals.per_request_cost() or 0.0, self.totals.costliest,
                   self.totals.bound_per_request or 0.0)

    def _budget_waits(self) -> bool:
        """One more request could bring the spend over the budget only if those in flight
        cost as much as they may: wait for them before deciding."""
        budget = self.execution.budget
        started = len(self._tasks)
        return budget is not None and started > 0 and \
            projected_spend(self.totals.cost, started + 1, self._worst_per_request()) > budget

    def _over_budget(self) -> bool:
        budget = self.execution.budget
        if budget is None:
            return False
        per = self._worst_per_request()
        started = len(self._tasks)  # sent or waiting for a slot: each may still cost
        if projected_spend(self.totals.cost, started + 1, per) > budget:
            # what was spent is said when the run ends (Engine._conclude), after the
            # requests in flight came back: said now, it was less than the summary's
            self._stop("budget", budget_stop_text(budget, started))
            return True
        return False

    def _past_deadline(self) -> bool:
        deadline = self.execution.deadline
        if deadline is not None and asyncio.get_running_loop().time() - self.started >= deadline:
            self._stop("deadline", f"deadline of {deadline:g} s reached")
            return True
        return False

    # -- one request ----------------------------------------------------------------------
    async def _send(self, request: Request) -> None:
        try:
            exchanged = await self.sender.exchange(request)
        except EndpointDown as down:
            self._stop("failed", str(down))
            return  # not the item's fault: it stays pending for the resume
        except LimiterClosed:
            return  # the run stopped before this request got a slot: pending, never sent
        try:
            await _let_waiting_requests_go()
        finally:  # even when cancelled meanwhile: a reply that came is recorded
            row, cache_entry = self.sender.outcome(request, exchanged)
            self._record(row, cache_entry)


def budget_stop_text(budget: float, started: int) -> str:
    """Why a budget stopped dispatch, plainly; the requests already sent, when there are
    any, were let finish (what they spent is said when the run ends)."""
    sent = (f" (the {started} already sent {'was' if started == 1 else 'were'} let finish)"
            if started else "")
    return (f"budget of {usd(budget)} reached: the next request could take the spend over it "
            f"(projected), so no more requests were sent{sent}")


def over_budget_text(spent: float | None, budget: float | None) -> str:
    """', $0.0008 over the budget (replies in flight when it was reached)' when the spend
    went past the budget (a reply longer than any before it: only max_tokens bounds one);
    '' when it did not, or either is unknown. A stop message said "budget of $0.004
    reached ... spent $0.0048 in all" and never that it was exceeded."""
    if spent is None or budget is None or spent <= budget + 5e-7:   # the snapshot's rounding
        return ""
    over = money(spent - budget) if spent - budget >= 5e-5 else "under $0.0001"
    return f", {over} over the budget (replies in flight when it was reached)"


async def _let_waiting_requests_go() -> None:
    """Put a reply's bookkeeping (extraction, recording, a batch commit now and then) after
    the sends of the requests waiting for the limiter slots that replies just freed.

    A freed slot wakes its next request through a future, which runs one loop iteration
    later; replies often arrive together, and without this every one of their waiting
    requests would wait for all of their bookkeeping. Two rounds: in the first the woken
    requests go out (interleaved with this no-op), in the second the bookkeeping runs.
    """
    await asyncio.sleep(0)
    await asyncio.sleep(0)
