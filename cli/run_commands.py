"""`run`: start or resume an experiment run, in this process, until it ends or stops.

    python app.py run --db DB --endpoint NAME --setting S [--clues SOURCE] [--image-mode M]
                      [--samples N] [--repeats R] [--temperature T] [--top-p P] [--max-tokens N]
                      [--seed S] [--preset mmr-life] [--box-convention C] [item filters]
                      [--budget USD] [--deadline SECONDS] [--name NAME] [--note TEXT]
                      [--dry-run] [--json]
    python app.py run --db DB --resume ID [--retry-errors] [--budget USD | --no-budget] [--json]

Watching and steering runs (`runs`): cli/runs_commands.py.

Exit status of `run`: 0 done, 1 failed (e.g. the endpoint is unreachable; the run stays
resumable), 2 bad arguments, 3 stopped early (paused, cancelled, budget, deadline).
"""
from __future__ import annotations

import argparse
import json
import sys

from cli.endpoint_commands import fail, open_store
from domain.vocabulary import counted
from domain.commands import command
from cli.progress import TerminalProgress
from runner.run_refs import resolve_run
from runner.config import ID_LIST_RULE, parse_id_list
from runner.costs import completion_words, money
from runner.totals import counts_text, status_counts

EXIT = {"done": 0, "failed": 1, "lost": 1}


def add_parsers(sub) -> None:
    from domain.geometry import STATED_CONVENTIONS
    from domain.limits import MAX_RUN_NAME, MAX_RUN_NOTE
    from runner.config import CLUE_PASS_SETTINGS, IMAGE_FORMATS, IMAGE_MODES, PRESETS, SETTINGS

    p = sub.add_parser("run", help="run a model over items (or resume a run)",
                       epilog="exit status: 0 done, 1 failed (resumable), 2 bad arguments, "
                              "3 stopped early (paused, cancelled, budget, deadline)")
    p.add_argument("--db", default="cluelab.db")
    p.add_argument("--resume", metavar="RUN", help="continue this run: send only what has no "
                                                  "result yet")
    p.add_argument("--retry-errors", action="store_true",
                   help="with --resume: forget results with status error and send them again")
    p.add_argument("--endpoint", help="endpoint name (see `endpoint list`)")
    p.add_argument("--setting", choices=SETTINGS,
                   help="direct (No-CoT), cot, clue_guided (DailyClue 5.2), structured (VER-Bench)")
    p.add_argument("--clues", default="none", metavar="SOURCE",
                   help="clues injected into the prompt: none, gt, self, run:<RUN> (id or name)")
    p.add_argument("--clue-pass", choices=CLUE_PASS_SETTINGS, default="clue_guided",
                   help="setting of the first pass that finds the model's own clues "
                        "(--clues self)")
    p.add_argument("--image-mode", choices=IMAGE_MODES, default="full")
    p.add_argument("--mask-style", choices=("black", "blur"), default="black")
    p.add_argument("--samples", type=int, default=1, help="samples per item and repeat")
    p.add_argument("--repeats", type=int, default=1, help="repeats, seeds base + index")
    p.add_argument("--temperature", type=float)
    p.add_argument("--top-p", type=float)
    p.add_argument("--max-tokens", type=int)
    p.add_argument("--seed", type=int, help="base seed")
    p.add_argument("--preset", choices=sorted(PRESETS),
                   help="a paper's protocol: mmr-life is cot, no clues, full images, "
                        "temperature 0.5, top_p 0.5, seed 17 (its setting when --setting is "
                        "not given; a run departing from it keeps the sampling, not the label)")
    p.add_argument("--image-max-pixels", type=int, metavar="P")
    p.add_argument("--image-format", choices=IMAGE_FORMATS, default="jpeg")
    p.add_argument("--image-quality", type=int, default=90)
    p.add_argument("--box-convention", choices=STATED_CONVENTIONS, default="auto", metavar="C",
                   help="how the model writes its boxes, for the grounded score and Inspect: "
                        "auto (default: each reply's scale detected, corners x0,y0,x1,y1 "
                        "assumed), or pixels, normalized_1, normalized_1000 (corners), or "
                        "the same after xywh_ (x, y, width, height)")
    items = p.add_argument_group("items (a filter, or explicit ids)")
    for key in ("dataset", "domain", "subtask", "status"):
        items.add_argument(f"--{key}")
    items.add_argument("--flagged", action="store_true", help="only flagged items")
    items.add_argument("--filter", action="append", default=[], metavar="KEY=VALUE",
                       help="same as --KEY VALUE; repeatable")
    items.add_argument("--ids", help=f"explicit item ids ({ID_LIST_RULE})")
    exe = p.add_argument_group("execution")
    budget = exe.add_mutually_exclusive_group()
    budget.add_argument("--budget", type=float, metavar="USD",
                        help="stop dispatching when the projected spend reaches this (with "
                             "--resume: the run's new budget)")
    budget.add_argument("--no-budget", action="store_true",
                        help="with --resume: take the run's budget off")
    exe.add_argument("--deadline", type=float, metavar="SECONDS",
                     help="stop dispatching after this long")
    # no argparse defaults here: a resume keeps the run's own (Execution's for a new run)
    exe.add_argument("--timeout", type=float,
                     help="seconds per request attempt (default 120; with --resume: the run's)")
    exe.add_argument("--max-attempts", type=int,
                     help="attempts per request (default 6; with --resume: the run's)")
    exe.add_argument("--concurrency", type=int, help="override the endpoint's concurrency")
    exe.add_argument("--stream", action="store_true", help="use streaming responses")
    exe.add_argument("--no-cache", action="store_true",
                     help="send every request: take no reply from the response cache (a "
                          "cached reply is an earlier run's draw of the same item, repeat and "
                          "sample); with --resume, for what is left to send")
    p.add_argument("--name", help="the run's name, as `runs --rename` gives it (one line, at "
                                   f"most {MAX_RUN_NAME} characters)")
    p.add_argument("--note", help="the run's note, as `runs --note` sets it (at most "
                                   f"{MAX_RUN_NOTE} characters)")
    p.add_argument("--dry-run", action="store_true",
                   help="plan and project the cost, create nothing")
    p.add_argument("--json", action="store_true",
                   help='print one JSON object {"id", "status", "totals", ...}')
    p.set_defaults(handler=run_run)


