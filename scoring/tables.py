"""Result tables across runs, as the papers print them (renderings in `judges.tables`).

- main: one row per run, overall and per domain (or subtask), with unparsed and error rates
  shown beside the accuracy (DailyClue Table 2);
- drop: general vs rigorous accuracy and the drop (DailyClue Fig. 7), grounded beside it,
  each run's protocols on the items all of them scored (n) with each one's unscored count;
- clue injection: rows solver model, columns clue source, deltas against No Clue (Table 3);
- ablation: No-CoT / CoT / clue-guided per model (Fig. 6), Structured when a run has it
  (these two, whose cells are runs, in `scoring.matrix_tables` and `scoring.ablation`;
  imported here);
- VER-Bench: AC, CC, RQ, ER and the average (VER-Bench Table 1);
- leaderboard: every scored run, best overall first (when the rows' n differ, the caption
  and notes say the order is by accuracy on different items, not a ranking).
A human baseline (`scoring.human`) is an extra, unranked row. The main table follows the
chosen reading of each run: judge, samples rule and answer extraction (`scoring.results`).
Runs are labelled by their name, else by model and setting; a clash of labels adds the run
id, a run that did not finish says so ("(cancelled)") and the notes name it. A row that is a
run carries its `run_id` and `run_name` too (the CSV and JSON columns).

Every table compares its runs on the items they share (`scoring.compared`): the main table,
leaderboard, drop and VER-Bench tables on the items all their runs share, the injection and
ablation tables too, every run a cell shows or not (`scoring.matrix_tables`: one rule on the
page, in its downloads and with `table`). The n is in
the caption, the table and its notes, and when a run with fewer items (a cancelled one, say)
limits it, they name that run (`judges.pairing.Shared.limit`); runs that share no item are
refused; runs a table leaves out are named with the reason; the output does not depend on
the order of the runs.
"""
from __future__ import annotations

from domain.vocabulary import counted
from judges.stats import CI_RULE, COUNTING_RULES
from judges.paper_tables import leaderboard, results_table, verbench_table
from judges.tables import MARK_RULE, Column, Table

from scoring import biased
from scoring.compared import VERBENCH_NO_ACCURACY, labels, left_out_note, on_shared, summaries
from scoring.extraction import CLUELAB, describe
from scoring.human import baseline_on_items
from scoring.judge_agreement import low_agreement_notes
from scoring.self_judge import self_judge_notes
from scoring.judge_failures import mark_verbench
from scoring.no_boxes import mark_not_applicable
from scoring.ablation import ablation_table  # noqa: F401 (API)
from scoring.matrix_tables import injection_table  # noqa: F401 (API)
from scoring.drop_table import drop_table  # noqa: F401 (API)
from scoring.count_notes import count_notes
from scoring.not_scored import not_scored_text
from scoring.results import GROUPS, ResultsError
from scoring.panel_members import judges_of, results_notes
from scoring.verbench_notes import VERBENCH_RULE
from scoring.table_marks import JUDGES_DIFFER, on_page_items, with_judges, \
    with_run_ids  # noqa: F401 (JUDGES_DIFFER: part of the API)

GROUP_CHOICES = GROUPS          # what a table can break down by: the groups every record has


def _rates(table: Table, summaries_by_label: dict[str, dict], human=None) -> Table:
    """The unparsed and error rates and the unscored count beside each row's accuracy; with
    a human baseline (`scoring.human.baseline_on_items`), "Not answered" too: the compared
    items its participants did not answer (0 for a run, which has every compared item), so
    that every row's n + unscored + not answered is the table's items."""
    table.columns += [Column("unparsed_rate", "Unparsed %", rank=False),
                      Column("error_rate", "Error %", rank=False),
                      Column("unscored", "Unscored", digits=0, rank=False)]
    if human:
        table.columns.append(Column("not_answered", "Not answered", digits=0, rank=False))
    for row in table.rows:
        overall = summaries_by_label[row["model"]]["overall"]
        # people's answers are never unparsed nor an error: "–" (not applicable), not 0.00
        applies = overall.n and not (human and row["model"] == human["label"])
        row["unparsed_rate"] = overall.unparsed_rate * 100 if applies else None
        row["error_rate"] = overall.error_rate * 100 if applies else None
        row["unscored"] = overall.unscored
        if human:
            row["not_answered"] = human["not_answered"] if row["model"] == human["label"] \
                else 0
    table.notes = COUNTING_RULES + (" " + CI_RULE if table.show_ci else "") + " " + MARK_RULE
    return table


