"""VER-Bench's numbers over graded verdicts (VER-Bench §3.3): each item's four judge
sub-scores (AC, CC, RQ, ER, 0-10) averaged, means per metric, and one counting rule that
`score` and the VER-Bench table share, so that they agree.

Apart from judges/stats.py (accuracies over verdicts): graded verdicts are means, not counts.
"""
from __future__ import annotations

from typing import Iterable

import numpy as np

from judges.verdict import UNSCORED

VERBENCH_METRICS = ("AC", "CC", "RQ", "ER")


def verbench_item_average(scores: dict) -> float | None:
    """(AC + CC + RQ + ER) / 4 / 10 x 100 for one item; None if any sub-score is missing."""
    values = [scores.get(m) for m in VERBENCH_METRICS]
    if any(v is None for v in values):
        return None
    return sum(float(v) for v in values) / 4 / 10 * 100


def verbench_counter(value: str, subscores: dict | None) -> str:
    """The counter one VER-Bench verdict falls in: the one rule `score`'s counts (the CLI and
    the Results page's Score table) and the VER-Bench table (`verbench_summary`) follow, so
    that they agree. A verdict without all four sub-scores is out of VER-Bench's numbers:
    "unscored", whatever its value (an unparsed reply whose judge reply could not be read
    was "unparsed" in `score` and unscored in the table: 7 against 13); none is guessed a
    0. One with them is counted by its value; a split panel (no majority, unscored, its
    members' mean sub-scores kept and counted in the table's n) as "split"."""
    if verbench_item_average(subscores or {}) is None:
        return UNSCORED
    return "split" if value == UNSCORED else value


def verbench_summary(items: Iterable[dict], *, ci: bool = True, seed: int | None = None) -> dict:
    """Per-metric means (x 10, as VER-Bench Table 1 prints them) and the average accuracy, over
    the items with all four sub-scores; items missing one are counted as `unscored`. Of those
    n, `unparsed` counts the items flagged "unparsed" (no answer read: counted, AC 0)."""
    from judges.stats import SEED, mean_ci      # judges.stats re-exports this module

    rows = list(items)
    complete = [r for r in rows if verbench_item_average(r) is not None]
    averages = [verbench_item_average(r) for r in complete]
    summary = {m: (float(np.mean([float(r[m]) for r in complete])) * 10 if complete else None)
               for m in VERBENCH_METRICS}
    summary.update(average=float(np.mean(averages)) if averages else None, n=len(complete),
                   unparsed=sum(1 for r in complete if r.get("unparsed")),
                   unscored=len(rows) - len(complete), ci_low=None, ci_high=None,
                   ci_note="")
    if ci and averages:
        summary["ci_low"], summary["ci_high"], summary["ci_note"] = mean_ci(
            averages, seed=SEED if seed is None else seed)
    return summary
