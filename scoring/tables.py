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

from judges.stats import CI_RULE, COUNTING_RULES
from judges.pairing import record_key, recorded_items, shared_items
from judges.paper_tables import DROP_NOTE, DROP_PROTOCOLS, leaderboard, results_table, \
    rigorous_drop_table, verbench_table
from judges.tables import MARK_RULE, Column, Table

from scoring import biased
from scoring.compared import VERBENCH_NO_ACCURACY, labels, left_out_note, limit_reason, \
    on_scored_by_all, on_shared, summaries
from scoring.extraction import CLUELAB, describe
from scoring.human import baseline_on_items
from scoring.judge_agreement import low_agreement_notes
from scoring.judge_failures import mark_verbench
from scoring.no_boxes import mark_not_applicable, reason
from scoring.ablation import ablation_table  # noqa: F401 (API)
from scoring.matrix_tables import injection_table  # noqa: F401 (API)
from scoring.results import GROUPS, ResultsError, not_scored_text, run_judges, run_summary
from scoring.drop_not_scored import judge_to_name, not_scored_note, row_protocols
from scoring.panel_members import judges_count, judges_of, result_judge, results_notes
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
        by_label[human["label"]] = human["summary"]
    maker = leaderboard if sort else results_table
    table = maker(by_label, group=group, show_ci=show_ci,
                  unranked=[human["label"]] if human else (),
                  caption=f"Accuracy (%), {protocol} protocol, {shared.caption()}")
    table = _rates(table, by_label, human)
    table.protocol = protocol
    if extraction != CLUELAB:
        table.caption += ", answers read by MMR-Life's regex"
    table.left_out = left_out_note(store, run_ids, found, protocol, judge)
    stale = " ".join(not_scored_text(names[rid], s) for rid, s in found.items())
    table.notes += " " + " ".join(p for p in (shared.note(), table.n_rule(), stale.strip())
                                  if p)
    if human:
        table.notes += " " + human_note(human, shared.n)
    table.notes += " " + describe(extraction, None)
    table.notes += "".join(f" {note}" for note in judge_notes(found) +
                           low_agreement_notes(store, found, names, protocol))
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
            f"unscored + not answered is the {total} items."
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


