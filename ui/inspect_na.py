"""What Inspect's list says of protocols that do not apply to a run or were not scored by
the judge it reads: the No-CoT runs a rigorous filter leaves out (their rigorous is n/a in
every table, `scoring.no_boxes`), the runs that asked for no boxes a grounded filter leaves
out, and a protocol the chosen judge did not score."""
from __future__ import annotations

from scoring.compared import labels
from scoring.no_boxes import asks_for_boxes, asks_for_clues
from scoring.results import run_judges
from store.inspect_browse import PROTOCOLS

from ui.text import escape_md


def without_no_cot(store, filters: dict) -> tuple[dict, str]:
    """(the filters leaving out the runs a verdict filter does not apply to, what the count
    line says of them): a Rigorous filter (or right answer for a wrong reason) leaves out
    the No-CoT runs, whose rigorous is n/a (the column reads "–"), and a Grounded filter the
    runs that asked for no boxes (grounded n/a): "wrong" matched their stored verdicts."""
    verdicts = filters.get("verdicts") or {}
    checks = []
    if verdicts.get("rigorous") or filters.get("right_wrong_reason"):
        checks.append(("rigorous", lambda config: not asks_for_clues(config),
                       "No-CoT: rigorous is n/a, the run asked for no clues"))
    if verdicts.get("grounded"):
        checks.append(("grounded", lambda config: not asks_for_boxes(config),
                       "grounded is n/a, the run asked for no boxes"))
    if not checks:
        return filters, ""
    runs = [filters["run_id"]] if filters.get("run_id") else [r["id"] for r in store.list_runs()]
    configs = {rid: store.get_run(rid)["config"] for rid in runs}
    skipped, said = set(), ""
    for protocol, moot_for, why in checks:
        moot = [rid for rid in runs if moot_for(configs[rid])]
        if moot:
            skipped |= set(moot)
            names = ", ".join(labels(store, moot).values())
            said += escape_md(f" · the {protocol} filter does not apply to {names} ({why}), "
                              "so it matches none of its responses")
    if not skipped:
        return filters, ""
    return {**filters, "skip_runs": sorted(skipped | set(filters.get("skip_runs") or ()))}, said


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
