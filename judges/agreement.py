"""Several judges on the same responses: a panel's majority vote, and how much judges agree.

A panel makes a single judge model's quirks visible and outvotes them. Its verdict is the
majority value among the members that could score (unscored members cast no vote); a tie
is `unscored` ("the panel is split"), never a coin toss. Graded verdicts (VER-Bench) take the
mean of the members' sub-scores instead (a response that is unparsed or an error stays so).

Agreement is reported as the percent of shared responses on which two judges give the same
value, and Cohen's kappa, which discounts the agreement two judges would reach by chance
given how often each says "correct": kappa = (p_o - p_e) / (1 - p_e). Kappa is undefined
(None) when p_e = 1 (both judges always give the same single value). The same functions
compare the LLM clue judge with the offline matcher.
"""
from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Mapping, Sequence

from judges.verdict import ERROR, UNPARSED, UNSCORED, Verdict, unscored


def percent_agreement(a: Sequence, b: Sequence) -> float | None:
    """Share (0-1) of positions where a and b hold the same label; None when empty."""
    if len(a) != len(b):
        raise ValueError("label sequences must have the same length")
    return sum(x == y for x, y in zip(a, b)) / len(a) if a else None


def cohen_kappa(a: Sequence, b: Sequence) -> float | None:
    if len(a) != len(b):
        raise ValueError("label sequences must have the same length")
    n = len(a)
    if not n:
        return None
    observed = sum(x == y for x, y in zip(a, b)) / n
    ca, cb = Counter(a), Counter(b)
    expected = sum(ca[label] * cb[label] for label in set(ca) | set(cb)) / (n * n)
    if expected >= 1.0:
        return None
    return (observed - expected) / (1 - expected)


def pairwise_agreement(labels: Mapping[str, Mapping]) -> list[dict]:
    """labels: {judge: {response id: label}}. Per pair of judges, over the responses both
    scored (unscored left out): {"a", "b", "n", "agreement", "kappa"}."""
    out = []
    for ja, jb in combinations(sorted(labels), 2):
        shared = [k for k, v in labels[ja].items()
                  if v != UNSCORED and labels[jb].get(k, UNSCORED) != UNSCORED]
        a = [labels[ja][k] for k in shared]
        b = [labels[jb][k] for k in shared]
        out.append({"a": ja, "b": jb, "n": len(shared), "agreement": percent_agreement(a, b),
                    "kappa": cohen_kappa(a, b)})
    return out


def panel_grade_reason(judges: int, means: dict, average: float, value: str) -> str:
    """A graded panel's reason, naming the figure that decided and its threshold: it said
    "mean of 2 judges: 4.5 of 10" beside "correct" (decided by the mean AC, 5.0 >= 5)."""
    if value in (UNPARSED, ERROR):
        return f"{value} reply; mean of {judges} judges: {average:.1f} of 10"
    ac = means.get("AC", 0)
    return (f"{value}: mean AC of {judges} judges {ac:.1f} {'>=' if ac >= 5 else '<'} 5; "
            f"mean of all sub-scores {average:.1f} of 10")


def panel_vote(verdicts: Mapping[str, Verdict], judge: str) -> Verdict:
    """One verdict from the members' ({member: verdict}); votes kept in details["votes"]."""
    votes = {name: v.value for name, v in verdicts.items()}
    voting = [v for v in verdicts.values() if v.value != UNSCORED]
    details = {"votes": votes}
    if not voting:
        return unscored("no panel member could score", judge=judge, details=details)
    graded = [v for v in voting if "subscores" in v.details]
    if graded:
        metrics = graded[0].details["subscores"].keys()
        means = {m: sum(v.details["subscores"][m] for v in graded) / len(graded)
                 for m in metrics}
        average = sum(means.values()) / len(means)
        first = graded[0]
        # unparsed and error come from the response, not the judges (every member says
        # the same): kept, never turned into "correct" or "wrong" by the mean AC
        kept = {v.value for v in graded}
        value = kept.pop() if kept in ({UNPARSED}, {ERROR}) else \
            "correct" if means.get("AC", 0) >= 5 else "wrong"
        return Verdict(value, score=average / 10, judge=judge, answer=first.answer,
                       reason=panel_grade_reason(len(graded), means, average, value),
                       details={**details, "subscores": means})
    ranked = Counter(v.value for v in voting).most_common()
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        return unscored(f"the panel is split ({', '.join(f'{k} {c}' for k, c in ranked)})",
                        judge=judge, details=details)
    winner = next(v for v in voting if v.value == ranked[0][0])
    return Verdict(winner.value, score=winner.score, judge=judge, answer=winner.answer,
                   reason=f"{ranked[0][1]} of {len(voting)} judges: {winner.reason}",
                   details={**winner.details, **details})