def _filters(args) -> dict:
    filters = {k: getattr(args, k) for k in ("dataset", "domain", "subtask", "status")
               if getattr(args, k)}
    if args.flagged:
        filters["flagged"] = True
    for pair in args.filter:
        key, sep, value = pair.partition("=")
        if not sep:
            raise argparse.ArgumentTypeError(f"--filter {pair!r}: expected KEY=VALUE")
        filters[key.strip()] = (value.lower() in ("1", "true", "yes")) if key == "flagged" \
            else value
    return filters


def _config(args):
    from runner.config import Execution, RunConfig

    config = RunConfig(
        endpoint=args.endpoint, setting=args.setting, clues=args.clues,
        clue_pass_setting=args.clue_pass, image_mode=args.image_mode,
        mask_style=args.mask_style, samples=args.samples, repeats=args.repeats,
        temperature=args.temperature, top_p=args.top_p, max_tokens=args.max_tokens,
        seed=args.seed, preset=args.preset, image_max_pixels=args.image_max_pixels,
        image_format=args.image_format, image_quality=args.image_quality,
        filters=_filters(args), ids=parse_id_list(args.ids) or None,
        box_convention=args.box_convention)
    return config, _execution(args, Execution())


def _execution(args, base):
    for name, attr in (("budget", "budget"), ("deadline", "deadline"),
                       ("request_timeout", "timeout"), ("max_attempts", "max_attempts"),
                       ("concurrency", "concurrency")):
        value = getattr(args, attr, None)
        if value is not None:
            setattr(base, name, value)
    if getattr(args, "no_budget", False):
        base.budget = None
    if getattr(args, "stream", False):
        base.stream = True
    if getattr(args, "no_cache", False):
        base.use_cache = False
    return base


def _describe(plan) -> str:
    p = plan.projection
    price = command("price", "set", plan.endpoint["model"], "--input", "USD_PER_M",
                    "--output", "USD_PER_M")
    cost = (f"unknown (no price for this model: {price})" if not p["priced"]
            else f"${p['cost_max']:.4f} at most (no completion length measured yet)"
            if p.get("completion_bounded") and p["cost"] == p["cost_max"]
            else f"${p['cost']:.4f} typical, ${p['cost_max']:.4f} at most")
    lines = [f"{counted(len(plan.items), 'item')}, {counted(p['work'], 'work row')}, "
             f"{counted(p['requests'], 'request')} "
             f"({p['cached']} cached), ~{p['prompt_tokens']} prompt tokens and "
             f"{completion_words(p)} to send; projected cost {cost}",
             f"cache: {p['cache_text']}", f"token estimate: {p['basis']}"]
    lines += [f"warning: {w}" for w in plan.warnings]
    return "\n".join(lines)


def _report(store, outcome: dict, as_json: bool) -> int:
    """The run's outcome: its counters, cost and where its replies came from (one JSON
    object with --json, whose "cache" is `runs --show`'s)."""
    from runner.provenance import cache_summary
    from scoring.compared import source_name

    # the source run by its table label, as `report` and the Results page name it
    outcome["cache"] = cache_summary(store, store.get_run(outcome["id"]), source_name(store))
    if as_json:
        print(json.dumps(outcome, ensure_ascii=False, sort_keys=True))
    else:
        t = outcome["totals"]
        counts = status_counts(t, status=outcome["status"])
        print(f"run {outcome['id']}: {outcome['status']}  {t.get('done', 0)}/{t.get('total', 0)}"
              f"  {counts_text(counts)}  cost {money(t.get('cost'))}\n"
              f"{outcome['cache']['text']}", flush=True)
    if outcome.get("message"):
        print(("error: " if outcome["status"] == "failed" else "") + outcome["message"],
              file=sys.stderr)
    return EXIT.get(outcome["status"], 3)


