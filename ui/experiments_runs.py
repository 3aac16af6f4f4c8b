"""Experiments tab, part 3: watching runs (steering them: experiments_steering).

Everything here reads `model_runs` (whose `totals` the executing process rewrites with each
batch commit), so any user on any page can watch any run, whichever process executes it.
The poll (`runs_table` + `progress_html`) is one small query each. Model output is untrusted:
it only leaves here as plain strings for Textbox / Code / Dataframe cells, and the one HTML
block (`progress_html`) is built from numbers and escaped text.
"""
from __future__ import annotations

import json
from collections import defaultdict

from runner.leases import effective_status
from runner.costs import money, usd
from runner.provenance import cache_summary
from runner.totals import COUNTS, LABELS, MEANINGS, row_state, status_counts, without_result
from runner.run_refs import resolve_run
from store import NotFoundError, ValidationError
from store.runner_retried import retried_text
from domain.vocabulary import counted
from scoring.compared import run_label, source_name, source_names, table_names
from ui.experiments_common import ExperimentError, redact
from ui.experiments_owners import off_why, refusal, said_to, who_may
from ui.page_words import on_page
from ui.run_choices import cached_state, run_choices
from ui.text import draw_cell, escape_html, marks_shown, short

# Six columns, to fit the monitor's column at 1400x900 (ten did not: cost and "by" were out
# of view): the run as the tables name it (its table label: its name, else model, setting,
# clues and images when not the default), then its id (what `run --resume` takes); a click
# watches the id (row[1]). A table still wider than its box scrolls with an evident
# scrollbar (assets/cluelab.css, #runs-list).
RUN_HEADERS = ["run", "id", "status", "done", "cost $", "by"]
# cost 16%: "unknown" whole in the monitor's ~530 px (the form takes 5 : 4, assets/cluelab.css)
RUN_WIDTHS = ["28%", "27%", "12%", "10%", "15%", "8%"]
RESPONSE_HEADERS = ["work", "item", "draw", "status", "answer", "reason"]
RESPONSE_WIDTHS = ["9%", "22%", "12%", "16%", "14%", "27%"]
"""The response sample's columns in the monitor's width at 1400 px (assets/cluelab.css):
repeat and sample in one ("r0 s1", as Inspect's list writes them, on one line: in 8% it
wrapped to "r0" over "s1"); a reply's latency, tokens
and the run it was cached from are in its detail (a click), as ten columns cut them all."""
# (label, value): the progress panel's and `runs --json`'s counter names, each with what it
# means ("pending" alone read as "not yet scored?"); the values are the counters' keys.
RESPONSE_FILTERS = [("all responses", "all")] + [
    (f"{LABELS.get(name, name)}: {MEANINGS[name]}", name) for name in COUNTS]
FINAL = ("done", "cancelled", "failed")
RUN_LIMIT = 100
SAMPLE_ROWS = 50


def chosen_run(store, run_id: str) -> dict:
    """The run the user chose in the list, or ExperimentError saying what to do."""
    if not (run_id or "").strip():
        raise ExperimentError("choose a run first (click it in the list)")
    try:
        return store.get_run(resolve_run(store, run_id))  # an id or a (unique) name
    except (NotFoundError, ValidationError) as err:
        raise ExperimentError(str(err)) from None


def owned_run(store, run_id: str, user: str | None, action: str) -> dict:
    """The chosen run, if `user` may `action` it: its creator or an admin (everyone in local
    mode, user None: `ui.experiments_owners.who_may`). Another researcher sees the run and
    its results, but cannot rename, delete, pause, cancel or resume it: ExperimentError
    saying who may."""
    run = chosen_run(store, run_id)
    if who_may(store, run, user):
        raise ExperimentError(refusal(run, action))
    return run


def _status(run: dict) -> str:
    status = effective_status(run)
    if run.get("control") and status == "running":
        status += f" ({run['control']} requested)"
    return status


def _money(value) -> str:
    return "unknown" if value is None else f"{value:.4f}"


def spent(run: dict) -> float | None:
    """What a run has spent: nothing (0) while it is "created" with no totals yet (nothing
    sent), whether its model has a price or not; else its totals' cost, None (unknown) when
    replies came back without a price. A priced run just started said "unknown (no price)"."""
    totals = run.get("totals") or {}
    return 0.0 if run.get("status") == "created" and not totals else totals.get("cost")


