"""Aggregation checked against hand computation."""
import json
import math

import numpy as np
import pytest

from judges.mmr_life import mmr_life_item_correct, mmr_life_vote
from judges.paired import binomial_two_sided, mcnemar
from judges.stats import accuracy, aggregate_samples, bootstrap_ci, wilson_ci, majority_vote, mean_std, \
    over_repeats, summarise, summary_to_dict, verbench_item_average, verbench_summary
from judges.verdict import Verdict

RECORDS = (  # domain A: a1 3/4 (one unparsed), a2 1/2; domain B: b1 0/3 (one error) + unscored
    [{"value": v, "domain": "A", "subtask": "a1"}
     for v in ("correct", "correct", "correct", "unparsed")]
    + [{"value": v, "domain": "A", "subtask": "a2"} for v in ("correct", "wrong")]
    + [{"value": v, "domain": "B", "subtask": "b1"}
       for v in ("wrong", "wrong", "error", "unscored")])


def test_micro_averages_by_hand():
    summary = summarise(RECORDS)
    overall = summary["overall"]
    assert (overall.n, overall.correct, overall.unscored) == (9, 4, 1)
    assert overall.accuracy == pytest.approx(4 / 9)            # not the mean of 4/6 and 0/3
    assert overall.unparsed_rate == pytest.approx(1 / 9)
    assert overall.error_rate == pytest.approx(1 / 9)
    assert summary["by_domain"]["A"].accuracy == pytest.approx(4 / 6)
    assert summary["by_domain"]["B"].accuracy == 0 and summary["by_domain"]["B"].n == 3
    assert summary["by_subtask"]["a1"].accuracy == pytest.approx(3 / 4)
    assert summary["by_subtask"]["a2"].accuracy == pytest.approx(1 / 2)
    as_json = summary_to_dict(summary)
    assert set(as_json) == {"overall", "by_domain", "by_subtask"}
    assert {"accuracy", "n", "ci_low", "ci_high"} <= set(as_json["overall"])


def test_accuracy_accepts_verdicts_values_and_records():
    assert accuracy(["correct", "wrong"], ci=False).accuracy == 0.5
    assert accuracy([Verdict("correct"), Verdict("unparsed")], ci=False).accuracy == 0.5
    empty = accuracy(["unscored"])
    assert empty.n == 0 and empty.accuracy is None and empty.ci_low is None


def test_bootstrap_ci_contains_the_estimate_and_is_deterministic():
    outcomes = [1.0] * 37 + [0.0] * 63
    low, high = bootstrap_ci(outcomes)
    assert low < 0.37 < high and (low, high) == bootstrap_ci(outcomes)
    assert 0.25 < low and high < 0.48                          # about +-1.96 * sqrt(.37*.63/100)
    assert bootstrap_ci(outcomes, seed=1) != (low, high)
    assert bootstrap_ci([1.0] * 5) == (1.0, 1.0)
    assert bootstrap_ci([]) == (None, None)
    continuous = np.arange(5000, dtype=float)                  # the chunked path
    low, high = bootstrap_ci(continuous)
    assert low < continuous.mean() < high
    acc = summarise(RECORDS)["overall"]
    assert acc.ci_low <= acc.accuracy <= acc.ci_high


def test_mean_and_std_over_repeats():
    mean, std = mean_std([0.5, 0.6, 0.7])
    assert mean == pytest.approx(0.6) and std == pytest.approx(0.1)
    assert mean_std([0.4]) == (0.4, None) and mean_std([]) == (None, None)
    second = [dict(r, value="correct") if r["subtask"] == "b1" else r for r in RECORDS]
    spread = over_repeats([summarise(RECORDS), summarise(second)])
    assert spread["overall"]["mean"] == pytest.approx((4 / 9 + 8 / 10) / 2)   # b1: 4 of 4
    assert spread["overall"]["repeats"] == 2
    assert spread["by_domain"]["B"]["mean"] == pytest.approx(0.5)
    assert spread["by_domain"]["B"]["std"] == pytest.approx(math.sqrt(0.5))


@pytest.mark.parametrize("answers, expected", [
    (["A", "A", "B"], "A"), (["A", "B"], None), ([None, None, "C"], "C"), ([], None),
    (["B", "A", "B", "A", "C"], None), (["C", "C", "A", "B", "D"], "C"),
])
def test_majority_vote(answers, expected):
    assert majority_vote(answers)[0] == expected


def _samples(answers, gold="C"):
    return [Verdict("unparsed") if a is None else
            Verdict("correct" if a == gold else "wrong", answer=a) for a in answers]