def compared_results(store, run_ids: list[str], protocol: str = "general",
                     judge: str | None = None, samples_rule: str = "majority",
                     extraction: str = CLUELAB, within=None):
    """(results on the shared items {run_id: run_summary}, {run_id: label}, Shared) of the
    runs scored under `protocol`; ResultsError when none is, or they share no item.
    `within`: only these items count (one dataset's, say). The VER-Bench protocol has no
    accuracy to compare (its sub-scores are `verbench_results`'): refused naming that table
    (a KeyError before)."""
    if protocol == "verbench":
        raise ResultsError(VERBENCH_NO_ACCURACY)
    found = summaries(store, run_ids, protocol, judge, samples_rule, extraction)
    if not found:
        by = f" by judge {judge}" if judge else ""
        raise ResultsError(f"none of the runs has {protocol} scores{by}: score them first")
    names = labels(store, list(found))
    found, shared = on_shared(on_page_items(found, within), names)
    return found, names, shared


def group_key(by: str) -> str:
    """"domain" -> "by_domain" (ResultsError for a group items do not have)."""
    name = by.removeprefix("by_")
    if name not in GROUP_CHOICES:
        raise ResultsError(f"break down by {', '.join(GROUP_CHOICES)}, not {by!r}")
    return f"by_{name}"


def main_table(store, run_ids: list[str], group: str = "by_domain", protocol: str = "general",
               judge: str | None = None, samples_rule: str = "majority", human=None,
               show_ci: bool = True, sort: bool = False, extraction: str = CLUELAB,
               compared=None, within=None) -> Table:
    """One row per run, Overall and one column per value of `group` (domain, subtask or
    reasoning type), on the items the runs share (and `within`, when given). `compared`: a
    `compared_results` answer already computed for these runs and reading."""
    group = group_key(group)
    found, names, shared = compared or compared_results(store, run_ids, protocol, judge,
                                                        samples_rule, extraction, within)
    by_label = {names[rid]: s["summary"] for rid, s in found.items()}
    if human:
        human = baseline_on_items(store, human, shared.items)
        if human["label"] in by_label:  # one row each: a baseline 'a-cot' replaced run a-cot
            human = {**human, "label": f"{human['label']} (human baseline)"}
        by_label[human["label"]] = human["summary"]
    maker = leaderboard if sort else results_table
    table = maker(by_label, group=group, show_ci=show_ci,
                  unranked=[human["label"]] if human else (),
                  caption=f"Accuracy (%), {protocol} protocol, " + shared.caption(
                      {names[rid]: s["summary"]["overall"].n for rid, s in found.items()}))
    table = _rates(table, by_label, human)
    table.protocol, table.samples_rule = protocol, samples_rule
    if extraction != CLUELAB:
        table.caption += ", answers read by MMR-Life's regex"
    table.left_out = left_out_note(store, run_ids, found, protocol, judge)
    stale = " ".join(not_scored_text(names[rid], s) for rid, s in found.items())
    table.notes += " " + " ".join(p for p in (shared.note(), table.n_rule(), stale.strip(),
                                              *count_notes(found, names)) if p)
    if human:
        table.notes += " " + human_note(human, shared.n)
    table.notes += " " + describe(extraction, None)
    table.notes += "".join(f" {note}" for note in judge_notes(found) +
                           low_agreement_notes(store, found, names, protocol) +
                           self_judge_notes(store, {rid: s["judge"] for rid, s in found.items()},
                                            names))
    mark_not_applicable(table, {names[rid]: s.get("not_applicable", "")
                                for rid, s in found.items()}, "not_applicable")
    _mark_biased(table, found, names, group, protocol)
    of = {names[rid]: s for rid, s in found.items()}
    with_judges(table, *judges_of([of.get(row["model"]) for row in table.rows]),
                notes=results_notes(found, names))
    return with_run_ids(store, table, names)


def judge_notes(found: dict) -> list[str]:
    """The note saying which judge reads the runs and why, when none was named and several
    could (`scoring.results.judge_choice`), once; [] otherwise."""
    return list(dict.fromkeys(r["judge_note"] for r in found.values() if r.get("judge_note")))


def _mark_biased(table: Table, found: dict, names: dict, group: str, protocol: str) -> None:
    """Mark each run's accuracies that an unreadable clue judge biased low (its Overall and
    the groups holding such items: `scoring.biased`), with the footnote and CSV column."""
    counts, columns = {}, {}
    for rid, result in found.items():
        unread = biased.unread_items(result, group.removeprefix("by_"))
        counts[names[rid]] = unread.get("overall", 0)
        columns[names[rid]] = ["overall"] + [f"{group}:{g}" for g in unread if g != "overall"]
    biased.mark_table(table, counts, columns, protocol)