def _execute(store, run_id: str, args, items=None) -> dict:
    from runner.engine import execute

    progress = None if args.json else TerminalProgress(f"run {run_id}")
    try:
        outcome = execute(store, run_id, items=items, own_process=True,
                          on_progress=(lambda t: progress(t["done"], t["total"]))
                          if progress else None)
    finally:
        if progress:
            progress.close()
    return outcome.to_dict()


def run_run(args) -> int:
    from runner.config import PRESET_PROTOCOLS, ConfigError
    from runner.leases import RunBusy
    from runner.planning import create_run, plan_run
    from scoring.compared import labelled_plan
    from store import ConflictError, StoreError
    from store.run_labels import checked_labels

    store = open_store(args.db)
    try:
        if args.resume:
            if args.name is not None or args.note is not None:
                return fail("--name and --note label a new run; a run's own: "
                            + command("runs", "--rename", "RUN", "NAME") + " or "
                            + command("runs", "--note", "RUN", "TEXT"))
            return _resume(store, args)
        if not args.setting and args.preset:      # a preset is a protocol: its setting
            args.setting = PRESET_PROTOCOLS[args.preset]["setting"]
        if not args.endpoint or not args.setting:
            return fail("--endpoint NAME and --setting S (or --preset P) are required (or "
                        "--resume ID)")
        labels = checked_labels(args.name, args.note)   # refused before anything is made
        config, execution = _config(args)
        plan = labelled_plan(store, plan_run(store, config, execution))
        if execution.budget is not None and not plan.projection["priced"]:
            return fail(f"--budget needs a price for model {plan.endpoint['model']}: "
                        + command("price", "set", plan.endpoint["model"], "--input",
                                  "USD_PER_M", "--output", "USD_PER_M"))
        go_on, said = _endpoint_verdict(plan)
        if args.dry_run:    # plans only, exit 0; what the real run would meet, said first
            if said:
                plan.warnings.insert(0, said if go_on else
                                     f"the run would not start: {said}")
            out = {"config_id": plan.config_id, "projection": plan.projection,
                   "warnings": plan.warnings, "config": plan.resolved, "would_start": go_on}
            print(json.dumps(out, ensure_ascii=False) if args.json else _describe(plan))
            return 0
        if not go_on:
            return fail(f"not started: {said}")
        if said:
            print(f"warning: {said}", file=sys.stderr)
        run_id = create_run(store, plan, author="cli")
        if labels:
            store.label_run(run_id, **labels)
        if not args.json:  # on stdout, as the summary: the header always comes first
            print(f"run {run_id} (config {plan.config_id[:12]})\n{_describe(plan)}",
                  flush=True)
        outcome = _execute(store, run_id, args, items=plan.items)
        outcome["config_id"] = plan.config_id
        return _report(store, outcome, args.json)
    except (ConfigError, argparse.ArgumentTypeError) as error:
        return fail(str(error))
    except (ConflictError, RunBusy) as error:
        return fail(str(error))
    except StoreError as error:
        return fail(str(error))


def _endpoint_verdict(plan) -> tuple[bool, str | None]:
    """(the run may start, what to say or None) from a test of the endpoint: one that cannot
    work (nothing listening, a key missing or refused) refuses a run the cache does not answer
    whole, checked before the run is created, as the page's Start does (a failed 0/3 run
    cluttered every run picker); one that answers but not well, or a run the cache answers,
    is a warning. `--dry-run` asks it too: it planned on a dead endpoint without a word."""
    import asyncio

    from runner.coverage import Coverage, start_verdict
    from runner.endpoints import test_endpoint_async

    return start_verdict(asyncio.run(test_endpoint_async(plan.endpoint)), lambda:
                         Coverage(plan.projection["cached"], plan.projection["requests"]))


def _resume(store, args) -> int:
    from runner.config import Execution
    from runner.costs import usd
    from runner.dispatch import stopped_by_budget
    from runner.leases import OWNER, effective_status

    run = store.get_run(resolve_run(store, args.resume))
    if effective_status(run) == "running" and run["owner"] != OWNER:
        return fail(f"run {run['id']} is being executed by {run['owner']}; pause it with "
                    f"{command('runs', '--pause', run['id'])}, or wait until it stops")
    # validated as a new run's is (before anything is forgotten): a resume took
    # "--budget -3" or nan unchecked
    execution = _execution(args, Execution.from_dict(run["execution"])).validate()
    # as the page's Resume: resumed with the budget it stopped at, a run stops again at once
    # (or after one more request), which the page refused and this did not
    if stopped_by_budget(run) and args.budget is None and not args.no_budget:
        budget = (run.get("execution") or {}).get("budget")
        return fail(f"run {run['id']} stopped at its budget of {usd(budget)}: resumed with it, "
                    "it stops again at once; give a higher one with --budget USD, or take it "
                    "off with --no-budget")
    if args.retry_errors:
        forgotten = store.delete_run_results(run["id"], ("error",))
        if not args.json:
            print(f"run {run['id']}: {forgotten} error results will be sent again",
                  file=sys.stderr)
    store.set_run_execution(run["id"], {**run["execution"], **execution.to_dict()})
    outcome = _execute(store, run["id"], args)
    outcome["config_id"] = run["config_id"]
    return _report(store, outcome, args.json)
