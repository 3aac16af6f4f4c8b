"""`report` and `compare`: reading one run's verdicts, or two runs' side by side.

    python app.py report --db DB --run ID [--protocol P] [--judge J] [--samples-rule R]
                         [--extraction cluelab|mmr-life] [--human FILE] [--json]
                         [--by domain|subtask|reasoning_type ...]
    python app.py compare --db DB RUN_A RUN_B [--protocol P] [--samples-rule R] [--json]

`compare` gives the exact McNemar test one outcome per item and run (`scoring.paired`: its
repeats and samples decided by the samples rule, which it prints).

Exit status: 0 done, 2 bad arguments or nothing to report.
"""
from __future__ import annotations

import json
import re
import sys

from cli.endpoint_commands import fail, open_store
from domain.vocabulary import counted
from runner.run_refs import resolve_run, resolve_runs


def add_parsers(sub) -> None:
    from scoring import SAMPLE_RULES
    from scoring.extraction import CLUELAB, EXTRACTIONS
    from scoring.tables import GROUP_CHOICES

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


def _reading_options(p, sample_rules) -> None:
    from scoring import PROTOCOLS

    p.add_argument("--protocol", default="general", choices=PROTOCOLS)
    p.add_argument("--judge", help="which judge's scores (default: the judge every run "
                                   "compared was scored with; of several, the one that "
                                   "scored the most of their shared items; among equals "
                                   "one not serving a compared run's own model, then a "
                                   "panel, an LLM judge, offline, by name)")
    p.add_argument("--samples-rule", choices=sample_rules, default="majority",
                   help="how samples of one item are combined")


def _percent_of(value) -> str:
    """A rate with its % sign, or '–' alone when there is none (n = 0): never '–%'."""
    return "–" if value is None else f"{value * 100:.2f}%"


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


def per_response_line(responses: int, each: dict) -> str:
    """'per response (all 42, before samples are aggregated): unscored 3; of the 39 scored:
    unparsed 20 (51.28%), error 1 (2.56%)': each rate is over the count it names ('–' when
    nothing was scored)."""
    return (f"per response (all {responses}, before samples are aggregated): unscored "
            f"{each['unscored']}; of the {each['n']} scored: unparsed {each['unparsed']} "
            f"({_percent_of(each['unparsed_rate'])}), error {each['error']} "
            f"({_percent_of(each['error_rate'])})")


def verbench_line(run_id: str, result: dict) -> str:
    """`report --protocol verbench` in one line: the four scores and the average, each '–'
    when no item was scored (never 0.0: nothing scored is no score)."""
    from scoring.panel_members import result_judge

    s = result["summary"]

    def shown(value) -> str:
        return "–" if value is None or not s["n"] else f"{value:.1f}"

    scores = ", ".join(f"{k} {shown(s[k])}" for k in ("AC", "CC", "RQ", "ER"))
    return (f"run {run_id}, verbench, judge {result_judge(result) or '–'}: {scores}, average "
            f"{shown(s['average'])} (n {s['n']}, unscored {s['unscored']}; a response with no "
            f"answer to judge, failed or refused, scores 0 on all four)")


_SENTENCE_END = re.compile(r"(?<=[.)])\s+(?=[A-Z§†‡*\[(])")


def breakdown_tables(tables: list) -> str:
    """The tables of `report --by a --by b` in Markdown, the notes they share said once,
    after the last (each table printed the same counting rules again: three breakdowns,
    three copies); a note one table alone has stays under it."""
    sentences = [_SENTENCE_END.split(t.notes) if t.notes else [] for t in tables]
    shared = [s for s in sentences[0] if all(s in other for other in sentences[1:])] \
        if len(tables) > 1 else []
    out = []
    for table, own in zip(tables, sentences):
        table.notes = " ".join(s for s in own if s not in shared)
        out.append(table.to_markdown())
    if shared:
        out.append(f"Notes (every table above): {' '.join(shared)}\n")
    return "\n".join(out)


def breakdowns(summary: dict) -> list[str]:
    """The groups a run's items have (an MMR-Life run: subtask and reasoning type, no
    domain); domain when they have none."""
    from scoring.tables import GROUP_CHOICES

    found = [g for g in GROUP_CHOICES if set(summary.get(f"by_{g}", {})) - {"(none)"}]
    return found or ["domain"]