def planned_total(config: dict) -> int | None:
    """Work rows of a run from its config (before the runner has written any totals)."""
    count = (config.get("items") or {}).get("count")
    if count is None:
        return None
    per_repeat = (config.get("samples") or 1) + (1 if config.get("clues") == "self" else 0)
    return count * (config.get("repeats") or 1) * per_repeat


def runs_table(store) -> list[list]:
    """One row per run, newest first: its table label (`scoring.compared.run_label`, as the
    tables and README name runs: a run without a name was listed by its id), then its id
    (what `run --resume` and the box above take)."""
    runs = store.list_runs()
    labels = list_labels(runs[:RUN_LIMIT], table_names(runs))
    out = []
    for run in runs[:RUN_LIMIT]:
        c, t = run["config"], run["totals"]
        total = t.get("total") or planned_total(c) or "?"
        out.append([labels[run["id"]], run["id"], _status(run),
                    f"{t.get('done', 0)}/{total}", _money(spent(run)), run["created_by"] or ""])
    return out


def list_labels(runs: list[dict], names: dict) -> dict[str, str]:
    """{run id: its table label} (`scoring.compared.run_label`), with its endpoint when
    another run listed has that label from another endpoint, and this one is not named
    after the model ('vlm-b
    · CoT · endpoint vlmB'): two endpoints serving one model (a local copy) are told apart,
    as the pickers tell them ('vlmB (vlm-b)')."""
    found = {run["id"]: run_label(run, with_status=False, names=names) for run in runs}
    endpoints = {run["id"]: run["config"].get("endpoint") or {} for run in runs}
    served: dict[str, set] = defaultdict(set)        # label: the endpoints its runs used
    for rid, label in found.items():
        served[label].add(endpoints[rid].get("name"))
    for rid, endpoint in endpoints.items():
        name = endpoint.get("name")
        if len(served[found[rid]]) > 1 and name and name != endpoint.get("model"):
            found[rid] += f" · endpoint {name}"
    # two runs that still share a label are told apart by the id column beside it: the id
    # added in brackets, as the tables do, said it twice and wrapped the label to 3-4 lines
    # at 1400x900 (a review, round 23)
    return found


def clue_run_choices(store) -> list[tuple[str, str]]:
    """(label, run id) of runs whose answers can be a clue source."""
    return run_choices(store, RUN_LIMIT)


def _metric(label: str, value) -> str:
    return (f"<div class='xp-metric'><span class='xp-label'>{escape_html(label)}</span>"
            f"<span class='xp-value'>{escape_html(value)}</span></div>")


def _in_flight(counts: dict, totals: dict, status: str) -> str:
    """"1/4" read as a run using a quarter of its slots when 429s had lowered them: the
    slots allowed now are said while they are fewer."""
    text = f"{counts['in_flight']}/{totals.get('concurrency') or '–'}"
    now, most = totals.get("concurrency_now"), totals.get("concurrency")
    if now and most and now < most and status.split(" ")[0] == "running":
        text += f" (lowered to {now} after 429s)"
    return text


def _seconds(value) -> str:
    if value is None:
        return "–"
    return f"{value * 1000:.0f} ms" if value < 10 else f"{value:.1f} s"


def _counts_html(counts: dict, group: str = "answers") -> str:
    """Every response status and pending, each with its number: they add up to the total
    (runner.totals.status_counts), so a refused or truncated reply is never hidden. The
    answer rows and a clue pass's rows are two groups, each with its own total."""
    prefix = "" if group == "answers" else "clue-"
    return (f"<span class='xp-c xp-c-group'>{group}</span>"
            + "".join(f"<span class='xp-c xp-c-{name}' data-count='{prefix}{name}'>"
                      f"{LABELS.get(name, name)} <b>{counts[name]}</b></span>"
                      for name in COUNTS)
            + f"<span class='xp-c xp-c-total'>= <b data-count='{prefix}total'>"
              f"{counts['total']}</b></span>")


def progress_html(store, run_id: str | None, user: str | None = None) -> str:
    """The live counters of one run as a small HTML panel (numbers and escaped text only),
    as `user` sees it (`progress`)."""
    return progress(store, run_id, user)[0]


