"""One verdict per item from the verdicts of its samples (self-consistency, MMR-Life's rules).

Kept apart from judges/stats.py (accuracies over items) because the rule that decides an
item comes before any counting: the unparsed and error counts stay true whatever the rule.
"""
from __future__ import annotations

from collections import Counter
from typing import Sequence

from judges.mmr_life import mmr_life_item_correct, mmr_life_tied, mmr_life_vote
from judges.verdict import ERROR, UNPARSED, UNSCORED, Verdict, from_match, unparsed


# Each rule in plain words, as tables name it in their caption ("samples rule: first sample
# only") and notes: a Markdown or LaTeX table said nothing of its rule, and two exports of
# one table under two rules had one caption over other numbers.
RULE_NAMES = {"majority": "majority vote",
              "mmr_life": "MMR-Life (more than 2 of the first 5 samples correct)",
              "mmr_life_sc": "MMR-Life self-consistency (a plurality vote over samples)",
              "first": "first sample only"}


def rule_name(method: str) -> str:
    """`method` in plain words (`RULE_NAMES`; an unknown one as it is)."""
    return RULE_NAMES.get(method, method)


def rule_caption(caption: str, method: str) -> str:
    """A table's caption naming the rule that decided its items ("…, 14 items; samples rule:
    first sample only"), as Markdown and LaTeX print it; `caption` itself without one. CSV
    and JSON carry the rule in a column and a field; Markdown and LaTeX said nothing of it,
    so two exports under majority vote and first sample only had one caption over two sets
    of numbers."""
    if not method:
        return caption
    said = f"samples rule: {rule_name(method)}"
    return f"{caption}; {said}" if caption else said.capitalize()


def majority_vote(answers: Sequence[str | None]) -> tuple[str | None, str]:
    """Self-consistency: the most frequent answer among the parsed ones (None votes are
    ignored). A tie for first place is no answer (None), never a coin toss."""
    votes = Counter(str(a).strip() for a in answers if a is not None and str(a).strip())
    if not votes:
        return None, "no sample has an answer"
    ranked = votes.most_common()
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        tied = sorted(a for a, c in ranked if c == ranked[0][1])
        return None, f"tie between {', '.join(tied)} ({ranked[0][1]} votes each)"
    return ranked[0][0], f"{ranked[0][1]} of {sum(votes.values())} votes"


def rule_problem(method: str, samples: int) -> str | None:
    """Why `method` cannot decide items of `samples` samples honestly, else None. MMR-Life's
    "more than 2 of the first 5 correct" was made for 5 samples (one sample decides alone):
    with 2 no item can pass, with 3 it asks for all 3, with 4 for 3 of 4, so it would report
    a stricter or impossible rule under the paper's name."""
    if method != "mmr_life" or samples == 1 or samples >= 5:
        return None
    meaning = {2: "no item could be right (more than 2 of 2)",
               3: "an item would need all 3 samples right",
               4: "an item would need 3 of its 4 samples right"}[samples]
    # named as the Results page's list does, with the command line's value: the page said
    # "mmr_life" where its list says "MMR-Life: over 2 of first 5 right"
    return (f"the samples rule MMR-Life (mmr_life; the paper's: more than 2 of the first 5 "
            f"samples correct) needs 5 samples per item, or 1; with {samples} {meaning}. Use "
            f"majority vote (majority) or MMR-Life self-consistency (mmr_life_sc), or a run "
            f"with 5 samples")