def drop_table(store, run_ids: list[str], within=None, judge: str | None = None) -> Table:
    """General, rigorous and grounded-rigorous accuracy per run and the drop, on the items
    every run–protocol pair has (and `within`, when given); within those, each run's numbers
    on the items all its protocols scored (`on_scored_by_all`, one response's verdicts
    paired): its n, with each protocol's unscored items beside it. `judge`: read every
    protocol with it (else each run's protocols with the judge its general column is read
    with: the runs' common judge, else its own), so that a drop never subtracts two judges'
    accuracies; a protocol that judge did not score is "–", the notes say so."""
    found = _one_judge_per_row(store, run_ids, judge, within)
    names = labels(store, [rid for rid, _ in found])
    per_run = _items_per_run(found, names)
    found, shared = on_shared(found, {key: f"{names[key[0]]} ({key[1]})" for key in found},
                              "run–protocol pairs")
    if per_run:       # said per run, not per run–protocol pair: the same items, one name
        shared = shared_items(per_run, asked={names[rid]: r.get("items_asked")
                                              for (rid, _), r in found.items()})
    general = [rid for rid in names if (rid, "general") in found]
    paired, unscored = {}, {}
    for rid in general:
        mine = {p: found[(rid, p)] for p in DROP_PROTOCOLS if (rid, p) in found}
        unscored[names[rid]] = {p: r["summary"]["overall"].unscored for p, r in mine.items()}
        paired[rid], _ = on_scored_by_all(mine, record_key)

    def overall(protocol: str) -> dict:
        return {names[rid]: paired[rid][protocol]["summary"]["overall"] if protocol in
                paired[rid] else None for rid in general}

    grounded = any("grounded" in paired[rid] for rid in general)
    table = rigorous_drop_table(overall("general"), overall("rigorous"),
                                grounded=overall("grounded") if grounded else None,
                                unscored=unscored)
    table.protocol = ", ".join(p for p in DROP_PROTOCOLS if any(
        c.key == p for c in table.columns))           # one column each
    grounded_na = {names[rid]: found[(rid, "grounded")].get("not_applicable", "")
                   for rid in general if (rid, "grounded") in found}
    shown = not grounded_na or not all(grounded_na.values())
    # every row that asked for no boxes, grounded-scored or not (a No-CoT row said nothing)
    no_boxes = {rid: reason(store.get_run(rid)["config"]) if grounded else "" for rid in general}
    table.caption = (f"General vs rigorous accuracy (%), "
                     f"{_paired_caption(table, shared, shown)}")
    gaps = ({rid: names[rid] for rid in general}, found, grounded,
            {rid: judge_to_name(store, rid, found, judge) for rid in general},
            {r for r in general if no_boxes[r]})
    table.blank = not_scored_note(*gaps, bars=True)           # under the page's chart
    table.notes = " ".join(filter(None, (shared.note(), PAIRED_RULE, DROP_NOTE,
                                         not_scored_note(*gaps))))
    mark_not_applicable(table, {names[rid]: no_boxes[rid] for rid in general},
                        "grounded_not_applicable")
    row_protocols(table, {names[rid]: rid for rid in general}, found, no_boxes)
    unread = {rid: {p: biased.unread_items(found[(rid, p)]).get("overall", 0)
                    for p in biased.PROTOCOLS if (rid, p) in found and not (
                        p == "grounded" and grounded_na.get(names[rid]))}   # "–": no mark
              for rid in general}
    biased.mark_table(table, {names[rid]: max(u.values(), default=0)
                              for rid, u in unread.items()},
                      {names[rid]: (["rigorous", "drop"] if u.get("rigorous") else [])
                       + (["grounded"] if u.get("grounded") else [])
                       for rid, u in unread.items()},
                      "rigorous" if not any(u.get("grounded") for u in unread.values())
                      else "both")
    table.left_out = left_out_note(store, run_ids, general, "general", judge)
    mine = [{p: found[(rid, p)] for p in DROP_PROTOCOLS if (rid, p) in found}
            for rid in general]
    with_judges(table, [_protocol_judges({p: r["judge"] for p, r in m.items()}) for m in mine],
                [_protocol_judges({p: result_judge(r) for p, r in m.items()}) for m in mine],
                [_protocol_judges({p: judges_count(r.get("panel")) for p, r in m.items()})
                 if any(r.get("panel") for r in m.values()) else "" for m in mine],
                " ".join(results_notes({rid: r}, {rid: f"{names[rid]} ({p})"})
                         for rid, m in zip(general, mine) for p, r in m.items()).strip())
    return with_run_ids(store, table, {rid: names[rid] for rid in general})


def _one_judge_per_row(store, run_ids: list[str], judge: str | None, within) -> dict:
    """{(run_id, protocol): result} of the runs scored under the general protocol, each
    run's other protocols read with the judge of its general result (`judge` when named),
    and left out when that judge did not score them. Read protocol by protocol with each
    one's common judge, a row was 'general offline, rigorous llm:x' (a review)."""
    general = on_page_items(summaries(store, run_ids, "general", judge), within)
    found = {(rid, "general"): result for rid, result in general.items()}
    for rid, result in general.items():
        for protocol in DROP_PROTOCOLS:
            if protocol != "general" and result["judge"] in run_judges(store, rid, protocol):
                found[(rid, protocol)] = on_page_items(
                    {rid: run_summary(store, rid, protocol, result["judge"])}, within)[rid]
    return found


def _items_per_run(found: dict, names: dict) -> dict | None:
    """{run label: its items} when each run's protocols were scored on the same items (as
    they are unless one was scored on fewer), else None. The drop table compares run–protocol
    pairs; said pair by pair, a stopped run was named three times in one caption ("n = 1: X
    (general), X (grounded) and X (rigorous) each cover 1 of 14 items")."""
    items: dict[str, set] = {}
    for (rid, _), result in found.items():
        items.setdefault(names[rid], set()).add(frozenset(recorded_items(result["records"])))
    if any(len(sets) > 1 for sets in items.values()):
        return None
    return {name: next(iter(sets)) for name, sets in items.items()}


