"""A run's live counters: what the progress bar, the UI and `runs --json` show.

They start from the sums of the results already recorded (a resumed run continues its
totals) and are updated in memory as results and attempts come in; the engine writes a
snapshot into `model_runs.totals` with every batch commit, so any process can watch a run
by reading one row.

Tokens and cost count only requests actually sent by this run (a cached reply is free);
`cached` says how many results came from the cache and `cached_from` from which runs'
replies ({run id: results}; "" for replies recorded before their run was kept).

`status_counts()` is the one tally of a run's work rows that every view shows (the
Experiments panel, the CLI summary, `runs --json`): one counter per response status plus
pending (no result yet, the run going on) and not run (no result, the run stopped), adding
up to the total, for the answer rows, and apart from them the same counters
for the first pass of a clues=self run ("clue pass"), adding up to its own total: a clue
reply that was read is no answer, so the two are never summed into one "ok". "In flight"
counts requests holding a slot of the endpoint's limiter (on the wire), never the tasks
queued for one, so it cannot exceed the concurrency.
"""
from __future__ import annotations

import bisect
import time

from store.runner_work import NO_SOURCE_CLUE

STATUSES = ("ok", "error", "refused", "truncated", "unparsed")
COUNTED = ("ok", "error", "no_source_clue", "refused", "truncated", "unparsed")
"""The counters of recorded results: the response statuses, and apart from the errors the
answers not asked because the run the clues are injected from has none for the item
(`store.runner_work.NO_SOURCE_CLUE`): that run's failure, not this one's."""
COUNTS = (*COUNTED, "pending", "not_run")
"""The counters of `status_counts`, in the order every view shows them."""
LABELS = {"not_run": "not run", "no_source_clue": "no source clue"}
"""How a view names a counter other than by its key."""
MEANINGS = {"ok": "an answer was read", "error": "the request failed",
            "no_source_clue": "not asked: the clue source run has no clue for the item",
            "refused": "the model declined", "truncated": "cut off at max_tokens",
            "unparsed": "no answer found in the reply", "pending": "no reply yet, the run goes on",
            "not_run": "no reply, the run stopped first"}
"""What each counter means, in a few words (the response filter's choices say it)."""
WAITING = ("created", "running")
"""Statuses of a run whose rows without a result are pending; any other run has stopped
(paused, cancelled, stopped, failed, interrupted, ...): they were not run."""


def counter(status: str, reason: str | None = None) -> str:
    """The counter (a COUNTED key) of a recorded result of `status` and `reason`."""
    if status == "error" and (reason or "").startswith(NO_SOURCE_CLUE):
        return "no_source_clue"
    return status


def row_state(result_status: str | None, run_status: str, reason: str | None = None) -> str:
    """The counter (a COUNTS key) one work row falls under, as `status_counts` counts it:
    its result's (`counter`), else pending while the run is created or running, else
    not_run."""
    if result_status:
        return counter(result_status, reason)
    return "pending" if run_status.split(" ")[0] in WAITING else "not_run"


def _tally(found: dict, work: int, waiting: bool) -> dict:
    counts = {status: int(found.get(status) or 0) for status in COUNTED}
    left = max(0, work - sum(counts.values()))
    counts["pending"], counts["not_run"] = (left, 0) if waiting else (0, left)
    counts["total"] = sum(counts[c] for c in COUNTS)
    return counts


def status_counts(totals: dict, work: dict | None = None, status: str = "running") -> dict:
    """{ok, error, refused, truncated, unparsed, pending, not_run, total} of a run's answer
    rows, "clue_pass" (the same counters of its first-pass rows, or None when it has none)
    and in_flight, from its totals snapshot. `work`: the run's work rows per phase
    (`Store.run_work_counts`), for a run whose snapshot does not say them (not started).
    `status`: the run's (effective) status. Each group adds up to its own total; the rows
    with no result are pending while the run is created or running, else not run (a
    stopped run has nothing pending); in flight is the part being sent now (0 unless the run
    is running: a dead process's last snapshot sends nothing). A snapshot written before
    answer and clue rows were kept apart counts them together, as it was written."""
    waiting = status.split(" ")[0] in WAITING
    work = work or {}
    clue_pass = totals.get("clue_pass")
    if "answer_total" in totals:
        counts = _tally(totals, int(totals["answer_total"]), waiting)
        counts["clue_pass"] = _tally(clue_pass, int(clue_pass["total"]), waiting) \
            if clue_pass else None
    elif totals.get("total") or not work.get("clues"):   # an older snapshot, or no clue pass
        counts = _tally(totals, int(totals.get("total") or sum(work.values())), waiting)
        counts["clue_pass"] = None
    else:                                                 # not started: no result yet
        counts = _tally({}, work["answer"], waiting)
        counts["clue_pass"] = _tally({}, work["clues"], waiting)
    pending = counts["pending"] + (counts["clue_pass"] or {}).get("pending", 0)
    running = status.split(" ")[0] == "running"
    counts["in_flight"] = min(int(totals.get("in_flight") or 0), pending) if running else 0
    return counts


