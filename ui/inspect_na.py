"""What Inspect's list says of protocols that do not apply to a run or were not scored by
the judge it reads: the No-CoT runs a rigorous filter leaves out (their rigorous is n/a in
every table, `scoring.no_boxes`), and a protocol the chosen judge did not score."""
from __future__ import annotations

from scoring.compared import labels
from scoring.no_boxes import asks_for_boxes, asks_for_clues
from scoring.results import run_judges
from store.inspect_browse import PROTOCOLS

from ui.text import escape_md


def without_no_cot(store, filters: dict) -> tuple[dict, str]:
    """(the filters leaving out the No-CoT runs, what the count line says of them) when a
    filter reads rigorous verdicts (Rigorous, or right answer for a wrong reason): their
    rigorous is n/a (the column reads "–"), and "wrong" matched their stored verdicts."""
    if not ((filters.get("verdicts") or {}).get("rigorous") or filters.get("right_wrong_reason")):
        return filters, ""
    runs = [filters["run_id"]] if filters.get("run_id") else [r["id"] for r in store.list_runs()]
    moot = [rid for rid in runs if not asks_for_clues(store.get_run(rid)["config"])]
    if not moot:
        return filters, ""
    said = ", ".join(labels(store, moot).values())
    return {**filters, "skip_runs": sorted(moot)}, escape_md(
        f" · the rigorous filter does not apply to {said} (No-CoT: rigorous is n/a, the run "
        "asked for no clues), so it matches none of its responses")


def unscored_by_judge(store, run_id: str, judge: str) -> str:
    """' · no rigorous verdicts by panel:x: llm:judge1 has them (Judge, above)': the list
    reads one judge, and a panel that scored general only left the other columns empty
    with nothing to say that another judge had filled them. '' when nothing is missing."""
    missing, config = [], store.get_run(run_id)["config"]
    for protocol in PROTOCOLS:
        if protocol == "grounded" and not asks_for_boxes(config):
            continue                                    # n/a whoever scored it
        others = run_judges(store, run_id, protocol)
        if others and judge not in others:
            have = "has" if len(others) == 1 else "have"
            missing.append(f"no {protocol} verdicts by {judge}: {' and '.join(others)} "
                           f"{have} them (Judge, above)")
    return "".join(f" · {escape_md(text)}" for text in missing)