def test_self_consistency_and_the_mmr_life_rules_differ_as_documented():
    plurality = _samples(["C", "C", "A", "B", "D"])
    assert aggregate_samples(plurality, "majority").value == "correct"
    assert aggregate_samples(plurality, "mmr_life").value == "wrong"       # 2 of 5 is not > 2
    assert aggregate_samples(plurality, "mmr_life_sc").value == "correct"
    tie = _samples(["A", "C", None])
    assert aggregate_samples(tie, "majority").value == "unparsed"
    assert aggregate_samples(tie, "mmr_life_sc").value == "wrong"         # first seen: A
    blank = _samples([None, None, "C"])
    assert aggregate_samples(blank, "majority").value == "correct"        # None casts no vote
    assert aggregate_samples(blank, "mmr_life_sc").value == "unparsed"    # "" wins the paper's
    # vote: no answer, so unparsed (the paper scores it wrong; so does accuracy)
    assert aggregate_samples([Verdict("error")] * 3).value == "error"
    assert aggregate_samples(_samples(["A", "C"]), "first").value == "wrong"
    with pytest.raises(ValueError):
        aggregate_samples(plurality, "median")


def test_a_majority_answer_the_judge_could_not_score_is_unscored_not_unparsed():
    """Two samples "cold winter days" the judge could not decide and one cut off: the
    majority answer was read, so the item is unscored (out of n), not unparsed (wrong)."""
    undecided = Verdict("unscored", answer="cold winter days")
    cut = Verdict("unparsed")
    for rule in ("majority", "mmr_life_sc"):
        assert aggregate_samples([undecided, undecided, cut], rule).value == "unscored", rule
    lone = [Verdict("unscored", answer="No"), cut, cut]
    assert aggregate_samples(lone).value == "unscored"          # the one read answer wins
    assert aggregate_samples(lone, "mmr_life_sc").value == "unparsed"   # the paper's: "" wins
    right = Verdict("correct", answer="cold winter days")
    assert aggregate_samples([undecided, right, cut]).value == "correct"   # scored one decides
    assert aggregate_samples([cut, cut, Verdict("unscored")]).value == "unparsed"  # no answer


@pytest.mark.parametrize("flags, expected", [
    ([True], True), ([False], False), ([], False), ([True, True], False),
    ([True, True, True], True), ([True, True, False, False, False], False),
    ([True, True, True, False, False], True), ([False, False, True, True, True, True], True),
    ([False, False, False, True, True, True, True], False),   # only the first five count
])
def test_mmr_life_item_correct(flags, expected):
    assert mmr_life_item_correct(flags) is expected


def test_mmr_life_vote():
    assert mmr_life_vote(["A", "B"]) == "A" and mmr_life_vote([None, None, "A"]) is None
    assert mmr_life_vote(["B", "A", "A"]) == "A" and mmr_life_vote([]) is None


def test_mcnemar_on_a_small_table_by_hand():
    a = {i: c for i, c in enumerate([1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1])}
    b = {i: c for i, c in enumerate([1, 1, 0, 1, 1, 1, 1, 1, 1, 0, 1, 1])}
    b["extra"] = True
    result = mcnemar(a, b)
    assert (result.n_items, result.both_correct, result.only_a, result.only_b, result.neither) \
        == (12, 4, 1, 6, 1)
    # 7 discordant pairs, 1 against 6: p = 2 * (C(7,0) + C(7,1)) / 2^7 = 16 / 128
    assert result.p_value == pytest.approx(0.125)
    assert [f["item"] for f in result.flips if f["change"] == "lost"] == [2]
    assert len([f for f in result.flips if f["change"] == "gained"]) == 6
    assert result.only_in_b == ["extra"] and result.only_in_a == []


def test_exact_binomial_in_integers_and_in_log_space():
    assert binomial_two_sided(0, 0) == 1.0 and binomial_two_sided(5, 10) == 1.0
    assert binomial_two_sided(0, 10) == pytest.approx(2 / 1024)
    assert binomial_two_sided(10, 10) == binomial_two_sided(0, 10)
    n, k = 3000, 1420                                          # above the integer limit
    exact = 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    assert binomial_two_sided(k, n) == pytest.approx(exact, rel=1e-9)
    assert 0 < binomial_two_sided(9_000, 20_000) < 1e-40


def test_verbench_average_by_hand():
    items = [{"AC": 8, "CC": 6, "RQ": 7, "ER": 9}, {"AC": 4, "CC": 2, "RQ": 3, "ER": 10},
             {"AC": 5, "CC": None, "RQ": 3, "ER": 10}]
    assert verbench_item_average(items[0]) == pytest.approx(75.0)
    summary = verbench_summary(items)
    assert summary["average"] == pytest.approx((75.0 + 47.5) / 2)
    assert summary["AC"] == pytest.approx(60.0) and summary["ER"] == pytest.approx(95.0)
    assert summary["n"] == 2 and summary["unscored"] == 1
    # 2 items: no bootstrap interval (6 equal items once got [65, 65]); from 10 items on, one
    assert (summary["ci_low"], summary["ci_high"]) == (None, None)
    more = verbench_summary(items[:2] * 5)
    assert more["ci_low"] <= more["average"] <= more["ci_high"] and more["n"] == 10


