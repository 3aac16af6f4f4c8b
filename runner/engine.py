"""Executing a run: dispatch its pending work, commit results in small batches, stop cleanly.

This module owns a run's lifecycle (claim the lease, set up, the two phases, stop reasons,
the final status) and the process entry `execute()`; the dispatch loop that sends the work
is `DispatchMixin` in dispatch.py.

The promises, and how they are kept:
- Never pay twice. Work rows exist before anything is sent; "pending" means "no result row".
  A reply is committed (with its cache entry) within `batch_interval` seconds or
  `batch_size` results, and nothing but this process can send the run's work meanwhile
  (the lease in `model_runs.owner`, renewed with each commit). A resume sends only pending
  work: what was in flight when the process died, never what was committed. A reply in
  the cache for the same draw (item, repeat, sample of the same request) is taken, unless
  the run was started with `use_cache` off; either way each result says where it came from.
- Never lose a result. A failed commit keeps the batch in memory and retries; a stop
  (pause, cancel, budget, deadline, Ctrl-C) flushes before returning.
- SQLite is written from the event loop thread only; images are encoded in worker threads.
- Anyone can watch or steer: counters go to `model_runs.totals` with every commit, and a
  `pause`/`cancel` written to `model_runs.control` by the UI or another process is read
  back by the same commit.
"""
from __future__ import annotations

import asyncio
import gc
import signal
import threading
from dataclasses import dataclass
from typing import Callable

from domain.commands import command
from runner import leases
from runner.config import Execution
from runner.costs import money
from runner.coverage import offline_verdict, pending_coverage
from runner.dispatch import DispatchMixin, over_budget_text
from runner.endpoints import api_key_for, preflight
from runner.prompts import PromptSet
from runner.recording import Recorder
from runner.sending import Sender
from runner.totals import RunTotals, reasons_text, status_counts, stop_text
from runner.work import WorkBuilder, load_items

FINAL = {"failed": "failed", "pause": "paused", "cancel": "cancelled", "budget": "stopped",
         "deadline": "stopped"}


def resume_advice(run_id: str, budget: bool = False) -> str:
    """How to go on with a run that stopped with work left. One stopped by its budget stops
    again at once if resumed as it is (its spend still reaches it): the advice is a resume
    with a higher budget, or none (the pages say it with their own controls, ui/page_words)."""
    if not budget:
        return f"resume with {command('run', '--resume', run_id)}"
    return (f"resume with a higher budget ({command('run', '--resume', run_id, '--budget', 'USD')}"
            f") or none ({command('run', '--resume', run_id, '--no-budget')})")


@dataclass
class Outcome:
    run_id: str
    status: str
    message: str
    totals: dict

    def to_dict(self) -> dict:
        return {"id": self.run_id, "status": self.status, "message": self.message,
                "totals": self.totals}


