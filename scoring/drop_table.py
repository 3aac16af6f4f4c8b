"""The drop table (DailyClue Fig. 7 as a table): general, rigorous and grounded-rigorous
accuracy per run and the drop, each run's protocols read with one judge and on the items all
of them scored; a run whose right answers the clue judge gave no verdict on shows General
alone (`scoring.biased.right_without_verdict`). `scoring.tables` re-exports `drop_table`.
"""
from __future__ import annotations

from domain.vocabulary import counted
from judges.pairing import record_key, recorded_items, shared_items
from judges.paper_tables import DROP_NOTE, DROP_PROTOCOLS, rigorous_drop_table
from judges.tables import Table

from scoring import biased
from scoring.count_notes import preset_notes
from scoring.compared import labels, left_out_note, limit_reason, on_scored_by_all, \
    on_shared, summaries
from scoring.drop_not_scored import judge_to_name, not_scored_note, row_protocols
from scoring.no_boxes import mark_not_applicable, reason, rigorous_reason
from scoring.panel_members import judges_count, result_judge, results_notes
from scoring.results import run_judges, run_summary
from scoring.table_marks import on_page_items, with_judges, with_run_ids


def drop_table(store, run_ids: list[str], within=None, judge: str | None = None,
               samples_rule: str = "majority") -> Table:
    """General, rigorous and grounded-rigorous accuracy per run and the drop, on the items
    every run–protocol pair has (and `within`, when given); within those, each run's numbers
    on the items all its protocols scored (`on_scored_by_all`, one response's verdicts
    paired): its n, with each protocol's unscored items beside it. `judge`: read every
    protocol with it (else each run's protocols with the judge its general column is read
    with: the runs' common judge, else its own), so that a drop never subtracts two judges'
    accuracies; a protocol that judge did not score is "–", the notes say so. Items of
    several samples are decided by `samples_rule`, as in the main table."""
    found = _one_judge_per_row(store, run_ids, judge, within, samples_rule)
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

    # right answers without a rigorous verdict: the paired items hold the wrong ones in
    # full (0.00, 0.00, drop 0.00 for a run right on half): General on its own items, the
    # rest "–" (`biased.drop_unpaired_note`)
    missing = {rid: biased.right_without_verdict(found[(rid, "general")],
                                                 found[(rid, "rigorous")])
               for rid in general if (rid, "rigorous") in found}
    missing = {rid: counts for rid, counts in missing.items() if counts[0]}

    def overall(protocol: str) -> dict:
        if protocol == "general":
            return {names[rid]: (found[(rid, protocol)] if rid in missing else
                                 paired[rid][protocol])["summary"]["overall"]
                    for rid in general}
        return {names[rid]: paired[rid][protocol]["summary"]["overall"] if protocol in
                paired[rid] and rid not in missing else None for rid in general}

    grounded = any("grounded" in paired[rid] for rid in general)
    table = rigorous_drop_table(overall("general"), overall("rigorous"),
                                grounded=overall("grounded") if grounded else None,
                                unscored=unscored)
    for row in table.rows:
        row["_unpaired"] = row["model"] in {names[rid] for rid in missing}
    table.protocol = ", ".join(p for p in DROP_PROTOCOLS if any(
        c.key == p for c in table.columns))           # one column each
    table.samples_rule = samples_rule
    grounded_na = {names[rid]: found[(rid, "grounded")].get("not_applicable", "")
                   for rid in general if (rid, "grounded") in found}
    shown = not grounded_na or not all(grounded_na.values())
    # every row that asked for no boxes, grounded-scored or not (a No-CoT row said nothing)
    no_boxes = {rid: reason(store.get_run(rid)["config"]) if grounded else "" for rid in general}
    rigorous = any((rid, "rigorous") in found for rid in general)
    table.caption = (f"General vs rigorous accuracy (%), "
                     f"{_paired_caption(table, shared, shown, rigorous)}")
    gaps = ({rid: names[rid] for rid in general}, found, grounded,
            {rid: judge_to_name(store, rid, found, judge) for rid in general},
            {r for r in general if no_boxes[r]})
    table.blank = not_scored_note(*gaps, bars=True)           # under the page's chart
    unpaired = biased.drop_unpaired_note({names[rid]: (*counts, found[(rid, "rigorous")]["judge"])
                                          for rid, counts in missing.items()})
    presets = preset_notes({rid: found[(rid, "general")] for rid in general}, names)
    table.notes = " ".join(filter(None, (shared.note(), PAIRED_RULE, DROP_NOTE,
                                         not_scored_note(*gaps), unpaired, *presets)))
    table.footnotes += [unpaired] if unpaired else []
    mark_not_applicable(table, {names[rid]: no_boxes[rid] for rid in general},
                        "grounded_not_applicable")
    # a No-CoT run: rigorous and its drop n/a, as DailyClue reports them (`no_boxes`)
    no_clues = {rid: rigorous_reason(store.get_run(rid)["config"]) for rid in general}
    mark_not_applicable(table, {names[rid]: no_clues[rid] for rid in general},
                        "rigorous_not_applicable")
    row_protocols(table, {names[rid]: rid for rid in general}, found, no_boxes, no_clues)
    unread = {rid: {p: biased.unread_items(found[(rid, p)]).get("overall", 0)
                    for p in biased.PROTOCOLS if (rid, p) in found and not (
                        p == "grounded" and grounded_na.get(names[rid]) or
                        p == "rigorous" and no_clues[rid])}                 # "–": no mark
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


def _one_judge_per_row(store, run_ids: list[str], judge: str | None, within,
                       samples_rule: str = "majority") -> dict:
    """{(run_id, protocol): result} of the runs scored under the general protocol, each
    run's other protocols read with the judge of its general result (`judge` when named),
    and left out when that judge did not score them. Read protocol by protocol with each
    one's common judge, a row was 'general offline, rigorous llm:x' (a review)."""
    general = on_page_items(summaries(store, run_ids, "general", judge, samples_rule), within)
    found = {(rid, "general"): result for rid, result in general.items()}
    for rid, result in general.items():
        for protocol in DROP_PROTOCOLS:
            if protocol != "general" and result["judge"] in run_judges(store, rid, protocol):
                found[(rid, protocol)] = on_page_items(
                    {rid: run_summary(store, rid, protocol, result["judge"], samples_rule)},
                    within)[rid]
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


def _paired_caption(table: Table, shared, grounded_shown: bool = True,
                    rigorous: bool = True) -> str:
    """The n of a drop table or chart: 'on the 12 items both protocols scored (of 14
    items)', or, when its runs' n differ, 'each run on the items both protocols scored (n
    per run), of 14 items'; with what limits the shared items when a run does. A grounded
    column of runs that all asked for no boxes is no third protocol shown: 'general and
    rigorous' then, the caption saying grounded-rigorous is n/a ('all three protocols'
    claimed what the chart did not show). No run with a rigorous score (`rigorous` False):
    'on the 4 items the general protocol scored; no run has rigorous scores' ("both
    protocols scored" claimed a set of items one protocol had not scored at all)."""
    sizes = {row["n"] for row in table.rows if not row.get("_unpaired")}
    grounded = any(c.key == "grounded" for c in table.columns)
    which = "all three protocols" if grounded and grounded_shown else "both protocols"
    if not rigorous:
        which = "the general protocol"
    alone = sum(1 for row in table.rows if row.get("_unpaired"))   # General only (n its own)
    said = [_n_caption(sizes, shared, which)] if sizes else []
    said += [f"General alone, on the items it scored, for {alone} run{'s' if alone > 1 else ''}"
             " whose right answers lack a clue verdict"] if alone else []
    return "; ".join(said) + (
        "; grounded-rigorous n/a: no run asked for boxes" if grounded and not grounded_shown
        else "") + ("" if rigorous else "; no run has rigorous scores")


def _n_caption(sizes: set, shared, which: str) -> str:
    why = limit_reason(shared)          # the n is said once
    if len(sizes) > 1:
        return (f"each run on the items {which} scored (n per run), of {counted(shared.n, 'item')}"
                + (f" ({why})" if why else ""))
    n = sizes.pop() if sizes else 0
    if n == shared.n:
        return f"on the {counted(n, 'item')} {which} scored" + (f" ({why})" if why else "")
    return f"on the {counted(n, 'item')} {which} scored (of {counted(shared.n, 'item')}" + \
        (f"; {why})" if why else ")")


def _protocol_judges(judges: dict[str, str]) -> str:
    """One row's judges: 'offline' when every protocol used it, else 'general offline,
    rigorous llm:x'."""
    if len(set(judges.values())) == 1:
        return next(iter(judges.values()))
    return ", ".join(f"{protocol} {judge}" for protocol, judge in judges.items())
