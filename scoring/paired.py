"""Two runs compared item by item: the exact McNemar test (`judges.paired`) on one binary
outcome per item and run.

McNemar needs one outcome per item in each run. A run with repeats or samples has several
responses per item, so each item's responses (every repeat and sample, in that order) are
first decided by the samples rule, exactly as `judges.samples.aggregate_samples` decides an
item's samples for the tables: majority vote by default (a tie is no answer, so wrong),
MMR-Life's rule over the first five, or the first response alone. Both runs are read by the
same rule, so the pairs stay comparable, and the output says the rule (`rule`) and the most
responses one item had in each run (`max_responses_per_item_a`, `_b`: its repeats x samples,
what the rule decided from). Unscored items are left out.

The accuracies it headlines (`accuracy_a`, `_b`) are those `report` and `leaderboard` give,
on the items both runs scored: each item once, with its share correct over its repeats
(`scoring.results`). An outcome per item decided over all its repeats is another number (a
run with 3 repeats read 57.14% here and 40.48% in `report`), so McNemar's outcomes' own
accuracies are given apart and named (`outcome_accuracy_a`, `_b`).
"""
from __future__ import annotations

from collections import defaultdict

from judges.paired import mcnemar
from judges.pairing import PairingError, shared_items
from judges.stats import aggregate_samples
from judges.verdict import CORRECT, UNSCORED, Verdict
from runner.provenance import cache_line, replies_from

from scoring.compared import labels, run_state, source_name, unfinished_note
from scoring.no_boxes import run_reason
from scoring.results import ResultsError, common_judge, default_judge, on_items, \
    run_summary, score_rows


VERBENCH_NOT_PAIRED = (
    "compare pairs one correct-or-wrong outcome per item; the VER-Bench protocol scores an "
    "item with four sub-scores (AC, CC, RQ, ER), not correct or wrong: compare runs on them "
    "with `table --kind verbench` (or one run with `report --protocol verbench`)")
"""The judge's 'correct' for AC >= 5 only labels a verdict for Inspect; compare counted it as
an accuracy VER-Bench does not define (two runs at '100%')."""


def item_outcomes(store, run_id: str, protocol: str = "general", judge: str | None = None,
                  samples_rule: str = "majority") -> tuple[dict[str, bool], int]:
    """({item_id: correct}, the most responses an item had): one outcome per item, its
    repeats and samples decided together by `samples_rule` (unscored items left out)."""
    judge = run_summary(store, run_id, protocol, judge, samples_rule, ci=False)["judge"]
    by_item: dict[str, list[dict]] = defaultdict(list)
    for row in score_rows(store, run_id, protocol, judge):
        by_item[row["item_id"]].append(row)
    outcomes = {}
    for item_id, rows in by_item.items():
        rows.sort(key=lambda r: (r["repeat"], r["sample"]))
        value = rows[0]["value"] if len(rows) == 1 else aggregate_samples(
            [Verdict(r["value"], answer=r["answer"]) for r in rows], samples_rule).value
        if value != UNSCORED:
            outcomes[item_id] = value == CORRECT
    return outcomes, max((len(rows) for rows in by_item.values()), default=0)


def outcome_rule(samples_rule: str, responses_a: int, responses_b: int) -> str:
    """The sentence that says what one item's outcome is in each run."""
    if responses_a <= 1 and responses_b <= 1:
        return "One outcome per item and run: its one response."
    return (f"One outcome per item and run: all its responses (every repeat and sample; up to "
            f"{responses_a} in A, {responses_b} in B) decided by the samples rule "
            f"{samples_rule}, as the tables decide samples (a tie is no answer: wrong).")