def without_result(counts: dict) -> int:
    """The rows of `status_counts()` with no result (pending or not run), both groups."""
    groups = [counts] + ([counts["clue_pass"]] if counts.get("clue_pass") else [])
    return sum(group["pending"] + group["not_run"] for group in groups)


def counts_text(counts: dict, sep: str = "  ") -> str:
    """'answers: ok 190  error 0  refused 10  truncated 10  unparsed 0  pending 0  not run 0
    = 210 (0 in flight)', then '; clue pass: ok 14 ... = 14' for a run with one."""
    def group(found: dict) -> str:
        return sep.join(f"{LABELS.get(name, name)} {found[name]}" for name in COUNTS) \
            + f" = {found['total']}"

    text = f"answers: {group(counts)} ({counts['in_flight']} in flight)"
    if counts.get("clue_pass"):
        text += f"; clue pass: {group(counts['clue_pass'])}"
    return text


def stop_text(status: str, counts: dict) -> str:
    """What a run stopped on request was left with, from `status_counts()`: 'cancelled on
    request: 2 done, 1 failed, 27 not run = 30 work rows' (failed: error results; not run:
    no result; a clue pass's rows are counted with the answers')."""
    groups = [counts] + ([counts["clue_pass"]] if counts.get("clue_pass") else [])
    total = sum(group["total"] for group in groups)
    failed = sum(group["error"] for group in groups)
    missing = sum(group.get("no_source_clue", 0) for group in groups)
    not_run = without_result(counts)
    apart = f"{missing} no source clue, " if missing else ""
    return (f"{status} on request: {total - failed - missing - not_run} done, {failed} "
            f"failed, {apart}{not_run} not run = {total} work rows")


def abandoned_text(totals: dict) -> str:
    """'8 of them abandoned in flight (no reply: their cost is unknown, not in the cost)' for
    a run whose snapshot counts requests sent and never answered (a cancel waits for none);
    '' for one without."""
    n = int(totals.get("abandoned") or 0)
    return (f"{n} of them abandoned in flight (no reply: their cost is unknown, not in the "
            "cost)") if n else ""


def reasons_text(reasons: list[tuple[str, int]], errors: int) -> str:
    """'14 × no clues from the first pass for this item (...)', the most common reasons of
    `errors` error results first (`Store.run_error_reasons`), with how many others."""
    text = "; ".join(f"{count} × {reason or 'no reason recorded'}" for reason, count in reasons)
    other = errors - sum(count for _, count in reasons)
    return text + (f"; {other} with other reasons (the responses say them)" if other > 0
                   else "")


def request_control(store, run_id: str, action: str) -> dict:
    """Ask a run to pause or cancel (store.request_run_control); a run nobody executes
    changes status at once, and its message says what it was left with (stop_text)."""
    run = store.get_run(run_id)
    final = {"pause": "paused", "cancel": "cancelled"}.get(action, action)
    counts = status_counts(run["totals"], store.run_work_counts(run_id), status=final)
    return store.request_run_control(run_id, action, stop_text(final, counts))


def percentile(values: list[float], q: float, *, is_sorted: bool = False) -> float | None:
    """Linear-interpolated percentile (q in 0..100); `is_sorted` skips sorting a copy."""
    if not values:
        return None
    data = values if is_sorted else sorted(values)
    pos = (len(data) - 1) * q / 100
    lo = int(pos)
    hi = min(lo + 1, len(data) - 1)
    return data[lo] + (data[hi] - data[lo]) * (pos - lo)


