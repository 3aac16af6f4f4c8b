"""The VER-Bench table's words on how it counts, apart from `scoring.tables` (which draws the
table): what AC, CC, RQ, ER and n are, what Unparsed means there, and that the Samples rule
does not apply to it.

"Unparsed" meant two things with one word: in the main table an item is unparsed by the
Samples rule (under majority, a tie of no answer), in the VER-Bench table when none of its
samples had an answer read; and VER-Bench averaged the sub-scores over samples whatever
Samples rule was chosen, without a word. VER-Bench's numbers are grades (0-10), not votes:
an item's grade is the mean over its samples and repeats, so the Samples rule cannot apply;
both tables say so (`SAMPLES_NOTE`), and so does the Samples control (`SAMPLES_CONTROL`).
"""
from __future__ import annotations

from judges.stats import MIN_BOOTSTRAP_N, NO_CI_EQUAL, NO_CI_SMALL

SAMPLES_NOTE = (
    "The Samples rule does not apply to VER-Bench: an item's AC, CC, RQ and ER are the means "
    "of its samples' (and repeats') sub-scores, whatever rule is chosen, and the item is "
    "Unparsed only when none of its samples had an answer read (in the main table, Unparsed "
    "is the Samples rule's outcome: under majority, a tie of no answer counts unparsed).")

SAMPLES_CONTROL = ("VER-Bench ignores it: its sub-scores are averaged over every sample")

VERBENCH_RULE = (
    "AC, CC, RQ and ER are the judge's sub-scores (0-10) times 10; an item's accuracy is their "
    "mean, the average is over the items with all four (n), the others Unscored (n + Unscored "
    "is every item). A response with no answer (the request failed, the model refused, or no "
    "answer could be read from the reply) is not graded: the judge is not asked (VER-Bench "
    "§3.3 grades an answer and the evidence for it; ER, the clues' support of the answer, has "
    "nothing to rate), and it counts 0 on all four, in n, as VER-Bench averages over every "
    "item (eq. 6); one with no answer read is Unparsed whatever the judge did, as `score` "
    "counts it. An answer the rules read as wrong (a letter, yes/no, a number) has AC 0 "
    "whatever the judge gave (never counted correct), its CC, RQ and ER as graded. "
    + SAMPLES_NOTE + " "
    f"The average's 95% interval (bootstrap over items) is given from {MIN_BOOTSTRAP_N} "
    "items on, and only when the items' averages differ (equal values resample to a "
    "zero-width interval, as if measured exactly): otherwise the cell says why there is "
    f"none, '[–: {NO_CI_SMALL}]' or '[–: {NO_CI_EQUAL}]'.")