def compare_runs(store, run_a: str, run_b: str, protocol: str = "general",
                 judge: str | None = None, samples_rule: str = "majority") -> dict:
    """Exact McNemar test and per-item flips between two runs on their shared items; both
    accuracies are computed on those items (ResultsError when they share none). Both runs
    are read with `judge`, else with the judge both were scored with (`common_judge`), else
    (none in common) each with its own: `judge_a` and `judge_b` say which. Each run's
    name as every table shows it (its label: `labels`), the status a table shows (`status_a`: "cancelled", "failed", ...), the judge read
    (`name_a`, `judge_a`, ...), the outcome rule (`rule`) and a `note` naming a run that
    failed or did not finish ('' when both did) come with it."""
    if protocol == "verbench":
        raise ResultsError(VERBENCH_NOT_PAIRED)
    for run in (run_a, run_b):
        why = run_reason(store, run, protocol)
        if why:     # every outcome would be "wrong": a 0% that measures the prompt
            raise ResultsError(f"run {run}: {why}; compare runs that asked for boxes, or "
                               "compare under the rigorous protocol")
    judge = judge or common_judge(store, [run_a, run_b], protocol)  # None: each its own
    a, responses_a = item_outcomes(store, run_a, protocol, judge, samples_rule)
    b, responses_b = item_outcomes(store, run_b, protocol, judge, samples_rule)
    names = labels(store, [run_a, run_b])   # shown as every table shows them: their labels
    try:           # named as the tables name them; the counts are of scored items here
        shared = shared_items({names[run_a]: set(a), names[run_b]: set(b)}).items
    except PairingError as error:
        raise ResultsError(f"{error} (compare counts the items each run scored: an unscored "
                           "item has no outcome to pair)") from None
    result = mcnemar(a, b).to_dict()
    result.update(run_a=run_a, run_b=run_b, protocol=protocol,
                  name_a=names[run_a], name_b=names[run_b],
                  status_a=run_state(store.get_run(run_a)),
                  status_b=run_state(store.get_run(run_b)),
                  note=unfinished_note(store, [run_a, run_b]),
                  judge_a=judge or default_judge(store, run_a, protocol),
                  judge_b=judge or default_judge(store, run_b, protocol),
                  items_a=len(a), items_b=len(b), samples_rule=samples_rule,
                  max_responses_per_item_a=responses_a, max_responses_per_item_b=responses_b,
                  rule=outcome_rule(samples_rule, responses_a, responses_b),
                  outcome_accuracy_a=sum(a[i] for i in shared) / len(shared),
                  outcome_accuracy_b=sum(b[i] for i in shared) / len(shared),
                  accuracy_basis=ACCURACY_BASIS)
    shared_replies = replies_from(store, run_b, run_a) + replies_from(store, run_a, run_b)
    name = source_name(store)       # a source run by its table label, as elsewhere
    result.update(cache_a=cache_line(store, store.get_run(run_a), name),
                  cache_b=cache_line(store, store.get_run(run_b), name),
                  shared_replies=shared_replies,
                  independence=independence_note(names[run_a], names[run_b], shared_replies))
    for side, run in (("a", run_a), ("b", run_b)):
        overall = on_items(run_summary(store, run, protocol, judge, samples_rule, ci=False),
                           shared)["summary"]["overall"]
        result[f"accuracy_{side}"], result[f"accuracy_n_{side}"] = overall.accuracy, overall.n
    return result


def independence_note(name_a: str, name_b: str, shared: int) -> str:
    """The warning when one run's answers are the other's own replies (taken from the
    cache), '' when none are: McNemar takes the two runs' outcomes as independent draws, and
    a run whose repeat 0 is the other's 14 replies lists an item "lost" whose 1-1 tie in B
    holds A's own right reply."""
    if not shared:
        return ""
    return (f"Caution: McNemar's test assumes the runs' replies are independent draws, and "
            f"these share {shared}: {shared} {'reply' if shared == 1 else 'replies'} of one "
            f"run {'is' if shared == 1 else 'are'} the other's own, taken from the response "
            f"cache (the cache lines say which), so its p and the items listed gained or "
            f"lost compare {name_a} and {name_b} partly with the same replies. A run made "
            f"without the cache draws them afresh.")


ACCURACY_BASIS = ("each item once, its share correct over its repeats (samples decided by "
                  "the samples rule), as report and leaderboard count")