class RunTotals:
    def __init__(self, total: int, aggregates: dict | None = None,
                 estimate_per_request: float | None = None, clue_ids: frozenset = frozenset(),
                 *, priced: bool, prior: dict | None = None,
                 bound_per_request: float | None = None):
        """clue_ids: the run's first-pass work rows, counted apart (`status_counts`);
        priced: the model has a price (without one the cost is unknown, never $0);
        bound_per_request: the plan's cost of one request at max_tokens (the budget counts
        the requests in flight at it: runner/dispatch);
        prior: the run's last snapshot (`model_runs.totals`): its "elapsed", the active
        seconds of its earlier executions, so a resumed run's elapsed and rates are over all
        of them, and what they sent that no result kept (`_carry`)."""
        agg = aggregates or {}
        self.priced = priced
        self.total = total
        self.by_status = {s: agg.get("by_status", {}).get(s, 0) for s in COUNTED}
        self.clue_ids = clue_ids
        self.clue_by_status = {s: agg.get("clue_by_status", {}).get(s, 0) for s in COUNTED}
        self.cached = agg.get("cached", 0)
        self.cached_from = dict(agg.get("cached_from") or {})
        # what was sent for results deleted to be sent again (store/runner_retried.py):
        # counted in the requests, retries, tokens and cost, never in the results
        self.retried = dict(agg.get("retried") or {})
        old = self.retried
        self.requests = agg.get("attempts", 0)       # HTTP attempts, retries included
        # retries: every request but the one that made each result kept, so that requests
        # = results sent + retries: the attempts within a call after the first, and every
        # attempt of an error deleted to be sent again (the item was asked again). Those
        # counted only their own in-call retries: "18 sent, 0 of them retries; 4 errors
        # retried (their 4 attempts counted in the ... retries ...)"
        self.retries = max(0, self.requests - (self.done - self.cached)) \
            + old.get("requests", 0)
        self.requests += old.get("requests", 0)
        self.rate_limited = agg.get("rate_limited", 0) + old.get("rate_limited", 0)
        self.prompt_tokens = agg.get("prompt_tokens", 0) + old.get("prompt_tokens", 0)
        self.completion_tokens = (agg.get("completion_tokens", 0)
                                  + old.get("completion_tokens", 0))
        self.cost = agg.get("cost", 0.0) + old.get("cost", 0.0)
        self.paid = agg.get("priced", 0) + old.get("priced", 0)   # sent with a known cost
        self.latencies = sorted(agg.get("latencies", []))   # kept sorted: see snapshot()
        self.estimate_per_request = estimate_per_request
        self.bound_per_request = bound_per_request    # the plan's cost at max_tokens
        self.costliest = 0.0                          # the dearest reply of this dispatch
        self.concurrency = None
        self.limiter = None                           # set by the engine: see in_flight
        self.started = time.monotonic()
        self.prior_elapsed = float((prior or {}).get("elapsed") or 0.0)
        self._carry(prior or {})

    def _carry(self, prior: dict) -> None:
        """Keep what earlier executions sent beyond the results recorded (a call that ended
        with the endpoint down, a request abandoned in flight): their last snapshot counted
        it, the results cannot, and a resume counted from the results alone forgot it (a run
        failed with 80 retries resumed with 0). Such a request's item is asked again, so
        each is a retry, as an error's sent again is (requests = results sent + retries)."""
        # requests sent and abandoned in flight, every execution's: no reply, cost unknown
        self.abandoned = int(prior.get("abandoned") or 0)
        unrecorded = max(0, int(prior.get("requests") or 0) - self.requests)
        self.requests += unrecorded
        self.retries += unrecorded
        for name in ("rate_limited", "prompt_tokens", "completion_tokens", "cost"):
            more = (prior.get(name) or 0) - getattr(self, name)
            if more > 1e-6:                          # the snapshot's cost is rounded to 1e-6
                setattr(self, name, getattr(self, name) + more)

    @property
    def done(self) -> int:
        return sum(self.by_status.values())

    @property
    def in_flight(self) -> int:
        """Requests on the wire: the limiter's taken slots (at most the concurrency). Tasks
        waiting for a slot are pending, not in flight."""
        return self.limiter.in_flight if self.limiter is not None else 0

    def on_send(self) -> None:
        """Called by call_with_retries as each attempt goes on the wire: a request counts
        when sent, so one abandoned in flight (a cancel waits for none) is counted too."""
        self.requests += 1

    def on_attempt(self, event: dict) -> None:
        """Called by call_with_retries after every attempt (counted when sent: on_send)."""
        if event.get("delay") is not None:
            self.retries += 1
        if event.get("status") == 429:
            self.rate_limited += 1

    def add(self, response: dict) -> None:
        """Count one recorded result (a response row)."""
        key = counter(response["status"], response.get("reason"))
        self.by_status[key] += 1
        if response["work_id"] in self.clue_ids:
            self.clue_by_status[key] += 1
        if response.get("cached"):
            self.cached += 1
            source = response.get("cached_from") or ""
            self.cached_from[source] = self.cached_from.get(source, 0) + 1
            return
        if response.get("latency") is not None:
            bisect.insort(self.latencies, response["latency"])
        self.prompt_tokens += response.get("prompt_tokens") or 0
        self.completion_tokens += response.get("completion_tokens") or 0
        if response.get("cost") is not None:
            self.cost += response["cost"]
            self.paid += 1
            self.costliest = max(self.costliest, response["cost"])

    @property
    def known_cost(self) -> float | None:
        """What the run spent, or None when that is unknown: the model has no price (at
        every moment: before the first reply, while running, for a run that failed), or
        replies were paid for (sent, not cached, with tokens) and none had a price. Without
        a price only a run answered wholly from the cache, no request sent, is known: 0."""
        if not self.priced:
            whole_cache = self.requests == 0 and self.cached == self.done == self.total
            return 0.0 if whole_cache and self.total else None
        if self.paid or not (self.prompt_tokens or self.completion_tokens):
            return self.cost
        return None

    def per_request_cost(self) -> float | None:
        """Mean cost of a sent request so far, else the pre-launch estimate."""
        if self.paid:
            return self.cost / self.paid
        return self.estimate_per_request

    def projected_cost(self) -> float | None:
        per = self.per_request_cost()
        if per is None:
            return None
        remaining = max(0, self.total - self.done)
        return self.cost + remaining * per

    def allowed_now(self) -> int | None:
        """The slots the limiter allows now: below the concurrency after 429s, until
        successes let it grow back (runner/limiter.py)."""
        return self.limiter.current if self.limiter is not None else None

    def snapshot(self) -> dict:
        """The counters as written with every commit. The latencies are kept sorted as they
        arrive, so this stays cheap however long the run (no sort per commit).

        "elapsed" is the run's active time: the seconds it was executing, summed over its
        executions (a pause or a wait before a resume is not counted), and the rates are over
        it: requests_per_s the replies received (not cached, every execution's) / elapsed,
        results_per_s the results recorded / elapsed."""
        elapsed = max(self.prior_elapsed + time.monotonic() - self.started, 1e-9)
        p50 = percentile(self.latencies, 50, is_sorted=True)
        p95 = percentile(self.latencies, 95, is_sorted=True)
        projected = self.projected_cost()
        answers = {s: self.by_status[s] - self.clue_by_status[s] for s in COUNTED}
        clue_pass = {**self.clue_by_status, "total": len(self.clue_ids)} if self.clue_ids \
            else None
        return {
            "done": self.done, "total": self.total, **answers,
            "answer_total": self.total - len(self.clue_ids), "clue_pass": clue_pass,
            "errors": answers["error"], "cached": self.cached,
            "cached_from": dict(sorted(self.cached_from.items())),
            "requests": self.requests, "retries": self.retries,
            "abandoned": self.abandoned,
            "retried": {k: v for k, v in self.retried.items() if v} or None,
            "rate_limited": self.rate_limited, "in_flight": self.in_flight,
            "concurrency": self.concurrency, "concurrency_now": self.allowed_now(),
            "prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
            "cost": None if self.known_cost is None else round(self.known_cost, 6),
            "projected_cost": None if projected is None else round(projected, 6),
            "latency_p50": None if p50 is None else round(p50, 4),
            "latency_p95": None if p95 is None else round(p95, 4),
            "elapsed": round(elapsed, 3),
            "requests_per_s": round(len(self.latencies) / elapsed, 2),
            "results_per_s": round(self.done / elapsed, 2),
        }
