"""`leaderboard` and `table`: result tables across runs, for papers.

    python app.py leaderboard --db DB [--runs A,B] [--dataset D] [--judge J] [--human FILE]
                              [--samples-rule R] [--format md|latex|csv|json]
    python app.py table --db DB --kind main|subtask|drop|injection|ablation|verbench
                        [--runs A,B] [--dataset D] [--judge J] [--protocol P] [--format md|latex|csv|json]
                        [--by domain|subtask|reasoning_type] [--samples-rule R]

--samples-rule decides an item of several samples as the Results page's samples rule does
(majority, the default; mmr_life, mmr_life_sc, first); CSV and JSON record it.

Tables across runs compare them on the items they share (the n is printed; runs sharing no
item are refused) and do not depend on the order of --runs. Without --runs, a table per
dataset and per group of its runs that share items (`scoring.by_dataset`); --dataset picks
one (CSV and JSON need it when scored runs are on several datasets, and hold the first group,
naming the others on stderr). Of several runs for one cell of the injection or ablation
table, one is shown by the rule the notes state (`scoring.cell_runs`: finished, then most
scored items, then fewest cached replies, then newest) and the notes name the others.

Exit status: 0 done, 2 bad arguments or nothing to report.
"""
from __future__ import annotations

import sys

from cli.endpoint_commands import fail, open_store
from runner.run_refs import resolve_runs
from runner.config import parse_id_list

TABLE_KINDS = ("main", "subtask", "drop", "injection", "ablation", "verbench")
FORMATS = ("md", "latex", "csv", "json")


def add_parsers(sub) -> None:
    from scoring import PROTOCOLS
    from scoring.tables import GROUP_CHOICES

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
    p.add_argument("--protocol", default="general", choices=PROTOCOLS)
    p.add_argument("--human", metavar="FILE")
    p.add_argument("--by", choices=GROUP_CHOICES, default="domain",
                   help="columns of the main table: domain (default), subtask or "
                        "reasoning_type")
    p.add_argument("--format", choices=FORMATS, default="md")
    p.set_defaults(handler=run_table)


def _run_options(p) -> None:
    from scoring import SAMPLE_RULES

    p.add_argument("--samples-rule", choices=SAMPLE_RULES, default="majority",
                   help="how samples of one item are combined, as on the Results page "
                        "(not the VER-Bench table's sub-scores)")
    p.add_argument("--runs", help="comma-separated run ids or names (default: the scored "
                                  "runs of each dataset, a table per dataset and per group "
                                  "of its runs that share items)")
    p.add_argument("--dataset", metavar="NAME",
                   help="only this dataset's items (and, without --runs, its scored runs)")
    p.add_argument("--judge", help="read every run with this judge's scores (default: the "
                                   "judge all the table's runs were scored with; of several, "
                                   "the one that scored the most of their shared items; "
                                   "among equals one not serving a run's own model, then "
                                   "a panel, an LLM judge, offline, by name;"
                                   " with none in common each row its own, no best marked; "
                                   "the Judge column says which)")


def _runs(text: str | None) -> list[str]:
    return parse_id_list(text)


def _print_tables(store, args, make, protocol: str = "general") -> int:
    """Each table of the selection (`scoring.by_dataset.tables_text`: the runs named, else a
    table per dataset and group of runs that share items; make(selection) builds one) on
    stdout; what was left out, and why a table could not be made, on stderr: a group left
    out with the whole command that prints it (this command's options, its runs named)."""
    from scoring.by_dataset import tables_text
    from scoring.commands import table_command
    from scoring.results import ResultsError
    from store import StoreError

    from scoring.compared import labels
    from scoring.table_marks import cache_lines

    shown: list[str] = []

    def made(selection):       # the runs of each table, for their cache lines
        shown.extend(selection.run_ids)
        return make(selection)

    try:
        text, remarks = tables_text(
            store, resolve_runs(store, _runs(args.runs)), args.dataset, args.format, made,
            protocol, command=lambda ids, dataset: table_command(
                getattr(args, "kind", "leaderboard"), ids, dataset=dataset,
                protocol=getattr(args, "protocol", "general"), judge=args.judge,
                by=getattr(args, "by", None), human=args.human, fmt=args.format,
                samples_rule=args.samples_rule))
    except (ResultsError, StoreError) as error:
        return fail(str(error))
    print(text)
    # where each run's replies came from, as `report` says it: under a Markdown table, and
    # beside (stderr) a CSV, JSON or LaTeX one, whose stdout is the table alone
    # (a table whose notes carry a run's line already, a Markdown one, is not told it twice)
    cached = [line for line in cache_lines(store, labels(store, list(dict.fromkeys(shown))))
              if line not in text]
    for line in cached:
        print(line, file=sys.stdout if args.format == "md" else sys.stderr)
    for remark in remarks:
        print(remark, file=sys.stderr)
    return 0


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
        store, s.run_ids, human, within=s.within, judge=args.judge,
        samples_rule=args.samples_rule))


def run_table(args) -> int:
    from scoring import tables
    from scoring.by_dataset import protocol_of

    store = open_store(args.db)
    ok, human = _human(store, args)
    if not ok:
        return human
    rule = args.samples_rule
    makers = {"main": lambda s: tables.main_table(store, s.run_ids, args.by, args.protocol,
                                                  args.judge, rule, human=human,
                                                  within=s.within),
              "subtask": lambda s: tables.main_table(store, s.run_ids, "by_subtask",
                                                     args.protocol, args.judge, rule,
                                                     human=human, within=s.within),
              "drop": lambda s: tables.drop_table(store, s.run_ids, s.within, args.judge,
                                                  rule),
              "injection": lambda s: tables.injection_table(
                  store, s.run_ids, rule, judge=args.judge, items=s.within,
                  items_are=f"of dataset {s.dataset}", protocol=args.protocol),
              "ablation": lambda s: tables.ablation_table(store, s.run_ids, s.within,
                                                          args.judge, args.protocol, rule),
              "verbench": lambda s: tables.verbench_results(store, s.run_ids, s.within,
                                                            args.judge)}
    return _print_tables(store, args, makers[args.kind], protocol_of(args.kind, args.protocol))
