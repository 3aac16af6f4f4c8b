"""Numbers of runs with several samples and repeats: n counts items and every samples rule
keeps unscored, unparsed and error counts true (a real store, the real CLI)."""
import csv
import io
import json

import pytest

from scoring.results import run_summary
from scoring.score_run import score_run
from tests.scoring_helpers import NOT_RUN, add_items, cli, make_run

MC = "multiple_choice"
ITEMS = [{"id": "r/0", "answer_type": MC, "answer": "A", "domain": "D", "subtask": "x"},
         {"id": "r/1", "answer_type": "open", "answer": "a red umbrella", "domain": "L",
          "subtask": "y"},
         {"id": "r/2", "answer_type": MC, "answer": "B", "domain": "D", "subtask": "x"},
         {"id": "r/3", "answer_type": MC, "answer": "C", "domain": "D", "subtask": "x"}]
# 3 samples x 2 repeats: right; an open answer no rule can decide (unscored in every sample);
# two final letters in every sample (unparsed); wrong in five samples, failed in one
REPLIES = {"r/0": ["Answer: A"] * 6, "r/1": ["Answer: an umbrella, red"] * 6,
           "r/2": ["Answer: A\nAnswer: C"] * 6, "r/3": ["Answer: D"] * 5 + [None]}


@pytest.fixture
def sampled(store):
    add_items(store, ITEMS)
    make_run(store, "sc", REPLIES, samples=3, repeats=2)
    score_run(store, "sc")
    return store


@pytest.mark.parametrize("rule", ["majority", "mmr_life_sc", "first"])
def test_every_samples_rule_counts_items_and_keeps_non_answers_true(sampled, rule):
    code, out, err = cli("report", "--db", sampled.path, "--run", "sc", "--json",
                         "--samples-rule", rule)
    assert code == 0, err
    report = json.loads(out)
    overall = report["overall"]
    # n counts the 3 scored items, not 18 responses or 6 item x repeat records
    assert (overall["n"], overall["unscored"]) == (3, 1)
    assert overall["correct"] == 1 and overall["unparsed"] == 1
    assert overall["correct"] + overall["unparsed"] + overall["error"] <= overall["n"]
    assert report["by_domain"]["L"]["n"] == 0 and report["by_domain"]["L"]["unscored"] == 1
    assert report["by_domain"]["D"]["n"] == 3
    each = report["per_response"]                 # every response's own verdict
    assert (each["n"], each["unscored"], each["unparsed"], each["error"]) == (18, 6, 6, 1)
    assert each["unparsed_rate"] == pytest.approx(6 / 18)


def test_mmr_lifes_rule_decides_five_samples_and_is_refused_on_two_to_four(sampled):
    """'More than 2 of the first 5 correct' on 3 samples silently meant 'all 3': refused,
    saying why, in report and compare alike; on 5 samples (or 1) it is the paper's rule."""
    for command in (["report", "--run", "sc"], ["compare", "sc", "sc"]):
        code, _, err = cli(*command, "--db", sampled.path, "--samples-rule", "mmr_life")
        assert code == 2 and "run sc: the samples rule MMR-Life (mmr_life; the paper's: more " \
            "than 2 of the first 5 samples correct) needs 5 samples per item, or 1; with 3 an item " \
            "would need all 3 samples right" in err, err
    make_run(sampled, "five", {"r/0": ["Answer: A"] * 3 + ["Answer: B"] * 2,
                               "r/2": ["Answer: B"] * 2 + ["Answer: A"] * 3,
                               "r/3": ["Answer: D"] * 4 + [None]}, samples=5)
    make_run(sampled, "single", {"r/0": "Answer: A", "r/2": "Answer: A"})
    for run in ("five", "single"):
        score_run(sampled, run)
    five = run_summary(sampled, "five", samples_rule="mmr_life")["summary"]["overall"]
    assert (five.n, five.correct, five.error) == (3, 1, 0)      # r/0: 3 of 5 right
    single = run_summary(sampled, "single", samples_rule="mmr_life")["summary"]["overall"]
    assert (single.n, single.correct) == (2, 1)


def test_repeats_do_not_narrow_the_interval(sampled):
    """Two repeats of the same answers: the interval is the single repeat's, over 3 items."""
    both = run_summary(sampled, "sc")["summary"]["overall"]
    make_run(sampled, "one", {k: v[:3] for k, v in REPLIES.items()}, samples=3)
    score_run(sampled, "one")
    single = run_summary(sampled, "one")["summary"]["overall"]
    assert (both.n, both.accuracy) == (single.n, single.accuracy) == (3, pytest.approx(1 / 3))
    assert (both.ci_low, both.ci_high) == (single.ci_low, single.ci_high)
    code, out, _ = cli("leaderboard", "--db", sampled.path, "--runs", "sc,one", "--format",
                       "csv")
    rows = list(csv.DictReader(io.StringIO(out.strip())))
    assert code == 0 and {r["run_id"]: r["n"] for r in rows} == {"sc": "3", "one": "3"}
    code, out, _ = cli("compare", "--db", sampled.path, "sc", "one", "--json")
    assert code == 0 and (json.loads(out)["items_a"], json.loads(out)["items_b"]) == (3, 3)


def _repeats_and_one(store) -> None:
    """Run "rep": 3 repeats, right on r/0 and r/2 in 2 of 3 and on r/3 in all; run "one":
    right on r/3 only. Both scored offline."""
    add_items(store, [spec for spec in ITEMS if spec["answer_type"] == MC])
    make_run(store, "rep", {"r/0": ["Answer: B", "Answer: A", "Answer: A"],
                            "r/2": ["Answer: C", "Answer: B", "Answer: B"],
                            "r/3": ["Answer: C"] * 3}, repeats=3)
    make_run(store, "one", {"r/0": "Answer: B", "r/2": "Answer: C", "r/3": "Answer: C"})
    score_run(store, "rep")
    score_run(store, "one")


