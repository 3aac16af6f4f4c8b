"""Experiments tab, part 4: steering runs: pause, cancel, and resume, with a new budget.

A resume starts `python app.py run --resume ID` in its own process (runner/background.py)
and makes that process the run's owner at once (`runner.background.hand_over`): the
progress panel the Resume button brings back shows the run running, where it showed the
stopped state until the next poll, ~2 s later (the process starting and claiming the run).

A run stopped by its budget stops again at once when resumed with it (what it spent still
reaches it), and the page had no way to change it: Resume takes a new budget, or none, from
the box beside it (`run --resume ID --budget USD | --no-budget` on the command line), and
refuses to resume such a run unchanged, saying how to go on.
"""
from __future__ import annotations

import math

from runner.costs import usd
from runner.dispatch import stopped_by_budget
from runner.leases import effective_status
from runner.totals import request_control
from store import ConflictError, StoreError
from ui.experiments_common import ExperimentError, as_float, blank
from ui.experiments_handlers import check_endpoint
from ui.experiments_runs import chosen_run

NO_BUDGET = ("none", "no budget", "no")   # what the box takes for "take the budget off"
RAISE_IT = "give a higher Budget on resume (or none) and press Resume"


def control(store, run_id: str, action: str) -> str:
    """Pause or cancel: the executing process reads the request at its next commit."""
    run = chosen_run(store, run_id)
    if action not in ("pause", "cancel"):
        raise ExperimentError(f"unknown action {action!r}")
    status = effective_status(run)
    if status == "done":
        raise ExperimentError(f"run {run['id']} is done: nothing to {action}")
    if action == "pause" and status in ("cancelled", "failed", "paused", "stopped"):
        raise ExperimentError(f"run {run['id']} is {status}, not running: nothing to pause")
    if status == "interrupted" and action == "pause":
        raise ExperimentError(f"run {run['id']} is interrupted (its process is gone): resume "
                              "it, or cancel it")
    try:
        after = request_control(store, run["id"], action)
    except StoreError as err:
        raise ExperimentError(str(err)) from None
    if after["status"] == "running" and status == "running":
        return (f"Asked run {run['id']} to {action}; " + (
            "it stops after the requests in flight." if action == "pause" else
            "it stops now, without waiting for the requests in flight (their replies are "
            "not recorded; pause waits for them)."))
    return f"Run {run['id']} is now {effective_status(after)}."


def resume_budget(text) -> tuple[bool, float | None]:
    """(change, budget) from the Budget on resume box: empty keeps the run's budget (False,
    None); "none" takes it off (True, None); an amount of USD ("2", "$2.50") is the new one
    (True, amount); anything else is refused."""
    if blank(text):
        return False, None
    text = str(text).strip()
    if text.lower() in NO_BUDGET:
        return True, None
    amount = as_float(text.removeprefix("$"), "budget on resume")
    if not 0 < amount < math.inf:                        # nan and inf too
        raise ExperimentError("budget on resume: a positive amount of USD, or none to take "
                              "the budget off")
    return True, amount


def budget_box(run: dict) -> dict:
    """The Budget on resume box for a run just chosen: empty (the run's own budget kept),
    its placeholder saying what that budget is. An amount typed for another run stayed in
    the box and was the one a Resume of this run took."""
    budget = (run.get("execution") or {}).get("budget")
    kept = usd(budget) if budget is not None else "none"
    return {"value": "", "placeholder": f"empty: the run's ({kept})"}    # the rest: the info


def _check_budget(store, run: dict, change: bool, amount: float | None) -> None:
    """Refuse a resume that would stop again at once: a run stopped by its budget resumed
    with it, or with a budget it has spent already; and a budget without a price."""
    spent = run["totals"].get("cost")
    budget = (run.get("execution") or {}).get("budget")
    if not change and stopped_by_budget(run):
        raise ExperimentError(f"run {run['id']} stopped at its budget of {usd(budget)}: resumed "
                              f"with it, it stops again at once; {RAISE_IT}")
    if amount is None:
        return
    model = run["config"]["endpoint"]["model"]
    if store.price_for(model) is None:
        raise ExperimentError(f"a budget needs a price for model {model}: add one in Prices, "
                              "or resume without a budget (none)")
    if spent is not None and amount <= spent:
        raise ExperimentError(f"run {run['id']} has spent ${spent:.4f} already: a budget of "
                              f"{usd(amount)} stops it at once; {RAISE_IT}")


