"""`runs`: list runs; show, pause, cancel, rename, annotate or delete one.

    python app.py runs --db DB [--json] [--limit N] [--show ID | --pause ID | --cancel ID |
                       --rename ID NAME | --note ID TEXT | --delete ID [--yes]]

A run is named by its id or its name (runner/run_refs.py). A pause or cancel is read by the
executing process at its next commit; a run nobody executes changes status at once.
"""
from __future__ import annotations

import json
import sys

from cli.endpoint_commands import fail, open_store
from cli.run_show import show_text
from runner.run_refs import resolve_run
from runner.config import boxes_text, draws_text
from runner.costs import money
from store.run_labels import clues_text
from runner.totals import request_control, status_counts
from domain.vocabulary import IMAGE_MODE_TITLES
from scoring.compared import run_label, table_names


def add_parsers(sub) -> None:
    p = sub.add_parser("runs", help="list runs; show, pause or cancel one")
    p.add_argument("--db", default="cluelab.db")
    p.add_argument("--json", action="store_true")
    p.add_argument("--limit", type=int)
    action = p.add_mutually_exclusive_group()
    action.add_argument("--show", metavar="RUN",
                        help="one run in full (a summary; with --json all of it as JSON)")
    action.add_argument("--pause", metavar="RUN", help="ask a running run to pause")
    action.add_argument("--cancel", metavar="RUN",
                        help="ask a run to stop now: the requests in flight are dropped "
                             "(their replies are not recorded); `run --resume RUN` can still "
                             "send the items not done")
    action.add_argument("--rename", nargs=2, metavar=("RUN", "NAME"),
                        help="name a run ('' clears the name)")
    action.add_argument("--note", nargs=2, metavar=("RUN", "TEXT"),
                        help="set a run's note ('' clears it)")
    action.add_argument("--delete", metavar="RUN",
                        help="delete a run with its responses, scores, tags and notes (asks "
                             "first, naming the counts; --yes skips the question)")
    p.add_argument("--yes", action="store_true", help="with --delete: do not ask")
    p.set_defaults(handler=run_runs)


def _delete(store, run_id: str, yes: bool) -> int:
    """Delete a run after saying what goes with it; asks on a terminal unless --yes."""
    from runner.leases import owner_is_stale
    from store.run_labels import contents_text

    contents = store.run_contents(run_id)
    what = contents_text(contents)
    if contents["clue_users"]:
        what += "; runs that injected its clues: " + ", ".join(contents["clue_users"])
    if not yes:
        if not sys.stdin.isatty():
            return fail(f"run {run_id} holds {what}; add --yes to delete it")
        answer = input(f"Delete run {run_id} with {what}? [y/N] ")
        if answer.strip().lower() not in ("y", "yes"):
            print("nothing deleted", file=sys.stderr)
            return 1
    removed = store.delete_run(run_id, owner_is_stale)
    print(f"run {run_id} deleted with {contents_text(removed)}")
    return 0


def _resolve_named_run(store, args) -> None:
    """The run an action names (id or name) replaced by its id."""
    for action in ("show", "delete", "pause", "cancel", "rename", "note"):
        given = getattr(args, action)
        if given and action in ("rename", "note"):
            setattr(args, action, [resolve_run(store, given[0]), given[1]])
        elif given:
            setattr(args, action, resolve_run(store, given))


RUN_KEYS = ("id", "name", "note", "created_at", "created_by", "status", "message", "endpoint",
            "config_id", "config", "execution", "totals", "counts", "cache", "started_at",
            "finished_at")
"""What `runs --show` prints of a run, and `runs --json` of each: one shape."""


def run_json(store, run: dict) -> dict:
    """A run as `runs --show` and `runs --json` give it: its status as the views show it (a
    'running' run whose process died is 'interrupted'), `counts` (runner.totals.
    status_counts: every status, pending and not run, adding up to the total) and `cache`
    (where its replies came from: runner.provenance.cache_summary)."""
    from runner.leases import effective_status
    from runner.provenance import cache_summary
    from scoring.compared import source_name

    status = effective_status(run)
    counts = status_counts(run["totals"], store.run_work_counts(run["id"]), status=status)
    out = {**run, "status": status, "counts": counts, "cache": cache_summary(store, run,
                                                                      source_name(store))}
    return {key: out.get(key) for key in RUN_KEYS}