def test_compare_decides_each_item_from_all_its_repeats_and_says_the_rule(store):
    """Repeat 0 is wrong on r/0 and r/2 but the other two repeats are right: McNemar sees
    one outcome per item, decided by the samples rule over every repeat, not repeat 0."""
    _repeats_and_one(store)
    code, out, err = cli("compare", "--db", store.path, "rep", "one", "--json")
    result = json.loads(out)
    assert code == 0, err
    assert (result["only_a"], result["only_b"], result["both_correct"]) == (2, 0, 1)
    assert result["outcome_accuracy_a"] == 1.0                    # McNemar's outcomes
    assert result["outcome_accuracy_b"] == pytest.approx(1 / 3)
    assert (result["max_responses_per_item_a"], result["max_responses_per_item_b"]) == (3, 1)
    assert "responses_a" not in result                     # an unexplained name is gone
    assert "samples rule majority" in result["rule"] and "every repeat" in result["rule"]
    code, out, _ = cli("compare", "--db", store.path, "rep", "one", "--samples-rule", "first")
    assert code == 0 and "right in A only 0, in B only 0, both 1" in out
    assert "samples rule first" in out


def test_the_spread_over_repeats_of_a_cancelled_run_is_on_the_items_every_repeat_scored(store):
    """Cancelled before r/0's second repeat and r/3's first: the accuracy is on all 4 items
    (r/0 right, r/2 half, r/3 wrong...), the spread on the 2 both repeats scored (each repeat
    on the same items, not 3 different ones), saying its n and why; every group the same."""
    add_items(store, [{**spec, "answer_type": MC, "answer": "A",
                       "subtask": "only" if spec["id"] == "r/0" else "x"} for spec in ITEMS])
    make_run(store, "cut", {"r/0": ["Answer: A", NOT_RUN], "r/1": ["Answer: A", "Answer: A"],
                            "r/2": ["Answer: B", "Answer: B"], "r/3": [NOT_RUN, "Answer: A"]},
             repeats=2)
    score_run(store, "cut")
    code, out, err = cli("report", "--db", store.path, "--run", "cut", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["overall"]["n"] == 4 and report["overall"]["accuracy"] == 0.75
    spread = report["repeats"]
    assert spread["overall"] == {"mean": 0.5, "std": 0.0, "repeats": 2, "n": 2}
    assert "only" not in spread["by_subtask"]      # r/0 was scored in one repeat only
    assert {e["repeats"] for g in ("by_domain", "by_subtask")
            for e in spread[g].values()} == {2}
    assert "on the 2 items all 2 repeats scored" in spread["note"]
    code, out, _ = cli("report", "--db", store.path, "--run", "cut")
    assert "over 2 repeats (n 2): 50.00 ± 0.00 (mean ± SD of the 2 per-repeat accuracies); " \
        "the spread over 2 repeats is on the 2 items" in out


def test_the_results_page_shows_the_spread_over_repeats_report_prints(store):
    """A review: `report` printed "over 2 repeats (n 3): 16.67 ± 23.57", the Results page
    nothing of it. Its reading lines now say the same words."""
    import html

    from ui.results_handlers import show_results

    add_items(store, [{**spec, "answer_type": MC, "answer": "A"} for spec in ITEMS])
    make_run(store, "twice", {"r/0": ["Answer: A", "Answer: B"], "r/1": ["Answer: B"] * 2,
                              "r/2": ["Answer: B"] * 2, "r/3": ["Answer: B"] * 2}, repeats=2)
    score_run(store, "twice")
    code, out, _ = cli("report", "--db", store.path, "--run", "twice")
    [line] = [line for line in out.splitlines() if line.startswith("over 2 repeats")]
    assert code == 0 and line.startswith("over 2 repeats (n 4): 12.50 ± 17.68")
    page = html.unescape(show_results(store, ["twice"])["rules"]).replace("\\", "")
    assert line[0].upper() + line[1:] in page, page     # a sentence of its own there


def test_compare_headlines_the_accuracy_report_and_leaderboard_give(store):
    """compare headlined a majority over repeats (1.0 here, 57.14% in the review) where
    report and leaderboard said each item's share over its repeats (7/9): the same run's
    accuracy is one number everywhere, McNemar's outcomes' accuracy named apart."""
    _repeats_and_one(store)
    code, out, err = cli("report", "--db", store.path, "--run", "rep", "--json")
    assert code == 0, err
    reported = json.loads(out)["overall"]["accuracy"]
    assert reported == pytest.approx(7 / 9)
    code, out, _ = cli("leaderboard", "--db", store.path, "--runs", "rep,one", "--format",
                       "json")
    board = {r["run_id"]: r["overall_pct"] for r in json.loads(out)["rows"]}
    code, out, err = cli("compare", "--db", store.path, "rep", "one", "--json")
    result = json.loads(out)
    assert code == 0, err
    assert result["accuracy_a"] == pytest.approx(reported) and result["accuracy_n_a"] == 3
    assert board["rep"] == round(reported * 100, 2)
    assert "as report and leaderboard count" in result["accuracy_basis"]
    code, out, _ = cli("compare", "--db", store.path, "rep", "one")
    headline, outcomes = out.splitlines()[:2]
    assert f"{reported * 100:.2f}%" in headline and "as report and leaderboard count" in headline
    assert outcomes.startswith("McNemar's outcomes (one per item, all its repeats and samples "
                               "decided by majority): A 100.00%, B 33.33%")
