"""What a researcher met reading Results and scoring (VER-Bench table, judges, `score`,
`report`, exports, Inspect, pickers), each pinned where it went wrong. Real SQLite, real
scoring and CLI; the judges' verdicts written as an LLM judge's would be.

- VER-Bench averaged sub-scores over samples whatever the Samples rule, and its "Unparsed"
  was not the main table's, without a word: its notes and the Samples control say so;
- a run's numbers rested on a judge that agreed with the other on 0 of 18 without a word;
  a kappa on n 1 or 2 was shown as if it meant something;
- a reply with no answer had CC, RQ and ER graded (ER 10 for no answer);
- `score` printed "6 responses" beside "2 requests" without saying why they differ;
- one run's export was named by its id, a VER-Bench export 'verbench-verbench';
- Inspect showed a location answer raw ("$canada,qc$") beside its gold in words;
- `report --by a --by b` printed the same notes once per breakdown;
- the run pickers named an unnamed run by its id, the tables by its label.
"""
from __future__ import annotations

import json

import pytest

from scoring.score_run import score_run
from tests.scoring_helpers import add_items, cli, judge_says, make_run

ITEMS = [{"id": f"demo/{i}", "answer_type": "yes_no", "answer": "Yes", "domain": f"D{i % 2}",
          "subtask": f"s{i % 3}"} for i in range(6)]
LLM = "llm:judge-model"


@pytest.fixture
def scored(store):
    """Run a, 6 items, all right offline."""
    add_items(store, ITEMS)
    make_run(store, "a", {i["id"]: "Yes." for i in ITEMS})
    score_run(store, "a")
    return store


def test_the_verbench_notes_and_the_samples_control_say_the_samples_rule_does_not_apply():
    from judges.stats import verbench_summary
    from scoring.results import _item_subscores, item_records
    from scoring.verbench_notes import SAMPLES_CONTROL, SAMPLES_NOTE, VERBENCH_RULE
    from ui.results_handlers import SAMPLE_RULE_INFO

    assert SAMPLES_NOTE in VERBENCH_RULE and SAMPLES_CONTROL in SAMPLE_RULE_INFO
    assert "VER-Bench" in SAMPLES_CONTROL
    graded = [{"AC": 10.0, "CC": 10.0, "RQ": 10.0, "ER": 10.0}, {"AC": 0.0, "CC": 0.0,
               "RQ": 0.0, "ER": 0.0}, {"AC": 0.0, "CC": 0.0, "RQ": 0.0, "ER": 0.0}]
    rows = [{"item_id": "x", "repeat": 0, "sample": k, "value": v, "answer": a,
             "completion_tokens": None, "domain": "D", "subtask": "s", "reasoning_type": None,
             "subscores": s} for k, (v, a, s) in enumerate(zip(
                 ("correct", "wrong", "unparsed"), ("Yes", "No", None), graded))]
    # whatever the rule: the mean of the three samples' grades (the majority's "No" or the
    # first sample's "Yes" would give 0 or 100), and not Unparsed (two had an answer)
    for rule in ("majority", "first", "mmr_life_sc"):
        summary = verbench_summary(_item_subscores(item_records(rows, rule)), ci=False)
        assert summary["average"] == pytest.approx(100 / 3) and summary["unparsed"] == 0


def test_a_judge_that_disagrees_with_every_other_is_cautioned_under_the_table(scored):
    store = scored
    from scoring.tables import main_table

    judge_says(store, "a", LLM, lambda item: "wrong")          # offline: all 6 correct
    table = main_table(store, ["a"], judge=LLM)
    assert f"Caution: m · CoT is read by judge {LLM}, which agrees with every other judge " \
        "that scored it on less than 50% of the responses both judges scored (offline on " \
        "0 of 6)" in table.notes
    judge_says(store, "a", LLM, lambda item: "wrong" if item == "demo/0" else "correct")
    assert "Caution" not in main_table(store, ["a"], judge=LLM).notes     # 5 of 6