def run_runs(args) -> int:
    from store import StoreError

    store = open_store(args.db)
    try:
        _resolve_named_run(store, args)
        if args.show:
            shown = run_json(store, store.get_run(args.show))
            print(json.dumps(shown, ensure_ascii=False, sort_keys=True) if args.json
                  else show_text(shown, table_names(store.list_runs())), end="\n" if args.json
                  else "")
            return 0
        if args.rename or args.note:
            run_id, text = args.rename or args.note
            run = store.label_run(run_id, **({"name": text} if args.rename else {"note": text}))
            print(f"run {run['id']}: name {run['name']!r}, note {run['note']!r}")
            return 0
        if args.delete:
            return _delete(store, args.delete, args.yes)
        if args.pause or args.cancel:
            run = request_control(store, args.pause or args.cancel,
                                  "pause" if args.pause else "cancel")
            print(f"run {run['id']}: {run['status']}"
                  + (f" ({run['control']} requested)" if run["control"] else ""))
            return 0
    except StoreError as error:
        return fail(str(error))
    runs = [run_json(store, run) for run in store.list_runs(args.limit)]
    if args.json:
        print(json.dumps(runs, ensure_ascii=False))
        return 0
    print(listing(runs, table_names(store.list_runs())), end="")
    return 0


LISTING_HEADERS = ("run", "label", "status", "endpoint", "setting", "clues", "images", "draws",
                   "done", "cost")


def listing_row(run: dict, names: dict | None = None) -> list[str]:
    """One run as the listing prints it, a cell per `LISTING_HEADERS` (its id, to type, and
    its table label, `scoring.compared.run_label`, as the tables and README name runs: a
    run without a name showed as its id and '-'; draws: samples, repeats and the box convention it states; another run's clues by
    that run's name, else its table label (`names`: `scoring.compared.table_names`; it
    said 'run:20261207-064552-1835' of a run without a name); the setting titled as the
    tables title it, 'No-CoT', `scoring.compared.SETTING_TITLES`)."""
    from scoring.compared import SETTING_TITLES

    t, c = run["totals"], run["config"]
    draws = " · ".join(p for p in (draws_text(c) or "1 sample", boxes_text(c)) if p)
    return [run["id"], run_label(run, with_status=False, names=names or {}), run["status"],
            run["endpoint"],
            SETTING_TITLES.get(c.get("setting"), str(c.get("setting"))), clues_text(c, names or {}), str(IMAGE_MODE_TITLES.get(c.get("image_mode"), c.get("image_mode"))), draws,
            f"{t.get('done', 0)}/{t.get('total', '?')}", money(t.get("cost"))]


def listing(runs: list[dict], names: dict | None = None) -> str:
    """The runs under a header line, each column as wide as its widest cell and two spaces
    apart, so that a person reads it down its columns (tab-separated, it had no header and
    its columns drifted with the names' lengths); '' when there is no run. Scripts read
    `runs --json`."""
    if not runs:
        return ""
    names = names if names is not None else table_names(runs)
    listed = [listing_row(r, names) for r in runs]
    # a label two listed runs share adds the id, as the tables do (`scoring.compared.labels`):
    # two "vlm-a · CoT" lines read alike (a review, round 19)
    shared = {label for label in (row[1] for row in listed)
              if sum(other[1] == label for other in listed) > 1}
    # the short id, as the tables add it (the whole id stood beside the id column itself)
    tails = [row[0][-4:] for row in listed]
    tag = {row[0]: row[0][-4:] if tails.count(row[0][-4:]) == 1 else row[0] for row in listed}
    listed = [[row[0], f"{row[1]} [{tag[row[0]]}]" if row[1] in shared else row[1], *row[2:]]
              for row in listed]
    rows = [list(LISTING_HEADERS)] + listed
    widths = [max(len(row[k]) for row in rows) for k in range(len(LISTING_HEADERS))]
    return "".join("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip()
                   + "\n" for row in rows)