def aggregate_samples(verdicts: Sequence[Verdict], method: str = "majority") -> Verdict:
    """One verdict per item from its samples' verdicts.

    First, under every rule but "first", the cases no rule decides (so the unparsed and error
    counts stay true whatever the rule): when every sample is unscored the item is `unscored`
    (left out of n, as a single-sample item would be), when every scored sample failed it is
    `error`, and when no sample has an answer it is `unparsed`. Then, over the samples with an
    answer (those the judge could not score among them: their answer was read):

    "majority": the verdict of the majority answer (unparsed and error samples cast no vote;
      a tie is no answer: `unparsed`); `unscored` when the judge scored none of the samples
      that gave that answer (a read answer is never counted as no answer).
    "mmr_life": the paper's rule, more than 2 of the first 5 samples correct (one sample: itself).
    "mmr_life_sc": the paper's self-consistency, a plurality vote over answers with "" a
      candidate and ties to the first seen; when "" wins the item is `unparsed` (the paper
      scores it wrong, and so does ClueLab's accuracy).
    "first": the first sample alone (a single-sample run drawn from a multi-sample one).
    Answers vote as read ("$usa,ca$" and "$united states,ca$" are two answers). To reproduce
    the paper's numbers, give the "mmr_life*" methods `mmr_life_rule` verdicts.
    """
    judge = f"samples:{method}"
    if method not in ("majority", "mmr_life", "mmr_life_sc", "first"):
        raise ValueError(f"unknown sample aggregation {method!r}")
    if not verdicts:
        return unparsed("no samples", judge=judge)
    if method == "first":
        return verdicts[0]
    scored = [v for v in verdicts if v.value != UNSCORED]
    if not scored:
        return Verdict(UNSCORED, reason="no sample could be scored", judge=judge)
    if all(v.value == ERROR for v in scored):
        return Verdict(ERROR, reason="every sample failed", judge=judge)
    # every sample with an answer votes, those the judge could not score too: the majority
    # answer of three samples "cold winter days", "cold winter days" (unscored) and one cut
    # off is that answer, unscored, not "no answer" (which counts as wrong)
    voting = [v for v in verdicts if v.value not in (UNPARSED, ERROR)
              and (v.value != UNSCORED or v.answer is not None)]
    if not voting:
        return unparsed("no sample has an answer", judge=judge)
    if method == "mmr_life":
        hits = [v.correct for v in scored]
        return from_match(mmr_life_item_correct(hits), f"{sum(hits[:5])} of the first "
                          f"{min(5, len(hits))} samples correct", judge=judge)
    if method == "mmr_life_sc":
        letters = [None if v.value in (UNPARSED, ERROR) else v.answer for v in verdicts]
        winner = mmr_life_vote(letters)
        # a tie goes to the earliest of the tied answers: the table's note counts these
        tie = {"tie_broken": True} if mmr_life_tied(letters) else {}
        chosen = _scored_or_first([v for v in voting if winner and v.answer == winner])
        if chosen is None:
            return unparsed("the plurality of samples has no answer", judge=judge,
                            details=tie)
        if chosen.value == UNSCORED:
            return Verdict(UNSCORED, reason=f"plurality answer {winner}, which the judge could "
                           "not score", judge=judge, answer=winner, details=tie)
        return from_match(chosen.correct, f"plurality answer {winner}", judge=judge,
                          answer=winner, details=tie)
    winner, why = majority_vote([v.answer for v in voting])
    if winner is None:  # "tied": the table's note counts these apart (not a reply unread)
        return unparsed(why, judge=judge, details={"votes": len(voting),
                                                   "tied": why.startswith("tie ")})
    chosen = _scored_or_first([v for v in voting if str(v.answer).strip() == winner])
    if chosen.value == UNSCORED:
        return Verdict(UNSCORED, reason=f"majority {winner}: {why}, which the judge could not "
                       "score", judge=judge, answer=winner, details={"votes": len(voting)})
    return Verdict(chosen.value, reason=f"majority {winner}: {why}", judge=judge, answer=winner,
                   details={"votes": len(voting)})


def _scored_or_first(verdicts: list[Verdict]) -> Verdict | None:
    """The first of one answer's verdicts the judge scored, else the first (unscored)."""
    return next((v for v in verdicts if v.value != UNSCORED), verdicts[0] if verdicts else None)