def test_no_kappa_is_given_on_a_few_responses_nor_when_undefined_and_the_words_say_why():
    from scoring.judge_agreement import agreement_figures, agreement_text

    one = {"a": LLM, "b": "offline", "n": 1, "agreement": 1.0, "kappa": None}
    shown = agreement_figures(one, "general")
    assert shown["kappa"] is None and shown["n"] == 1
    assert shown["kappa_note"] == ("no Cohen's kappa on 1 response, which needs at least 10: "
                                   "on so few, one response more or less moves it by tenths")
    two = {**one, "n": 2, "kappa": 1.0}
    assert agreement_figures(two, "general")["kappa"] is None      # 1.00 on n 2 was shown
    same = {**one, "n": 12, "kappa": None}
    assert "undefined, both judges gave every response the same single value" in \
        agreement_text(same, "general")
    many = {**one, "n": 12, "agreement": 0.75, "kappa": 0.5}
    assert agreement_figures(many, "general")["kappa"] == 0.5
    assert "Cohen's kappa 0.50" in agreement_text(many, "general")


def test_an_unparsed_reply_scored_before_is_read_ungraded_zero_on_all_four():
    from scoring.results import counted_subscores

    stored = json.dumps({"AC": 7, "CC": 6, "RQ": 6, "ER": 10})   # the judge graded no answer
    assert counted_subscores("unparsed", stored) == {"AC": 0.0, "CC": 0.0, "RQ": 0.0,
                                                     "ER": 0.0}
    assert counted_subscores("unparsed", "{}")["ER"] == 0.0        # the judge failed on it
    assert counted_subscores("correct", stored)["ER"] == 10


def test_the_judge_line_says_why_its_requests_are_not_the_responses():
    from scoring.judge_client import counts_text

    counts = {"judge": "llm:j", "requests": 2, "answered": 0, "cached": 2, "failed": 0,
              "unreadable": 0, "failures": {}}
    text = counts_text(counts, 6)
    assert text.startswith("llm:j: 2 requests: 0 answered, 2 from the cache, 0 failed; 2 "
                           "requests for 6 responses: one per distinct prompt (identical "
                           "prompts, as of identical samples, are asked once")
    assert "the 2 answered before are served from the cache, not sent" in text
    assert counts_text(counts) == "llm:j: 2 requests: 0 answered, 2 from the cache, 0 failed"


def test_an_export_is_named_by_the_runs_label_and_says_each_word_once(scored):
    store = scored
    from ui.export_names import download_name

    assert download_name(store, "main", "general", ["a"], "csv", today="20260101") == \
        "cluelab-main-general-demo-m-CoT-20260101.csv"
    store.label_run("a", name="Baseline 1")
    assert download_name(store, "verbench", "verbench", ["a"], "md", today="20260101") == \
        "cluelab-verbench-demo-Baseline_1-20260101.md"


def test_inspect_shows_a_location_answer_in_words_as_its_gold():
    from ui.inspect_browser import _row
    from ui.inspect_handlers import answer_md

    view = {"response": {"status": "ok", "answer": "$canada,qc$", "reason": None}}
    assert answer_md(view).startswith("**Extracted answer:** Canada, Quebec · status")
    row = {"work_id": 1, "run_id": "r", "item_id": "i", "repeat": 0, "sample": 0,
           "status": "ok", "answer": "$canada,qc$", "gold": "$canada,quebec$",
           "general": "correct", "rigorous": None, "grounded": None, "tags": None}
    assert _row(None, row, {}, {"r": {}}, {})[5:7] == ["Canada, Quebec", "Canada, Quebec"]


def test_report_by_several_breakdowns_prints_their_shared_notes_once(scored):
    store = scored
    code, out, err = cli("report", "--db", store.path, "--run", "a", "--by", "domain",
                         "--by", "subtask")
    assert code == 0, err
    assert out.count("**Accuracy (%), general protocol") == 2
    assert out.count("Accuracy is micro-averaged") == 1
    assert "Notes (every table above): Accuracy is micro-averaged" in out


def test_the_run_pickers_name_an_unnamed_run_as_the_tables_do(scored):
    """Its model and setting as the tables title it (it was its id, then 'e (m) · cot ·
    clues none · …'), in the one form of every picker, its id last: unnamed runs of one
    model and setting share the label."""
    from scoring.compared import labels
    from ui import inspect_browser, results_handlers

    store = scored
    make_run(store, "b", {i["id"]: "No." for i in ITEMS}, model="m2", setting="direct")
    table = labels(store, ["a", "b"])
    assert table == {"a": "m · CoT", "b": "m2 · No-CoT"}
    for choices in (results_handlers.run_choices(store), inspect_browser.run_choices(store)):
        shown = {rid: label for label, rid in choices}
        for rid in ("a", "b"):
            model, setting = table[rid].split(" · ")
            assert shown[rid] == f"e ({model}) · {setting} · clues none · images full · " \
                f"created · id {rid}"
