"""Several judges on the same responses: a panel's majority vote, and how much judges agree.

A panel makes a single judge model's quirks visible and outvotes them. Its verdict is the
majority value among the members that could score (unscored members cast no vote); a tie
is `unscored` ("the panel is split"), never a coin toss. One rule under every protocol:
graded verdicts (VER-Bench) vote too, each member with its own verdict (its AC >= 5 is its
"correct"), so a 1-1 split of two judges is unscored under verbench as under rigorous (the
mean AC of AC 8 and AC 2 once made it "correct": a coin toss by the threshold). Their
sub-scores are averaged beside the vote (VER-Bench's numbers are grades, not votes: a split
panel's mean sub-scores are kept); a response that is unparsed or an error stays so.

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


TIE_RULE = "a tie is unscored under every protocol, never a coin toss"


def panel_grade_reason(judges: int, means: dict, average: float, value: str) -> str:
    """A graded panel's figures, named beside its verdict: the mean AC (which no longer
    decides: the members vote) and the mean of all sub-scores."""
    if value in (UNPARSED, ERROR):
        return f"{value} reply; mean of {judges} judges: {average:.1f} of 10"
    return (f"mean AC of {judges} judges {means.get('AC', 0):.1f}; mean of all sub-scores "
            f"{average:.1f} of 10")


def _tally(ranked: list[tuple[str, int]]) -> str:
    return ", ".join(f"{k} {c}" for k, c in ranked)


def panel_vote(verdicts: Mapping[str, Verdict], judge: str) -> Verdict:
    """One verdict from the members' ({member: verdict}); votes kept in details["votes"].
    The majority of the members that scored decides, graded (VER-Bench) members too, each
    voting its own verdict; a tie is unscored (`TIE_RULE`)."""
    votes = {name: v.value for name, v in verdicts.items()}
    voting = [v for v in verdicts.values() if v.value != UNSCORED and not _failed(v)]
    details = {"votes": votes}
    if not voting and verdicts and all(v.value == UNPARSED for v in verdicts.values()):
        # an unparsed reply no member could grade: the model's unparsed, the judges' failure
        return Verdict(UNPARSED, judge=judge, details={
            **details, "judge_failed": next(iter(verdicts.values())).details["judge_failed"]},
            reason="unparsed: no answer could be read from the reply, and no panel member "
                   "could grade it")
    if not voting:
        return unscored("no panel member could score", judge=judge, details=details)
    ranked = Counter(v.value for v in voting).most_common()
    split = len(ranked) > 1 and ranked[0][1] == ranked[1][1]
    graded = [v for v in voting if "subscores" in v.details]
    if graded:
        metrics = graded[0].details["subscores"].keys()
        means = {m: sum(v.details["subscores"][m] for v in graded) / len(graded)
                 for m in metrics}
        average = sum(means.values()) / len(means)
        details["subscores"] = means
        figures = panel_grade_reason(len(graded), means, average, ranked[0][0])
        if split:
            return unscored(f"the panel is split ({_tally(ranked)}): {TIE_RULE}; {figures}",
                            judge=judge, details=details)
        value = ranked[0][0]
        winner = next(v for v in voting if v.value == value)
        ruled = {v.judge for v in voting}
        reason = figures if value in (UNPARSED, ERROR) else \
            f"{value}: decided by the rule {winner.judge}, whatever the judges' AC (counted " \
            f"0); {figures}" if len(ruled) == 1 and winner.judge.startswith("rule:") else \
            f"{value}: {ranked[0][1]} of {len(voting)} judges{_silent(verdicts)} (each " \
            f"judge's AC >= 5 is its correct); {figures}"
        return Verdict(value, score=average / 10, judge=judge, answer=winner.answer,
                       reason=reason, details=details)
    if split:
        return unscored(f"the panel is split ({_tally(ranked)}): {TIE_RULE}",
                        judge=judge, details=details)
    winner = next(v for v in voting if v.value == ranked[0][0])
    rules = {v.judge for v in voting if v.judge.startswith("rule:")}
    if len(rules) == 1 and len(ranked) == 1 and all(v.judge in rules for v in voting):
        # every member's verdict is the same rule's (a numeric answer, say): no judge was
        # asked, so "2 of 2 judges" would claim a judgement nobody made
        return Verdict(winner.value, score=winner.score, judge=winner.judge,
                       answer=winner.answer, details={**winner.details, **details},
                       reason=f"decided by the rule {winner.judge}, no judge asked: "
                              f"{winner.reason}")
    return Verdict(winner.value, score=winner.score, judge=judge, answer=winner.answer,
                   reason=f"{ranked[0][1]} of {len(voting)} judges{_silent(verdicts)}: "
                          f"{winner.reason}",
                   details={**winner.details, **details})


def _silent(verdicts: Mapping[str, Verdict]) -> str:
    """' (judge-b could not score)': the members whose verdict is unscored. Without it a
    panel of two read '1 of 1 judges' when one member's reply was unreadable, as if the
    panel had one member (a review)."""
    silent = [name for name, v in verdicts.items() if v.value == UNSCORED or _failed(v)]
    return f" ({', '.join(silent)} could not score)" if silent else ""


def _failed(verdict: Verdict) -> bool:
    """A member that failed on a reply whose verdict is the model's (an unparsed reply it gave
    no VER-Bench sub-scores: `scoring.llm_stages.judge_failure`): no vote of its."""
    return bool(verdict.details.get("judge_failed"))
