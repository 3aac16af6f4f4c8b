"""Why drop-table cells are "–": the runs with no verdicts of a protocol the table shows
(by their row's judge), and the command that scores them, in one sentence per kind of gap.

A run scored under the general protocol only had its Rigorous, Drop and Grounded-rigorous
cells "–" with no word (read as n/a, or as a failure); said run by run, ten such runs were
ten copies of one sentence (a review). Runs missing the same protocols, scored under the
same ones and by the same judge now share one sentence naming them all."""
from __future__ import annotations

from judges.paper_tables import DROP_PROTOCOLS

from scoring.commands import score_command
from scoring.results import run_judges


def judge_to_name(store, run_id: str, found: dict, judge: str | None) -> str | None:
    """The judge a "not scored" note names for the run: the one named, else its row's judge
    when another judge scored a protocol the row lacks ('no rigorous scores by judge
    offline'); None when the run has no such scores at all."""
    if judge:       # an LLM judge named by its endpoint ("judge"), as `table --judge` takes
        # it: the note said "by judge judge" and its command left --judge out
        return judge if ":" in judge or judge == "offline" else f"llm:{judge}"
    lacking = [p for p in DROP_PROTOCOLS if (run_id, p) not in found]
    if any(run_judges(store, run_id, p) for p in lacking):
        return found[(run_id, "general")]["judge"]
    return None


def not_scored_note(names: dict, found: dict, grounded: bool, judges,
                    no_boxes=frozenset(), bars: bool = False) -> str:
    """'Not scored: A and B have no rigorous or grounded scores (scored under general only):
    their Rigorous, Drop and Grounded-rigorous cells are – (to score them: <command for A>,
    then the same for each of the others).' names: {run_id: its label}; found: {(run_id,
    protocol): result}; grounded: the table shows that column; judges: the judge to name,
    one for all or {run_id: judge}; no_boxes: the runs that asked for no boxes, whose
    Grounded-rigorous is n/a, scored or not (`scoring.no_boxes`: another note says why);
    bars: said of the General-vs-rigorous chart, which has no Drop and whose bars read "not
    scored" (the Results page said "cells are –" of a table it never shows)."""
    shown = [p for p in DROP_PROTOCOLS if p != "general" and (p == "rigorous" or grounded)]
    gaps: dict[tuple, list[str]] = {}
    for rid in names:
        judge = judges.get(rid) if isinstance(judges, dict) else judges
        lacking = tuple(p for p in shown if (rid, p) not in found
                        and not (p == "grounded" and rid in no_boxes))
        if lacking:
            scored = tuple(p for p in DROP_PROTOCOLS if (rid, p) in found)
            gaps.setdefault((lacking, scored, judge), []).append(rid)
    said = [_sentence([names[r] for r in rids], rids[0], len(rids) > 1, *gap, bars=bars)
            for gap, rids in gaps.items()]
    return "Not scored: " + "; ".join(said) + "." if said else ""


def _sentence(labels: list[str], first: str, several: bool, lacking: tuple, scored: tuple,
              judge: str | None, bars: bool = False) -> str:
    cells = [DROP_PROTOCOLS[p] for p in lacking]
    cells[1:1] = ["Drop"] if "rigorous" in lacking and not bars else []
    many = several or len(cells) > 1
    shown = (' bars read' if many else ' bar reads') + ' "not scored"' if bars else \
        (" cells are –" if many else " cell is –")
    protocol = "all" if len(lacking) > 1 else lacking[0]
    who = " and ".join(filter(None, (", ".join(labels[:-1]), labels[-1])))
    return (f"{who} {'have' if several else 'has'} no {' or '.join(lacking)} scores"
            f"{f' by judge {judge}' if judge else ''} (scored under {' and '.join(scored)} "
            f"only): {'their' if several else 'its'} {', '.join(cells[:-1])}"
            f"{' and ' * (len(cells) > 1)}{cells[-1]}{shown} (to score them: "
            f"{score_command(first, protocol, judge)}"
            f"{', then the same for each of the others' if several else ''})")


def row_protocols(table, run_of: dict, found: dict, no_boxes: dict,
                  no_clues: dict | None = None) -> None:
    """Each row's CSV/JSON `protocol`: the protocols whose numbers it holds ('general,
    rigorous'), not the table's ('general, rigorous, grounded' on a row with no rigorous
    score). run_of: {row label: run_id}; found: {(run_id, protocol): result}; no_boxes:
    {run_id: why its grounded-rigorous is n/a, or ''}, no_clues: the same of rigorous (a
    No-CoT run): no number of it, scored or not, nor its Unscored count: "–" as its accuracy
    is (a No-CoT row's Unscored rigorous read 0 beside its "–")."""
    moot = {"grounded": no_boxes, "rigorous": no_clues or {}}
    for row in table.rows:
        rid = run_of.get(row["model"])
        if rid is not None:
            row["_protocol"] = ", ".join(
                p for p in DROP_PROTOCOLS if (rid, p) in found
                and any(c.key == p for c in table.columns)
                and not moot.get(p, {}).get(rid))
            for p, why in moot.items():
                if why.get(rid) and f"unscored_{p}" in row:
                    # "–" beside its "–": a count of items unscored under an accuracy that
                    # is n/a read as items a judge failed on
                    row[f"unscored_{p}"] = None
