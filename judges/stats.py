"""Statistics over verdicts: accuracies with their uncertainty, repeats and samples, VER-Bench.

The rules, stated once (they are shown beside every table):

- Accuracy is a micro-average (DailyClue App. B): correct / n within a group, and overall the
  total correct over the total n, never a mean of group accuracies.
- n counts items. A run with repeats (the same item asked k times) weighs each of an item's
  scored repeats 1/k: the item counts once, with its share of correct repeats, so an
  accuracy is the mean over items of each item's share correct (with the same k everywhere,
  the mean of the per-repeat accuracies), and the counts (correct, unparsed, error) are
  per-item means, adding up to n. An item is unscored only when none of its repeats is
  scored, so n + unscored is the number of items.
- `unparsed` and `error` count as wrong (they stay in n) and are also reported as rates over n.
  `unscored` (the judge could not decide) is left out of n and reported as a count: a judge's
  failure must not lower a model's score. Accuracies are fractions (0-1); tables print %.
- 95% confidence intervals of an accuracy (a proportion) are Wilson score intervals: honest at
  small n, where a percentile bootstrap of 3 correct out of 3 gives the degenerate [100, 100]
  (every resample is all correct) and Wilson gives [43.85, 100]; it needs no seed.
  The interval is over items (n), never over item x repeat: repeats of one item are not
  independent draws. With repeats, the proportion is the mean share correct; a per-item share
  lies in [0, 1] and so has variance at most p(1 - p), which makes Wilson on n items
  conservative (never narrower than the truth the bootstrap over items would estimate).
- Intervals of a mean of continuous values (VER-Bench's average) are percentile bootstraps with
  2,000 resamples and a fixed seed, so a table is reproducible. Resampling n values with
  replacement draws how many times each distinct value is taken from a multinomial, in
  microseconds instead of an n x 2000 index matrix.
- Over repeated runs: mean and sample standard deviation (n - 1) of the per-run accuracies,
  each on the same items: those every repeat scored (`items_every_repeat_scored`), so a
  repeat a cancelled run did not finish is not compared on fewer, easier or harder items.
  When these are fewer than the accuracy's n, the spread states its own n.
- Over samples of one item: see judges/samples.py (majority vote, MMR-Life's rules).
- VER-Bench: AC, CC, RQ, ER are 0-10 per item; each is reported as its mean x 10, and the
  average accuracy is the mean over items of (AC + CC + RQ + ER) / 4 / 10 x 100 (eq. 6).
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import asdict, dataclass
from fractions import Fraction
from typing import Iterable, Sequence

import numpy as np

from judges.paired import McNemar, binomial_two_sided, mcnemar  # noqa: F401 (part of the API)
from judges.samples import aggregate_samples, majority_vote  # noqa: F401 (part of the API)
from judges.verdict import CORRECT, ERROR, UNPARSED, UNSCORED, Verdict

N_RESAMPLES, CONFIDENCE, SEED = 2000, 0.95, 0
MIN_BOOTSTRAP_N = 10
"""Fewer items than this get no bootstrap interval of a mean: resampling 6 items gave VER-Bench
averages an interval [65, 65], as if 6 items had measured it exactly."""
COUNTING_RULES = ("Accuracy is micro-averaged (correct / n); n counts items (an item with k "
                  "repeats counts once, with its share correct over them). Unparsed (no answer "
                  "could be read: refusals and replies cut off before their answer included) "
                  "and error responses count as wrong and are also reported as rates; unscored "
                  "items (the judge could not decide their answer) are left out of n and "
                  "counted in Unscored.")
CI_RULE = ("95% CI: Wilson score interval (honest at small n: 3 of 3 correct gives "
           "[43.85, 100]).")
Z_95 = 1.959963984540054     # the standard normal's 97.5th percentile


def wilson_ci(correct: int, n: int, z: float = Z_95) -> tuple[float | None, float | None]:
    """Wilson score interval of the proportion correct / n (None, None when n is 0)."""
    if n <= 0:
        return None, None
    p, z2 = correct / n, z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * np.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, float(centre - half)), min(1.0, float(centre + half))


NO_CI_SMALL, NO_CI_EQUAL = "n too small", "all equal"
"""Why a mean has no interval, as its cell says ("65.0 [–: n too small]"): a zero-width
interval ("65.0 [65.0, 65.0]") claims the mean was measured exactly."""


def mean_ci(values: Sequence[float], *, seed: int = SEED
            ) -> tuple[float | None, float | None, str]:
    """(low, high, "") the percentile bootstrap interval of the mean over items, or (None,
    None, why) when none can be given honestly: fewer than MIN_BOOTSTRAP_N items
    (`NO_CI_SMALL`), or every value the same, where resampling gives a zero width
    (`NO_CI_EQUAL`); an interval that still comes out of zero width is not given either."""
    data = [float(v) for v in values]
    if len(data) < MIN_BOOTSTRAP_N:
        return None, None, NO_CI_SMALL
    low, high = bootstrap_ci(data, seed=seed)
    if len(set(data)) < 2 or low is None or high - low <= 0:
        return None, None, NO_CI_EQUAL
    return low, high, ""


def bootstrap_ci(values: Sequence[float], *, n_resamples: int = N_RESAMPLES,
                 confidence: float = CONFIDENCE, seed: int = SEED
                 ) -> tuple[float | None, float | None]:
    """Percentile bootstrap interval of the mean of `values` (None, None when empty)."""
    data = np.asarray(values, dtype=float)
    if data.size == 0:
        return None, None
    distinct, counts = np.unique(data, return_counts=True)
    rng = np.random.default_rng(seed)
    chunk = max(1, 4_000_000 // len(distinct))  # bound memory for continuous data
    means = np.concatenate([
        rng.multinomial(data.size, counts / data.size, size=min(chunk, n_resamples - done))
        @ distinct / data.size for done in range(0, n_resamples, chunk)])
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(means, [tail, 100 - tail])
    return float(low), float(high)


@dataclass
class Accuracy:
    n: int                      # scored verdicts (everything but unscored)
    correct: int
    unparsed: int
    error: int
    unscored: int
    accuracy: float | None      # correct / n, a fraction
    ci_low: float | None = None
    ci_high: float | None = None

    @property
    def unparsed_rate(self) -> float | None:
        return self.unparsed / self.n if self.n else None

    @property
    def error_rate(self) -> float | None:
        return self.error / self.n if self.n else None

    def to_dict(self) -> dict:
        return {**asdict(self), "unparsed_rate": self.unparsed_rate,
                "error_rate": self.error_rate}


def _tidy(count: float) -> int | float:
    """A weighted count as shown: a whole number as an int, else rounded to 6 places."""
    whole = round(count)
    return int(whole) if abs(count - whole) < 1e-9 else round(count, 6)


def accuracy_from_counts(counts: Counter, *, ci: bool = True, seed: int = SEED) -> Accuracy:
    """The accuracy of (possibly item-weighted, see `item_weights`) verdict counts, computed
    exactly (the weights are fractions) and rounded once: two runs with the same share
    correct get the same float (float weights summed in another order gave 9/14 as
    0.6428571428571429 in one run and 0.6428571428571427 in the other)."""
    exact = {key: Fraction(value) for key, value in counts.items()}
    scored = sum(exact.values(), Fraction(0)) - exact.get(UNSCORED, 0)
    right = exact.get(CORRECT, Fraction(0))
    n = _tidy(float(scored))
    result = Accuracy(n, *(_tidy(float(exact.get(k, 0))) for k in
                           (CORRECT, UNPARSED, ERROR, UNSCORED)),
                      float(right / scored) if scored else None)
    if ci and n:
        result.ci_low, result.ci_high = wilson_ci(float(right), float(scored))
    return result


def _value(record) -> str:
    if isinstance(record, Verdict):
        return record.value
    if isinstance(record, str):
        return record
    value = record["value"]
    return value.value if isinstance(value, Verdict) else value


def item_weights(records: Sequence) -> list[int | Fraction]:
    """Each record's weight, so that every item counts once however many repeats it has: its
    scored records share 1 (1/k each of k), its unscored ones 0, and an item with no scored
    record counts once as unscored. Records without an "item_id" (verdicts, bare values) are
    items of their own (weight 1)."""
    keys = [r.get("item_id", i) if isinstance(r, dict) else i for i, r in enumerate(records)]
    values = [_value(r) for r in records]
    total, scored = Counter(keys), Counter(k for k, v in zip(keys, values) if v != UNSCORED)
    return [(_share(scored[k]) if v != UNSCORED else 0) if scored[k] else _share(total[k])
            for k, v in zip(keys, values)]


def _share(count: int) -> int | Fraction:
    """1/count exactly (1 an int, the common case, kept cheap)."""
    return 1 if count == 1 else Fraction(1, count)


def weighted_counts(values: Iterable[str], weights: Iterable[float]) -> Counter:
    counts: Counter = Counter()
    for value, weight in zip(values, weights):
        counts[value] += weight
    return counts


def accuracy(records: Iterable, *, ci: bool = True, seed: int = SEED) -> Accuracy:
    """Accuracy of verdicts, verdict values, or records with a "value" (and an "item_id":
    repeats of an item count once, see `item_weights`)."""
    records = list(records)
    return accuracy_from_counts(weighted_counts(map(_value, records), item_weights(records)),
                                ci=ci, seed=seed)


def summarise(records: Iterable[dict], groups: Sequence[str] = ("domain", "subtask"), *,
              ci: bool = True, seed: int = SEED) -> dict:
    """{"overall": Accuracy, "by_<group>": {name: Accuracy}} as micro-averages.

    records: one per item and repeat (aggregate samples first), each {"value": ..., "domain":
    ..., "item_id": ...}, repeats of an item weighed to count once; a record without a group key is counted under "(none)" for that group."""
    records = list(records)
    overall: Counter = Counter()
    by: dict[str, dict[str, Counter]] = {g: defaultdict(Counter) for g in groups}
    for record, weight in zip(records, item_weights(records)):
        value = _value(record)
        overall[value] += weight
        for group in groups:
            by[group][str(record.get(group) or "(none)")][value] += weight
    summary = {"overall": accuracy_from_counts(overall, ci=ci, seed=seed)}
    for group in groups:
        summary[f"by_{group}"] = {name: accuracy_from_counts(counts, ci=ci, seed=seed)
                                  for name, counts in sorted(by[group].items())}
    return summary


def summary_to_dict(summary: dict) -> dict:
    """The JSON shape of `summarise` (what `report --json` prints)."""
    return {key: value.to_dict() if isinstance(value, Accuracy) else
            {name: acc.to_dict() for name, acc in value.items()}
            for key, value in summary.items()}


def mean_std(values: Sequence[float | None]) -> tuple[float | None, float | None]:
    """Mean and sample standard deviation (n - 1); std is None with fewer than two values."""
    data = np.asarray([v for v in values if v is not None], dtype=float)
    if data.size == 0:
        return None, None
    return float(data.mean()), float(data.std(ddof=1)) if data.size > 1 else None


def over_repeats(summaries: Sequence[dict]) -> dict:
    """Mean and std of each accuracy over repeated runs' `summarise` outputs (DailyClue Table 2
    reports the mean of three runs), in the same shape: {"overall": {...}, "by_<group>": ...}."""
    def spread(accs: list) -> dict:
        values = [a.accuracy for a in accs if a is not None]
        mean, std = mean_std(values)
        return {"mean": mean, "std": std, "repeats": len(values)}

    result = {"overall": spread([s["overall"] for s in summaries])}
    for key in (k for k in (summaries[0] if summaries else {}) if k != "overall"):
        names = sorted({name for s in summaries for name in s.get(key, {})})
        result[key] = {name: spread([s.get(key, {}).get(name) for s in summaries])
                       for name in names}
    return result


def items_every_repeat_scored(records: Sequence[dict]) -> set:
    """The items of (item, repeat) records scored (not unscored) in every repeat the records
    have: the items a spread over repeats compares like with like on."""
    repeats = {r["repeat"] for r in records}
    scored: dict[str, set] = defaultdict(set)
    for r in records:
        if _value(r) != UNSCORED:
            scored[r["item_id"]].add(r["repeat"])
    return {item for item, seen in scored.items() if seen == repeats}


from judges.verbench_stats import (VERBENCH_METRICS, verbench_counter,  # noqa: E402,F401
                                  verbench_item_average, verbench_summary)