def progress(store, run_id: str | None, user: str | None = None) -> tuple[str, str | None]:
    """(progress_html, the run's status or None): one read of one row. `user`: who watches
    (None: local mode); its message says who may resume the run when they may not."""
    if not run_id:
        return ("<div class='xp-progress xp-empty'>Select a run in the list to watch it.</div>",
                None)
    try:
        run = store.get_run(run_id)
    except NotFoundError:
        return f"<div class='xp-progress xp-empty'>No run {escape_html(run_id)}.</div>", None
    t = run["totals"]
    status = _status(run)
    counts = status_counts(t, store.run_work_counts(run_id), status=status)
    clue_pass = counts["clue_pass"]
    total = counts["total"] + (clue_pass["total"] if clue_pass else 0)
    done = total - without_result(counts)
    pct = 100.0 * done / total if total else 0.0
    tokens = f"{t.get('prompt_tokens', 0):,} in / {t.get('completion_tokens', 0):,} out"
    projected = t.get("projected_cost")
    # the arrow alone read as nothing in particular: the figure is the whole run's projection
    cost = money(spent(run)) + (f" (projected in all: ${projected:.4f})" if projected else "") \
        + (f"; not counted: {t['abandoned']} abandoned in flight" if t.get("abandoned") else "")
    metrics = [
        ("done", f"{done}/{total}"), ("requests/s", f"{t.get('requests_per_s', 0):.2f}"),
        ("latency p50", _seconds(t.get("latency_p50"))),
        ("latency p95", _seconds(t.get("latency_p95"))),
        ("retries", t.get("retries", 0)), ("429s", t.get("rate_limited", 0)),
        ("cached", t.get("cached", 0)),
        ("in flight", _in_flight(counts, t, status)),
        ("tokens", tokens), ("cost", cost),
    ]
    budget = (run.get("execution") or {}).get("budget")
    if budget is not None:      # what a resume would stop at (Budget on resume changes it)
        metrics.append(("budget", usd(budget)))
    cache = cache_summary(store, run, source_name(store))["text"]
    retried = retried_text(t.get("retried"))   # counted in requests, retries, tokens, cost
    message = run.get("message") or ""
    who = who_may(store, run, user)
    finished = status == "done" and not counts.get("error") and not without_result(counts)
    off = steering_off(status, finished, counts.get("error") or 0) if who else ""
    message = said_to(on_page(redact(store, message)), who, off) \
        if message else ""                                        # it may quote a server's
    # reply; and "resume with python app.py run --resume ID" is the Resume button here
    if off and f"may {off}" not in message:
        # a cancelled, running or done run's message names no Resume: why the buttons were
        # off for this watcher was said nowhere (a done CLI run with 9 errors, round 20)
        message = "; ".join(p for p in (message, f"only {who} may {off}") if p)
    css = status.split()[0]
    # why this watcher's steering controls are off: their tooltip (assets/steer_titles.js)
    why = f" data-cl-off='{escape_html(off_why(run))}'" if who else ""
    panel = (f"<div class='xp-progress' data-status='{escape_html(css)}'{why}>"
             f"<div class='xp-head'>{_title_html(store, run)}"
             f"<span class='xp-status xp-{escape_html(css)}' id='run-status'>"
             f"{escape_html(status)}</span>"
             f"<span class='xp-count' id='run-done'>{done}/{total}</span></div>"
             f"<div class='xp-bar'><div style='width:{pct:.1f}%'></div></div>"
             f"<div class='xp-counts' id='run-counts'>{_counts_html(counts)}</div>"
             + (f"<div class='xp-counts' id='run-clue-counts'>"
                f"{_counts_html(clue_pass, 'clue pass')}</div>" if clue_pass else "")
             + f"<div class='xp-metrics'>{''.join(_metric(k, v) for k, v in metrics)}</div>"
             + (f"<div class='xp-cache' id='run-retried'>{escape_html(retried)}</div>"
                if retried else "")
             + f"<div class='xp-cache' id='run-cache'>{escape_html(cache)}</div>"
             + (f"<div class='xp-message'>{escape_html(message)}</div>" if message else "")
             + "</div>")
    if finished:
        status += f" ({NOTHING_LEFT})"       # Resume off (experiments_steering.buttons)
    return panel, status


def steering_off(status: str, finished: bool, errors: int) -> str:
    """What the steering buttons would do for one who may steer the run, said for one who
    may not (theirs are all off: `experiments_steering.buttons`), after "only <who> may":
    'pause or cancel it' (running), 'cancel or resume it' (paused, stopped), 'resume it, or
    retry its 9 errors' (done, failed); '' when no button would be on (done, nothing left)."""
    from ui.experiments_steering import buttons

    pause, cancel, resume, _ = (b["interactive"] for b in buttons(
        f"{status} ({NOTHING_LEFT})" if finished else status))
    verbs = [v for v, on in (("pause", pause), ("cancel", cancel), ("resume", resume)) if on]
    if not verbs:
        return ""
    said = (" or ".join(verbs) if len(verbs) < 3 else "pause, cancel or resume") + " it"
    if resume and errors:
        said += f", or retry its {counted(errors, 'error')}"
    return said