def run_report(args) -> int:
    from scoring.human import human_summary
    from scoring.judge_agreement import agreement, agreement_figures, agreement_text, \
        kappa_text
    from scoring.repeat_words import repeats_text
    from scoring.not_scored import not_scored_text
    from scoring.results import ResultsError, run_summary, summary_json
    from scoring.compared import check_judge
    from scoring.panel_members import result_judge
    from scoring.tables import main_table
    from store import StoreError

    store = open_store(args.db)
    try:
        args.run = resolve_run(store, args.run)
        args.judge = check_judge(store, [args.run], args.judge)    # 'fjudge': llm:fjudge
        result = run_summary(store, args.run, args.protocol, args.judge, args.samples_rule,
                             extraction=args.extraction)
        # on the items the Results page's table compares for this run (its records)
        pairs = agreement(store, args.run, args.protocol,
                          {r["item_id"] for r in result.get("records", [])} or None)
        if args.json:
            from runner.provenance import cache_summary
            from scoring.compared import source_name

            out = {**summary_json(result),
                   "cache": cache_summary(store, store.get_run(args.run), source_name(store)),
                   "judge_agreement": [agreement_figures(p, args.protocol) for p in pairs]}
            print(json.dumps(out, ensure_ascii=False, sort_keys=True))
            return 0
        stale = not_scored_text(args.run, result)
        if args.protocol == "verbench":
            print(verbench_line(args.run, result) + (f"\n{stale}" if stale else ""))
            return 0
        human = human_summary(store, args.human) if args.human else None
        print(f"run {args.run}: {args.protocol} protocol, judge {result_judge(result)}, samples "
              f"{args.samples_rule}, extraction {args.extraction}")
        print(_extraction_line(store, args, result) + (f"\n{stale}" if stale else "") + "\n")
        # the judge named, else none: the tables choose it as the Results page does
        # (`scoring.results.judge_choice`) and their notes say which and why; named with
        # the one chosen, `report` printed no word of why llm:jc read the run, not llm:ja
        made = [main_table(store, [args.run], group, args.protocol, args.judge,
                           args.samples_rule, human, extraction=args.extraction)
                for group in args.by or breakdowns(result["summary"])]
        print(breakdown_tables(made))
        if result["repeats"]:
            print(repeats_text(result["repeats"]))
        from runner.provenance import cache_line
        from scoring.compared import labels, namer

        # the source run by its table label, as the Results page says it (it said its id)
        cached = cache_line(store, store.get_run(args.run),
                            namer(store, labels(store, [args.run])))
        if cached:
            print(cached)
        print(per_response_line(result["responses"], result["per_response"]))
        for pair in pairs:
            shown = agreement_figures(pair, args.protocol)   # --json's and the page's numbers
            if shown["not_applicable"]:   # "– of 0 … both scored" said nothing: why, in words
                print(f"agreement {agreement_text(pair, args.protocol)}")
                continue
            print(f"agreement {pair['a']} vs {pair['b']}: {shown['agreement_pct']:.2f}% "
                  f"of {shown['n']} {shown['basis']}, {kappa_text(pair)}")
        return 0
    except (ResultsError, StoreError, OSError, ValueError) as error:
        return fail(str(error))


def run_compare(args) -> int:
    from scoring.compared import check_judge
    from scoring.paired import compare_runs
    from scoring.results import ResultsError
    from store import StoreError

    store = open_store(args.db)
    try:
        args.run_a, args.run_b = resolve_runs(store, [args.run_a, args.run_b])
        args.judge = check_judge(store, [args.run_a, args.run_b], args.judge)
        result = compare_runs(store, args.run_a, args.run_b, args.protocol, args.judge,
                              args.samples_rule)
    except (ResultsError, StoreError) as error:
        return fail(str(error))
    if args.json:
        print(json.dumps(result, ensure_ascii=False, sort_keys=True))
        return 0
    # each run by its label (`scoring.compared.labels`, which adds the id to a label two
    # runs share), its id once beside it in the headline; not a bare id in the counts
    a, b = (f'"{result[f"name_{s}"]}"' + ("" if result[f"name_{s}"].endswith(
        f"[{result[f'run_{s}']}]") else f' [{result[f"run_{s}"]}]') for s in "ab")
    print(f"A {a}: {_percent_of(result['accuracy_a'])} (judge {result['judge_a']})  B {b}: "
          f"{_percent_of(result['accuracy_b'])} (judge {result['judge_b']})  on the "
          f"{counted(result['n_items'], 'item')} both scored ({result['name_a']}: "
          f"{result['items_a']}, "
          f"{result['name_b']}: {result['items_b']} scored); accuracy: "
          f"{result['accuracy_basis']}")
    if max(result["max_responses_per_item_a"], result["max_responses_per_item_b"]) > 1:
        print(f"McNemar's outcomes (one per item, all its repeats and samples decided by "
              f"{result['samples_rule']}): A {_percent_of(result['outcome_accuracy_a'])}, B "
              f"{_percent_of(result['outcome_accuracy_b'])}")
    if result["judge_a"] != result["judge_b"]:
        print("note: no judge scored both runs, so each was read with its own: score "
              "both with one judge to compare them", file=sys.stderr)
    print(f"right in A only {result['only_a']}, in B only {result['only_b']}, both "
          f"{result['both_correct']}, neither {result['neither']}; exact McNemar p = "
          f"{result['p_value']:.4g}")
    print(result["rule"])
    if result["note"]:
        print(result["note"])
    for side in "ab":         # as `report` says it: a run partly another's replies
        if result[f"cache_{side}"]:
            print(f"{side.upper()} {result[f'name_{side}']}: {result[f'cache_{side}']}")
    if result["independence"]:
        print(result["independence"])
    for flip in result["flips"]:
        print(f"  {FLIP_WORDS.get(flip['change'], flip['change'])}\t{flip['item']}")
    return 0


FLIP_WORDS = {"gained": "gained (wrong in A, right in B)",
              "lost": "lost (right in A, wrong in B)"}
"""An item that changed between the runs, with its direction: a bare "gained" / "lost" did
not say from which run to which."""