class Engine(DispatchMixin):
    """One execution of one run (a fresh start or a resume); its dispatch loop comes from
    `DispatchMixin` (dispatch.py)."""

    def __init__(self, store, run_id: str, *, items: dict | None = None,
                 on_progress: Callable[[dict], None] | None = None):
        self.store, self.run_id = store, run_id
        self.items = items
        self.on_progress = on_progress
        self.stop_reason: str | None = None
        self.stop_message = ""
        self.note = ""                                  # said with the final status
        self._tasks: set[asyncio.Task] = set()
        self._abandoning = False                        # cancelling what is left in flight
        self.abandoned_in_flight = 0                    # requests sent, then abandoned
        self._hurry = False                             # a second Ctrl-C: do not wait

    # -- lifecycle ------------------------------------------------------------------------
    async def run(self) -> Outcome:
        with leases.active(self.run_id):
            run = self.store.claim_run(self.run_id, leases.OWNER, leases.owner_is_stale)
            try:
                await self._execute(run)
            except BaseException as error:  # record what we have, leave the run resumable
                self._flush()
                self._finish("failed", f"the runner crashed: {type(error).__name__}: {error}")
                raise
            finally:
                if hasattr(self, "recorder"):
                    self.recorder.save_unsaved()
        return self.outcome

    async def _execute(self, run: dict) -> None:
        self.config = run["config"]
        self.execution = Execution.from_dict(run["execution"])
        endpoint = self.config["endpoint"]
        self.price = self.store.price_for(endpoint["model"])
        self.totals = RunTotals(self.store.run_work_count(self.run_id),
                                self.store.run_aggregates(self.run_id),
                                run["execution"].get("estimate_per_request"),
                                frozenset(self.store.run_clue_work_ids(self.run_id)),
                                priced=self.price is not None,
                                prior=run["totals"],
                                bound_per_request=run["execution"].get("bound_per_request"))
        self.recorder = Recorder(self.store, self.run_id, self.totals,
                                 self.execution.batch_size, self._on_commit,
                                 lambda message: self._stop("failed", message),
                                 self.on_progress)
        concurrency = self.execution.concurrency or endpoint["concurrency"] or 8
        self.totals.concurrency = concurrency
        api_key, problem = api_key_for(endpoint)
        if self.items is None:
            self.items = load_items(self.store, self.run_id)
        self.builder = WorkBuilder(self.config, PromptSet.load(self.store,
                                                                self.config["templates"]),
                                   self.items)
        self.sender = Sender(self.store, self.run_id, self.config, self.execution, self.items,
                             api_key, concurrency, self.price, self.totals.on_attempt,
                             self.totals.on_send)
        self.totals.limiter = self.sender.limiter  # in flight = the slots taken, no more
        if run["control"] in ("pause", "cancel"):   # asked before this process was up
            self._stop(run["control"], f"{run['control']} requested")
        loop = asyncio.get_running_loop()
        self.started = loop.time()
        self._slot_freed = asyncio.Event()
        ticker = asyncio.create_task(self._tick())
        try:
            # nothing left to send (a run left "paused" with every result in): the endpoint
            # is not needed, so neither asked nor a reason to stop; the run concludes
            left = bool(self.store.pending_work(self.run_id)) and not self.stop_reason
            problem = left and (problem or await preflight(self.sender.client, endpoint))
            if problem:
                self._endpoint_cannot_work(problem)
            for phase in ("clues", "answer"):
                if self.stop_reason:
                    break
                self._flush()  # the answer phase reads the first pass's clues from the store
                self._load_clue_source(phase)
                await self._dispatch(self.store.pending_work(self.run_id, phase))
        finally:
            ticker.cancel()
            await self._drain()
            self._flush()
            await self.sender.close()
        self._conclude()

    def _conclude(self) -> None:
        if self.stop_reason == "lost":
            self.outcome = Outcome(self.run_id, "lost", self.stop_message, self.totals.snapshot())
            return
        remaining = self.totals.total - self.totals.done
        if self.stop_reason in ("pause", "cancel", "budget", "deadline") and not remaining:
            # the stop came after the last reply: the run is done (it stayed "paused" with
            # every result in, and the tables said its numbers cover only part of its items)
            self.stop_reason = None
        if self.stop_reason:
            status = FINAL[self.stop_reason]
            message = self.stop_message
            if self.stop_reason in ("pause", "cancel"):   # what it stopped with, not the ask
                message = stop_text(status, status_counts(self.totals.snapshot(),
                                                          status=status))
                if self.abandoned_in_flight:
                    n = self.abandoned_in_flight
                    message += (f"; {n} of them {'was' if n == 1 else 'were'} sent and not "
                                "waited for (an endpoint may bill a reply that is not "
                                "recorded; a resume sends them again)")
            elif self.stop_reason == "budget":            # the same figure as the summary
                message += f"; spent {money(self.totals.known_cost)} in all" \
                    + over_budget_text(self.totals.known_cost, self.execution.budget)
        elif remaining:
            status, message = "stopped", f"{remaining} work rows have no result"
        else:
            status, message = self._no_answer()
        if remaining and status != "cancelled":
            message += f"; {remaining} left: " + resume_advice(self.run_id,
                                                            self.stop_reason == "budget")
        if self.note:
            message = f"{self.note}; {message}"
        self._finish(status, message.strip("; "))

    def _endpoint_cannot_work(self, problem: str) -> None:
        """The pre-flight found the endpoint unusable: go on from the cache when it answers
        every pending request (runner/coverage.py), else fail saying how many it answers."""
        go_on, message = offline_verdict(problem, pending_coverage(self.store, self.run_id,
                                                                   self.builder))
        if go_on:
            self.note = message
        else:
            self._stop("failed", message)

    def _named(self, reasons: list[tuple[str, int]]) -> list[tuple[str, int]]:
        """The reasons with a clue source run named as the tables name it, not by id."""
        from runner.source_names import named_reason

        return [(named_reason(self.store, reason), n) for reason, n in reasons]

    def _no_answer(self) -> tuple[str, str]:
        """(status, message) of a run that sent everything: failed when every answer row is
        an error (a clue pass that succeeded is no answer; an item the clue source had no
        clue for is counted apart), with the most common reasons; done when none is an error
        but every one was skipped for want of a source clue (nothing failed: the source run
        listed no clue), saying how many and why; else done, ''."""
        snapshot = self.totals.snapshot()
        answers = snapshot["answer_total"]
        missing = snapshot.get("no_source_clue", 0)      # the clue source had none
        if answers and missing == answers and not snapshot["error"]:
            return "done", (f"all {answers} answer rows skipped, none failed: the clue source "
                            f"run had no clue for them (its reply failed or listed none), so "
                            f"they were not asked and there is no answer to score")
        if answers and snapshot["error"] + missing == answers:
            what = "an error or had no source clue" if missing else "an error"
            return "failed", (f"every one of the {answers} answer rows is {what}, so there "
                              f"is no answer to score: "
                              + reasons_text(self._named(self.store.run_error_reasons(
                                  self.run_id)),
                                             answers))
        return "done", ""

    def _finish(self, status: str, message: str) -> None:
        snapshot = self.totals.snapshot() if hasattr(self, "totals") else {}
        self.store.finish_run(self.run_id, leases.OWNER, status, message, snapshot)
        self.outcome = Outcome(self.run_id, status, message, snapshot)

    def on_signal(self, name: str) -> None:
        """Ctrl-C / SIGTERM: pause cleanly; a second one stops waiting for requests in
        flight (they stay pending and are resent on resume)."""
        if self.stop_reason:
            self._hurry = True
            leases.warn("not waiting for the requests in flight")
        else:
            self._stop("pause", f"interrupted by {name}")
            leases.warn(f"{name}: pausing after the requests in flight; again to stop now")

    def _stop(self, reason: str, message: str) -> None:
        if self.stop_reason is None or reason == "failed" and self.stop_reason != "failed":
            self.stop_reason, self.stop_message = reason, message
        if hasattr(self, "_slot_freed"):    # a dispatch waiting for a slot stops at once
            self._slot_freed.set()
        if hasattr(self, "sender") and reason != "budget":
            # nothing queued for a slot is sent any more (a budget stop lets those go: the
            # budget already counted them when they were started)
            self.sender.limiter.close()

    def _load_clue_source(self, phase: str) -> None:
        source = self.config["clues"]
        if phase != "answer":
            return
        if source == "self":
            self.builder.set_clue_responses(self.store.run_response_clues(self.run_id, "clues"))
        elif source.startswith("run:"):
            self.builder.set_clue_responses(self.store.run_response_clues(source[4:]))

    # -- recording ------------------------------------------------------------------------
    def _record(self, row: dict, cache_entry: dict | None = None) -> None:
        self.recorder.record(row, cache_entry)

    def _flush(self) -> None:
        if hasattr(self, "recorder"):
            self.recorder.flush()

    def _on_commit(self, state: dict) -> None:
        """What a commit read back: another owner, or a pause/cancel request."""
        if state["owner"] != leases.OWNER:
            self._stop("lost", f"run {self.run_id} was taken over by {state['owner']}")
        elif state["control"] in ("pause", "cancel"):
            self._stop(state["control"], f"{state['control']} requested")

    async def _tick(self) -> None:
        """Commit at least every batch_interval (also renews the lease and reads control)."""
        while True:
            await asyncio.sleep(self.execution.batch_interval)
            self._flush()
            self._past_deadline()


def execute(store, run_id: str, *, items: dict | None = None,
            on_progress: Callable[[dict], None] | None = None,
            own_process: bool = False) -> Outcome:
    """Run (or resume) a run to completion or a stop, blocking; returns its outcome.

    `own_process` (the CLI: the process exists for this run): Ctrl-C or SIGTERM pause the run
    cleanly (dispatch stops, requests in flight finish, results are committed, the run stays
    resumable), and the garbage collector stops re-scanning everything loaded so far
    (gc.freeze), whose full collections otherwise stall the event loop for ~100 ms. Only the
    young generations are collected before the freeze: a full collection costs as much as
    the stall it prevents (70-170 ms measured, finding nothing to free), and what older
    garbage gets frozen stays bounded, in a process that ends with the run.
    """
    engine = Engine(store, run_id, items=items, on_progress=on_progress)
    if own_process:
        gc.collect(1)
        gc.freeze()

    async def main() -> Outcome:
        if own_process and threading.current_thread() is threading.main_thread():
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(sig, engine.on_signal, sig.name)
        return await engine.run()

    return asyncio.run(main())