def human_note(human: dict, total: int) -> str:
    """What the human baseline's row counts: the compared items its participants answered
    (n), those they did not (Not answered) and, when the file has them, its answers to
    other items, left out."""
    outside = human["outside"]
    return (f"The human baseline is on the compared items its participants answered (n); "
            f"Not answered: the compared items they did not answer; every row's n + "
            f"unscored + not answered is the {counted(total, 'item')}."
            + (f" {outside} of its answers {'is' if outside == 1 else 'are'} to items "
               "outside the comparison, left out." if outside else ""))


def page_injection_table(store, run_ids: list[str], protocol: str = "general",
                         judge: str | None = None, samples_rule: str = "majority",
                         extraction: str = CLUELAB, within=None) -> Table:
    """The clue-injection table as the Results page shows it under its main table and
    downloads it: `injection_table` of the same runs, on the items all of them share (the
    main table's, so one run shows one accuracy on the page), read with the page's samples
    rule and extraction (and its judge). One computation with `table --kind injection`:
    before, the page cut it to its main table's items and `table` did not."""
    return injection_table(store, run_ids, samples_rule, extraction, judge, items=within,
                           protocol=protocol)


def verbench_results(store, run_ids: list[str], within=None, judge: str | None = None) -> Table:
    found = on_page_items(summaries(store, run_ids, "verbench", judge), within)
    if judge and not any(result["records"] for result in found.values()):
        raise ResultsError(f"none of these runs has VER-Bench scores by judge {judge}")
    if not any(result["records"] for result in found.values()):
        raise ResultsError("none of these runs is scored under the VER-Bench protocol, which "
                           "needs an LLM judge: score them under protocol verbench with a "
                           "judge endpoint")
    names = labels(store, list(found))
    found, shared = on_shared(found, names)
    by_label = {names[r]: s["summary"] for r, s in found.items()}
    table = verbench_table(by_label, caption=f"VER-Bench scores, {shared.caption()}")
    table.protocol = "verbench"
    # which judge reads them when several could, and why (the main table said it, this
    # one passed over a judge whose every reply was unreadable without a word: a review)
    table.notes = " ".join((shared.note(), VERBENCH_RULE, *judge_notes(found)))
    mark_verbench(table, by_label)
    table.left_out = left_out_note(store, run_ids, found, "verbench", judge)
    return with_judges(with_run_ids(store, table, names),
                       *judges_of([found[r] for r in found]), notes=results_notes(found, names))


NOT_A_RANKING = ("Rows are in order of n (the items each run scored), most first, then of "
                 "Overall among equal n: accuracies on different items are no ranking. Two "
                 "runs rank only on the items both scored (score the items left unscored, or "
                 "compare the two runs on those).")
NOT_A_RANKING_CAPTION = "; n differ: ordered by n, then accuracy, not a ranking"


def most_items_first(row: dict) -> tuple:
    """A leaderboard row's place when n differ: more items scored first, then accuracy (a
    run scored on 4 of 14 items led at 75.00 above every run scored on all 14)."""
    n = row.get("overall_n", row.get("n"))
    overall = row.get("overall")
    return (-(n if isinstance(n, (int, float)) else -1),
            -(overall if isinstance(overall, (int, float)) else -1))


def leaderboard_table(store, run_ids: list[str] | None = None, human=None,
                      within=None, judge: str | None = None,
                      samples_rule: str = "majority") -> Table:
    """The main table sorted best first, without intervals (its notes name none); in name
    order when its rows cannot be ranked (read by different judges: `with_judges`). When
    the rows' Overall rests on different n (`Table.unequal_n`), the rows go by n, most
    first, then accuracy (`most_items_first`), and the caption and notes say it is no
    ranking: 23.08 (n 13) stood above 21.43 (n 14) under a note that no best was marked for
    that very reason, and a run scored on 4 of 14 items led."""
    run_ids = run_ids if run_ids is not None else store.scored_runs()
    table = main_table(store, run_ids, judge=judge, human=human, show_ci=False, sort=True,
                       within=within, samples_rule=samples_rule)
    table.caption = table.caption.replace("Accuracy (%), general protocol",
                                          "Leaderboard: general accuracy (%)")
    if not table.ranked:
        table.rows.sort(key=lambda row: str(row.get("model")))
        table.notes += " Rows are in name order, not ranked."
    elif any(col.key == "overall" for col in table.unequal_n()):
        table.rows.sort(key=most_items_first)
        table.caption += NOT_A_RANKING_CAPTION
        table.notes += " " + NOT_A_RANKING
    return table


def render(table: Table, fmt: str) -> str:
    renderers = {"md": table.to_markdown, "markdown": table.to_markdown,
                 "latex": table.to_latex, "csv": table.to_csv, "json": table.to_json}
    if fmt not in renderers:
        raise ResultsError(f"format must be md, latex, csv or json, not {fmt!r}")
    return renderers[fmt]()