NOTHING_LEFT = "nothing to resume"
"""A done run with no error and nothing unsent: Resume was live, and a click only said the
run had nothing left to send."""


def _title_html(store, run: dict) -> str:
    """The panel's title: the run's table label, as the runs list names it (its name, else
    model, setting, ...: 'b · CoT · T 0.5 · 2 repeats'), its id beside it in small type (what
    `run --resume` and the box above take); an unnamed run showed its bare id alone."""
    name = run_label(run, with_status=False, names=source_names(store, [run]))
    return (f"<b class='xp-name'>{escape_html(name)}</b>"
            f"<span class='xp-id'>{escape_html(run['id'])}</span>")


def run_config(store, run_id: str) -> dict:
    """What the run asks (resolved config) and how (execution), plus its state and totals."""
    run = chosen_run(store, run_id)
    keys = ("id", "config_id", "endpoint", "created_at", "created_by", "started_at",
            "finished_at", "message")
    return redact(store, {**{k: run.get(k) for k in keys}, "status": _status(run),
                          "totals": run["totals"], "config": run["config"],
                          "execution": run["execution"]})


def _answer_of(result: dict) -> str | None:
    """A row's answer: none for a clue pass, which asks for clues, not an answer (its reply
    was read for one all the same, and a letter "A" showed beside "ok (clue pass)")."""
    return result["answer"] if result["phase"] == "answer" else None


def responses(store, run_id: str, status: str = "all", limit: int = SAMPLE_ROWS) -> list[list]:
    """A sample of the run's answers (first `limit` matching the status filter: a counter
    of the progress panel, `RESPONSE_FILTERS`). A row without a result is "pending" while
    the run goes on and "not run" once it stopped, as the panel counts it."""
    run = chosen_run(store, run_id)
    run_status = effective_status(run)
    rows, sources = [], {}
    for r in store.run_results(run["id"], phase=None):
        key = row_state(r["status"], run_status, r["reason"])
        if status not in (None, "", "all") and key != status:
            continue
        state, answer = LABELS.get(key, key), _answer_of(r)
        state += " (clue pass)" if r["phase"] != "answer" else ""
        reason = short(r["reason"], 80) if r["reason"] else ""
        if r["cached"]:     # another run's draw: said as the README says (it read "ok")
            state, reason = cached_state(store, state, reason, r.get("cached_from"), sources)
        rows.append([r["work_id"], r["item_id"], draw_cell(r["repeat"], r["sample"]), state,
                     short(answer, 60) if answer is not None else "", reason])
        if len(rows) >= limit:
            break
    return redact(store, rows)


def _latency(result: dict):
    """A reply's latency in seconds; "cached" for a reply taken from the cache, which was
    not timed now (an older row may still hold the original call's time)."""
    if result["cached"]:
        return "cached"
    return "" if result["latency"] is None else round(result["latency"], 3)


def _cached_from(result: dict) -> str:
    """The run whose reply a cached row took ('an earlier run' when not recorded)."""
    if not result["cached"]:
        return ""
    return f"run {result['cached_from']}" if result.get("cached_from") else "an earlier run"


def response_detail(store, run_id: str, work_id) -> tuple[str, str]:
    """(full model text, extracted answer + clues as JSON) of one work row."""
    run = chosen_run(store, run_id)
    try:
        work_id = int(work_id)
    except (TypeError, ValueError):
        raise ExperimentError("choose a response (click its row)") from None
    found = [r for r in store.run_results(run["id"], phase=None) if r["work_id"] == work_id]
    if not found:
        raise ExperimentError(f"run {run['id']} has no work row {work_id}")
    r = found[0]
    if r["status"] is None:
        return "(no result yet)", "{}"
    extracted = {"item": r["item_id"], "status": r["status"], "reason": r["reason"],
                 **({"answer": r["answer"]} if r["phase"] == "answer" else
                    {"phase": "clue pass (asks for clues, not an answer)"}),
                 "clues": r["clues"],
                 "box_convention": r["box_convention"], "finish_reason": r["finish_reason"],
                 "latency_s": _latency(r), "tokens_in": r["prompt_tokens"],
                 "tokens_out": r["completion_tokens"], "cached_from": _cached_from(r) or None}
    return (marks_shown(redact(store, r["text"] or "")),  # as received: controls shown
            redact(store, json.dumps(extracted, indent=2, ensure_ascii=False)))