def conclude(store, run_id: str, was: str) -> str:
    """Resume of a run stopped with every work row's result in (left "paused" before the
    runner concluded such a stop as done): nothing is sent; the runner concludes it here,
    done (or failed, when every answer is an error), as it would have."""
    from runner.engine import execute

    outcome = execute(store, run_id)
    return (f"Run {run_id} was {was} with every work row's result in, so nothing was sent: "
            f"it is {outcome.status} now" + (f" ({outcome.message})" if outcome.message
                                             else "") + ".")


def resume(store, run_id: str, retry_errors: bool = False, budget=None) -> str:
    """Continue a run in its own process: only work without a result is sent (and the
    errors again, with `retry_errors`); `budget`: the Budget on resume box
    (`resume_budget`)."""
    from runner.background import hand_over, start_detached
    from runner.coverage import Coverage, pending_coverage

    run = chosen_run(store, run_id)
    status = effective_status(run)
    if status == "running":
        raise ExperimentError(f"run {run['id']} is running already (owner {run['owner']})")
    pending = len(store.pending_work(run["id"]))
    errors = run["totals"].get("error", 0) if retry_errors else 0
    if not pending and not errors and status not in ("done", "failed"):
        return conclude(store, run["id"], status)
    if not pending and not errors:
        failed = run["totals"].get("error", 0)
        raise ExperimentError(f"run {run['id']} has nothing left to send"
                              + (" (tick 'retry errors' to send the failed requests again)"
                                 if failed and not retry_errors else
                                 ": every work row has its result"))
    change, amount = resume_budget(budget)
    _check_budget(store, run, change, amount)

    def coverage():  # the errors sent again were not cached (failures never are)
        found = pending_coverage(store, run["id"])
        return Coverage(found.cached, found.requests + errors)

    warning = check_endpoint(store, run["config"]["endpoint"], "not resumed", coverage)
    if change:
        store.set_run_execution(run["id"], {**run["execution"], "budget": amount})
    pid = start_detached(store.path.resolve(), run["id"], retry_errors=bool(retry_errors))
    try:
        hand_over(store, run["id"], pid)
    except ConflictError as err:        # another resume got there first: that one goes on
        raise ExperimentError(str(err)) from None
    budget_said = "" if not change else (f"; its budget is now {usd(amount)}" if amount
                                         else "; it has no budget now")
    return (f"Run {run['id']} resumed in its own process: {pending} requests left"
            + (f", {errors} errors sent again" if errors else "") + budget_said + "."
            + (f" {warning}." if warning else ""))


PAUSABLE = ("created", "running")
CANCELLABLE = ("created", "running", "paused", "stopped", "interrupted")


def buttons(status: str | None, allowed: bool = True) -> tuple[dict, dict, dict, dict]:
    """Pause, Cancel, Resume and the 'retry errors' box as the watched run's status allows
    (`gr.update` keywords; the box goes with Resume, whose option it is: it stayed tickable
    for a watcher who may not steer the run):
    on a cancelled run all three looked live, and each click only answered that there was
    nothing to do (a review). Resume stays on for a done or failed run (its errors may be
    sent again with 'retry errors'), unless done with nothing to resume; none is on when
    no run is watched. `status` as the
    progress panel shows it: 'running (pause requested)' can still be cancelled. `allowed`
    False: the watcher may not steer this run (`ui.experiments_owners.may_steer`), all off."""
    requested = status is not None and "requested)" in status
    finished = status is not None and "nothing to resume)" in status   # experiments_runs
    status = status.split(" (")[0] if status and allowed else None
    resumable = status is not None and status != "running" and not finished
    return ({"interactive": status in PAUSABLE and not requested},
            {"interactive": status in CANCELLABLE},
            {"interactive": resumable}, {"interactive": resumable})
