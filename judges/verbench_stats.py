"""VER-Bench's numbers over graded verdicts (VER-Bench §3.3): each item's four judge
sub-scores (AC, CC, RQ, ER, 0-10) averaged, means per metric, and the counting rule of
`score`'s line, the same as every protocol's (the model's unparsed replies are unparsed,
in the table as in `score`, whatever the judge did: it read "Unparsed 0, Unscored 12" when
the judge failed on every reply, one of them unparsed, while `score` said unparsed 1).

Apart from judges/stats.py (accuracies over verdicts): graded verdicts are means, not counts.
"""
from __future__ import annotations

from typing import Iterable

import numpy as np

from judges.verdict import UNPARSED, UNSCORED

VERBENCH_METRICS = ("AC", "CC", "RQ", "ER")


def verbench_item_average(scores: dict) -> float | None:
    """(AC + CC + RQ + ER) / 4 / 10 x 100 for one item; None if any sub-score is missing."""
    values = [scores.get(m) for m in VERBENCH_METRICS]
    if any(v is None for v in values):
        return None
    return sum(float(v) for v in values) / 4 / 10 * 100


def verbench_counter(value: str, subscores: dict | None) -> str:
    """The counter one VER-Bench verdict falls in, by the rule of every protocol: a reply no
    answer could be read from is "unparsed" (the model's failure; never graded, 0 on all
    four), whatever the judge did. Any other verdict without all four sub-scores is
    "unscored" (none is guessed a 0): the judge failed on an answer, or nothing was asked.
    One with them is counted by its value; a split panel (no majority, unscored, its
    members' mean sub-scores kept and counted in the table's n) as "split"."""
    if value == UNPARSED:
        return UNPARSED
    if verbench_item_average(subscores or {}) is None:
        return UNSCORED
    return "split" if value == UNSCORED else value


def verbench_summary(items: Iterable[dict], *, ci: bool = True, seed: int | None = None) -> dict:
    """Per-metric means (x 10, as VER-Bench Table 1 prints them) and the average accuracy, over
    the items with all four sub-scores (n); items missing one are counted as `unscored`, so
    n + unscored is every item. Of n, `unparsed` counts the items flagged "unparsed" (no
    answer read: always in n, 0 on all four, whatever the judge did). Of the unscored,
    `judge_failed` counts the items flagged so (an answer the judge was asked to grade and
    gave no sub-scores: its reply unreadable or its call failed), so that a row resting on
    a few items says why."""
    from judges.stats import SEED, mean_ci      # judges.stats re-exports this module

    rows = [{**r, **dict.fromkeys(VERBENCH_METRICS, 0.0)} if r.get("unparsed") else r
            for r in items]
    complete = [r for r in rows if verbench_item_average(r) is not None]
    averages = [verbench_item_average(r) for r in complete]
    summary = {m: (float(np.mean([float(r[m]) for r in complete])) * 10 if complete else None)
               for m in VERBENCH_METRICS}
    summary.update(average=float(np.mean(averages)) if averages else None, n=len(complete),
                   unparsed=sum(1 for r in complete if r.get("unparsed")),
                   unscored=len(rows) - len(complete), ci_low=None, ci_high=None,
                   ci_note="")
    left_out = [r for r in rows if verbench_item_average(r) is None]
    summary.update(judge_failed=sum(1 for r in left_out if r.get("judge_failed")))
    if ci and averages:
        summary["ci_low"], summary["ci_high"], summary["ci_note"] = mean_ci(
            averages, seed=SEED if seed is None else seed)
    return summary