def test_accuracy_intervals_are_wilson_and_honest_at_small_n():
    # 3 of 3: a bootstrap says [100, 100]; Wilson's published value is [43.85, 100]
    all_right = accuracy(["correct"] * 3)
    assert (round(all_right.ci_low * 100, 2), all_right.ci_high) == (43.85, 1.0)
    none_right = accuracy(["wrong"])
    assert none_right.ci_low == 0.0 and round(none_right.ci_high * 100, 2) == 79.35
    # Newcombe (1998), Stat. Med. 17:857, Table I, method 3: 81/263 and 15/148
    assert tuple(round(v, 4) for v in wilson_ci(81, 263)) == (0.2553, 0.3662)
    assert tuple(round(v, 4) for v in wilson_ci(15, 148)) == (0.0624, 0.1605)
    assert wilson_ci(0, 0) == (None, None)


RULES = ("majority", "mmr_life", "mmr_life_sc", "first")


@pytest.mark.parametrize("rule", RULES)
def test_an_item_no_sample_could_score_stays_unscored_under_every_rule(rule):
    assert aggregate_samples([Verdict("unscored")] * 3, rule).value == "unscored"


@pytest.mark.parametrize("rule", ("majority", "mmr_life", "mmr_life_sc"))
def test_unparsed_and_error_stay_true_under_every_rule(rule):
    assert aggregate_samples([Verdict("unparsed")] * 3, rule).value == "unparsed"
    assert aggregate_samples([Verdict("error"), Verdict("unscored")], rule).value == "error"
    mixed = [Verdict("unscored"), Verdict("unparsed"), Verdict("error")]
    assert aggregate_samples(mixed, rule).value == "unparsed"
    # an unscored sample takes no part: the two scored samples decide
    two = [Verdict("unscored"), *_samples(["C", "C"])]
    assert aggregate_samples(two, rule).value == ("wrong" if rule == "mmr_life" else "correct")


def test_repeats_of_an_item_count_once_in_n_and_its_interval():
    """Two repeats of 14 items: n is 14 (not 28), the accuracy the mean share correct, and
    the interval that of 14 items, as wide as a single run's with the same accuracy."""
    records = [{"item_id": f"i{i}", "repeat": k, "domain": "D",
                "value": "correct" if i < 3 else "unscored" if i == 13 else "wrong"}
               for i in range(14) for k in (0, 1)]
    records[1]["value"] = "wrong"                     # i0: right in one repeat of two
    acc = summarise(records)["overall"]
    assert (acc.n, acc.unscored, acc.correct) == (13, 1, 2.5)
    assert acc.n + acc.unscored == 14
    assert acc.correct + acc.unparsed + acc.error + 10.5 == acc.n   # 10.5 wrong
    assert acc.accuracy == pytest.approx(2.5 / 13)
    assert (acc.ci_low, acc.ci_high) == pytest.approx(wilson_ci(2.5, 13))
    single = summarise([r for r in records if r["repeat"] == 0])["overall"]
    assert (single.n, single.correct) == (13, 3)
    # an item unscored in one repeat counts once, on its scored repeat
    records[26]["value"] = "correct"
    assert summarise(records)["overall"].n == 14


def test_a_mean_with_no_honest_interval_says_why_instead_of_a_zero_width_one():
    """VER-Bench once printed "65.0 [65.0, 65.0]": equal averages resample to a zero-width
    interval, as if 12 items had measured the mean exactly."""
    from judges.paper_tables import verbench_table

    equal = verbench_summary([{"AC": 8, "CC": 6, "RQ": 6, "ER": 6}] * 12)
    assert equal["average"] == pytest.approx(65.0)
    assert (equal["ci_low"], equal["ci_high"], equal["ci_note"]) == (None, None, "all equal")
    small = verbench_summary([{"AC": 8, "CC": 6, "RQ": 6, "ER": 6},
                              {"AC": 2, "CC": 6, "RQ": 6, "ER": 6}])
    assert small["ci_low"] is None and small["ci_note"] == "n too small"
    varied = verbench_summary([{"AC": 8, "CC": 6, "RQ": 6, "ER": 6}] * 11
                              + [{"AC": 2, "CC": 6, "RQ": 6, "ER": 6}])
    assert varied["ci_low"] < varied["ci_high"] and varied["ci_note"] == ""
    table = verbench_table({"equal": equal, "small": small, "varied": varied})
    markdown = table.to_markdown()
    assert "65.0 [–: all equal]" in markdown and "[–: n too small]" in markdown
    assert "[65.0, 65.0]" not in markdown and "\\scriptsize [--: all equal]" in table.to_latex()
    rows = {r["run_name"] if "run_name" in r else r["model"]: r
            for r in json.loads(table.to_json())["rows"]}
    assert rows["equal"]["average_pct_ci_low"] is None
    assert rows["equal"]["average_pct_ci_note"] == "all equal"