PAIRED_RULE = ("Each run's General, Rigorous, Drop and Grounded-rigorous are on the items all "
               "its protocols scored (n), so the drop subtracts two accuracies on one set of "
               "items; Unscored: the items of the comparison each protocol left unscored (they "
               "are outside n).")


def _paired_caption(table: Table, shared, grounded_shown: bool = True) -> str:
    """The n of a drop table or chart: 'on the 12 items both protocols scored (of 14
    items)', or, when its runs' n differ, 'each run on the items both protocols scored (n
    per run), of 14 items'; with what limits the shared items when a run does. A grounded
    column of runs that all asked for no boxes is no third protocol shown: 'general and
    rigorous' then, the caption saying grounded-rigorous is n/a ('all three protocols'
    claimed what the chart did not show)."""
    sizes = {row["n"] for row in table.rows}
    grounded = any(c.key == "grounded" for c in table.columns)
    which = "all three protocols" if grounded and grounded_shown else "both protocols"
    return _n_caption(sizes, shared, which) + (
        "; grounded-rigorous n/a: no run asked for boxes" if grounded and not grounded_shown
        else "")


def _n_caption(sizes: set, shared, which: str) -> str:
    why = limit_reason(shared)          # the n is said once
    if len(sizes) > 1:
        return (f"each run on the items {which} scored (n per run), of {shared.n} items"
                + (f" ({why})" if why else ""))
    n = sizes.pop() if sizes else 0
    if n == shared.n:
        return f"on the {n} items {which} scored" + (f" ({why})" if why else "")
    return f"on the {n} items {which} scored (of {shared.n} items" + \
        (f"; {why})" if why else ")")


def _protocol_judges(judges: dict[str, str]) -> str:
    """One row's judges: 'offline' when every protocol used it, else 'general offline,
    rigorous llm:x'."""
    if len(set(judges.values())) == 1:
        return next(iter(judges.values()))
    return ", ".join(f"{protocol} {judge}" for protocol, judge in judges.items())


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


NOT_A_RANKING = ("Rows are in order of Overall, but their n differ (each run's accuracy is "
                 "over the items it scored): that is an order of accuracies on different "
                 "items, not a ranking. Two runs rank only on the items both scored (score "
                 "the items left unscored, or compare the two runs on those).")
NOT_A_RANKING_CAPTION = "; ordered by accuracy on different items (n differ), not a ranking"


def leaderboard_table(store, run_ids: list[str] | None = None, human=None,
                      within=None, judge: str | None = None) -> Table:
    """The main table sorted best first, without intervals (its notes name none); in name
    order when its rows cannot be ranked (read by different judges: `with_judges`). When
    the rows' Overall rests on different n (`Table.unequal_n`), the order is still by
    accuracy, and the caption and notes say it is no ranking: 23.08 (n 13) stood above
    21.43 (n 14) under a note that no best was marked for that very reason."""
    run_ids = run_ids if run_ids is not None else store.scored_runs()
    table = main_table(store, run_ids, judge=judge, human=human, show_ci=False, sort=True,
                       within=within)
    table.caption = table.caption.replace("Accuracy (%), general protocol",
                                          "Leaderboard: general accuracy (%)")
    if not table.ranked:
        table.rows.sort(key=lambda row: str(row.get("model")))
        table.notes += " Rows are in name order, not ranked."
    elif any(col.key == "overall" for col in table.unequal_n()):
        table.caption += NOT_A_RANKING_CAPTION
        table.notes += " " + NOT_A_RANKING
    return table


def render(table: Table, fmt: str) -> str:
    renderers = {"md": table.to_markdown, "markdown": table.to_markdown,
                 "latex": table.to_latex, "csv": table.to_csv, "json": table.to_json}
    if fmt not in renderers:
        raise ResultsError(f"format must be md, latex, csv or json, not {fmt!r}")
    return renderers[fmt]()
