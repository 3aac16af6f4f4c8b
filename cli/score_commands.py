"""`score`: from a run's responses to verdicts (idempotent), by rule, LLM judge or panel.

    python app.py score --db DB --run ID [--judge ENDPOINT ...] [--protocol P ...] [--semantic]
                        [--json]

Reading the verdicts: `report` and `compare` (cli/report_commands.py); tables across runs:
`leaderboard` and `table` (cli/table_commands.py).

Exit status: 0 done, 1 the judge endpoint cannot answer, 2 bad arguments.
"""
from __future__ import annotations

import json
import sys

from cli.endpoint_commands import fail, open_store
from cli.progress import TerminalProgress
from runner.run_refs import resolve_run


def add_parsers(sub) -> None:
    from scoring import PROTOCOLS

    PROTOCOL_CHOICES = PROTOCOLS + ("all",)

    p = sub.add_parser("score", help="score a run's responses (idempotent)")
    p.add_argument("--db", default="cluelab.db")
    p.add_argument("--run", required=True, metavar="RUN", help="run id or name")
    p.add_argument("--judge", action="append", default=[], metavar="ENDPOINT",
                   help="LLM judge endpoint; repeat (or comma-separate) for a majority panel")
    p.add_argument("--protocol", choices=PROTOCOL_CHOICES, action="append",
                   help="general (the default), rigorous, verbench, grounded, or all; repeat "
                        "it to score several")
    p.add_argument("--semantic", action="store_true",
                   help='also match clues with MiniLM (judge "offline:semantic"; needs the '
                        'extra: pip install -r requirements-semantic.txt)')
    p.add_argument("--no-cache", action="store_true",
                   help="ask the judge again instead of taking its cached replies")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=run_score)


def run_score(args) -> int:
    from scoring.judge_client import JudgeUnavailable, counts_text
    from scoring.no_boxes import ASKED_FOR_NO
    from scoring.score_run import ScoringError, score_run, values_text
    from store import StoreError

    store = open_store(args.db)
    judges = [j for given in args.judge for j in given.split(",")]
    try:
        args.run = resolve_run(store, args.run)
    except StoreError as error:
        return fail(str(error))
    progress = None if args.json else TerminalProgress(f"score {args.run}")
    try:
        result = score_run(store, args.run, protocol=args.protocol or ["general"], judges=judges,
                           on_progress=(lambda stage, done, total: progress(done, total))
                           if progress else None, semantic=args.semantic,
                           use_cache=not args.no_cache)
    except JudgeUnavailable as error:
        return fail(f"the judge cannot answer: {error}", 1)
    except (ScoringError, StoreError) as error:
        return fail(str(error))
    finally:
        if progress:
            progress.close()
    if args.json:
        print(json.dumps(result, ensure_ascii=False, sort_keys=True))
        return 0
    print(f"run {result['run']}: {result['responses']} responses, {result['written']} "
          f"verdicts written ({', '.join(result['protocols'])})")
    for key, values in result["values"].items():
        if key.split()[0] in result.get("not_applicable", {}):    # not failures: n/a
            print(f"  {key}: n/a, {ASKED_FOR_NO[key.split()[0]]} (its verdicts are kept "
                  "for Inspect; --json has their counts)")
            continue
        print(f"  {key}: {values_text(values)}")
    for judge in result["judges"]:
        print(f"  {counts_text(judge, result['responses'])}")
    sys.stdout.flush()          # the notes after the counts, not inside their last line
    for note in result["notes"]:
        print(f"note: {note}", file=sys.stderr)
    return 0
