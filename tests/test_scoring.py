"""Scoring runs end to end: a real SQLite store, hand-made runs written through the store, the
real fake OpenAI server as the judge (canned and malformed replies), the real CLI."""
import contextlib
import io
import json

import pytest

from cli import main
from judges.paired import binomial_two_sided
from scoring.results import ResultsError, run_summary
from scoring.score_run import ScoringError, score_run
from tests.openai_server import start_server
from tests.scoring_helpers import add_items, make_run

MC = "multiple_choice"
ITEMS = [  # domain A: 4 items, domain B: 2 items
    {"id": "t/1", "answer_type": MC, "answer": "A", "domain": "A", "subtask": "a1"},
    {"id": "t/2", "answer_type": MC, "answer": "B", "domain": "A", "subtask": "a1"},
    {"id": "t/3", "answer_type": "yes_no", "answer": "Yes", "domain": "A", "subtask": "a2"},
    {"id": "t/4", "answer_type": "numeric", "answer": "12", "domain": "A", "subtask": "a2"},
    {"id": "t/5", "answer_type": "open", "answer": "Paris", "domain": "B", "subtask": "b1",
     "clues": [{"text": "Eiffel Tower on the skyline", "reasoning": "", "boxes": []}]},
    {"id": "t/6", "answer_type": "open", "answer": "a red umbrella", "domain": "B",
     "subtask": "b1"},
]
# correct, two final letters (unparsed), wrong, call failed (error), needs the judge x 2
REPLIES = {"t/1": "Answer: A", "t/2": "Answer: A\nAnswer: C", "t/3": "No.", "t/4": None,
           "t/5": "Clue 1: the Eiffel Tower\nAnswer: the French capital",
           "t/6": "Answer: an umbrella, red"}
JUDGE = {"Model's answer: the French capital": '{"verdict": "correct", "reason": "Paris"}',
         "Model's answer: an umbrella, red": "it is fine I guess",          # malformed
         "Ground-truth clues:": '{"clues": [{"model_clue": 1, "label": "match", "gt_clue": 1}]}'}


def cli(*args):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in args])
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def server():
    with start_server(replies=JUDGE) as handle:
        yield handle


@pytest.fixture
def scored(store):
    add_items(store, ITEMS)
    return make_run(store, "r1", REPLIES)


def chats(server):
    return [r for r in server.requests() if r["path"].endswith("/chat/completions")]


def test_offline_aggregation_matches_hand_computation(store, scored):
    result = score_run(store, "r1", protocol="general")
    assert result["values"]["general offline"] == {"correct": 1, "unparsed": 1, "wrong": 1,
                                                   "error": 1, "unscored": 2}
    s = run_summary(store, "r1")["summary"]
    # open answers left unscored without a judge: n = 4, 1 correct
    assert (s["overall"].n, s["overall"].correct, s["overall"].unscored) == (4, 1, 2)
    assert s["overall"].accuracy == 0.25 and s["overall"].unparsed_rate == 0.25
    assert s["overall"].error_rate == 0.25
    assert s["by_domain"]["A"].accuracy == 0.25 and s["by_domain"]["B"].n == 0
    assert s["by_subtask"]["a1"].accuracy == 0.5 and s["by_subtask"]["a2"].accuracy == 0.0
    assert s["overall"].ci_low <= 0.25 <= s["overall"].ci_high
    code, out, _ = cli("report", "--db", store.path, "--run", "r1")
    # every rate is over the count it names: 1 of the 4 scored, the 2 unscored apart
    assert code == 0 and ("per response (all 6, before samples are aggregated): unscored 2; "
                          "of the 4 scored: unparsed 1 (25.00%), error 1 (25.00%)") in out


def test_the_results_page_says_n_0_for_a_domain_where_no_item_was_scored(store, scored):
    """Domain B holds the two open answers, unscored without a judge: its bar was simply
    missing from the page's chart (and B with it, being its only run)."""
    from ui.results_handlers import show_results

    score_run(store, "r1", protocol="general")
    chart = show_results(store, ["r1"])["group_chart"]
    assert '<title>m · CoT · B: n=0, no item scored (2 unscored)</title>n=0</text>' in chart


def test_judge_scores_open_answers_malformed_reply_is_unscored_and_asked_again(
        store, scored, server):
    """Re-scoring takes the judge's readable replies from the cache; the malformed one was
    not cached (it was held against the item for ever: "0 sent, 21 from the cache, 0
    failed" while 14 verdicts were unreadable), so only such replies are asked again."""
    server.reset_log()
    store.add_endpoint("judge", server.url, "gpt-4o-mini")
    first = score_run(store, "r1", protocol="all", judges=["judge"])
    assert first["judges"][0]["sent"] == len(chats(server)) > 0
    general = {r["item_id"]: r for r in store.run_scores("r1", "general", "llm:judge",
                                                         full=True)}
    assert general["t/5"]["value"] == "correct" and "Reference answer: Paris" in \
        general["t/5"]["judge_prompt"] and "Paris" in general["t/5"]["judge_reply"]
    assert general["t/6"]["value"] == "unscored"
    assert general["t/6"]["judge_reply"] == "it is fine I guess"
    assert general["t/1"]["decided_by"] == "rule:multiple_choice"
    rigorous = {r["item_id"]: r for r in store.run_scores("r1", "rigorous", "llm:judge",
                                                          full=True)}
    assert rigorous["t/5"]["value"] == "correct" and rigorous["t/5"]["details"]["clue_match"]
    assert rigorous["t/1"]["value"] == "unscored"           # no GT clues to intersect
    rows_before = len(store.run_scores("r1"))
    # unreadable: t/6's open answer and the 4 VER-Bench prompts (the server's default reply
    # holds no scores; t/2, no answer read, is not sent to VER-Bench's judge)
    assert first["judges"][0]["unreadable"] == 5
    server.reset_log()
    second = score_run(store, "r1", protocol="all", judges=["judge"])
    asked = chats(server)
    assert len(asked) == second["judges"][0]["sent"] == 5       # only the unreadable ones
    assert second["judges"][0]["cached"] == first["judges"][0]["sent"] - 5
    # an unreadable reply is a failed request: the counters add up to the requests
    assert second["judges"][0]["unreadable"] == 5 and second["judges"][0]["failed"] == 5
    for counts in (first["judges"][0], second["judges"][0]):
        assert counts["answered"] + counts["cached"] + counts["failed"] == counts["requests"]
    assert second["judges"][0]["requests"] == first["judges"][0]["requests"]
    code, out, _ = cli("score", "--db", store.path, "--run", "r1", "--judge", "judge",
                       "--protocol", "all", "--no-cache")
    sent = first["judges"][0]["sent"]                           # everything asked again
    assert code == 0 and f"llm:judge: {sent} requests: {sent - 5} answered, 0 from the cache, " \
        "5 failed (5 replies unreadable: unscored, not cached, so the next scoring asks again)" in out
    assert len(store.run_scores("r1")) == rows_before      # upserted, not duplicated
    s = run_summary(store, "r1", "general", "llm:judge")["summary"]["overall"]
    assert (s.n, s.correct, s.unscored) == (5, 2, 1)
    code, out, _ = cli("report", "--db", store.path, "--run", "r1", "--json")
    report = json.loads(out)
    assert code == 0 and {"overall", "by_domain", "by_subtask"} <= set(report)
    for block in [report["overall"], *report["by_domain"].values(),
                  *report["by_subtask"].values()]:
        assert {"accuracy", "n", "ci_low", "ci_high", "unparsed_rate", "error_rate"} <= set(block)
    assert report["judge"] == "llm:judge" and report["overall"]["n"] == 5


def test_panel_of_two_judges_votes_and_reports_agreement(store, scored, server):
    store.add_endpoint("j1", server.url, "gpt-4o-mini")
    store.add_endpoint("j2", server.url, "fake-vlm")
    result = score_run(store, "r1", protocol="general", judges=["j1", "j2"])
    assert "general panel:j1+j2" in result["values"]
    panel = {r["item_id"]: r for r in store.run_scores("r1", "general", "panel:j1+j2")}
    assert panel["t/5"]["value"] == "correct"
    assert panel["t/5"]["subscores"]["votes"] == {"llm:j1": "correct", "llm:j2": "correct"}
    code, out, _ = cli("report", "--db", store.path, "--run", "r1")
    assert code == 0 and "judge panel:j1+j2" in out
    assert "agreement llm:j1 vs llm:j2: 100.00%" in out


def test_a_panel_of_one_judge_twice_is_refused_before_anything_is_sent(store, scored, server):
    """j1 and j2: one model at one URL (a trailing slash apart) with the same parameters.
    Before, j2 took every reply of j1's from the cache: a 'second opinion' that was a copy,
    and 'agreement llm:j1 vs llm:j2: 100.00%'. Refused, naming both, sending nothing and
    writing nothing; the same endpoint named twice too; other parameters make another judge."""
    from ui.results_handlers import ResultsUiError, score_runs

    store.add_endpoint("j1", server.url, "gpt-4o-mini")
    store.add_endpoint("j2", server.url + "/", "gpt-4o-mini")
    server.reset_log()
    with pytest.raises(ScoringError, match=r"judges llm:j1 and llm:j2 are one judge: the same "
                                           r"model \(gpt-4o-mini\) at the same URL"):
        score_run(store, "r1", protocol="general", judges=["j1", "j2"])
    code, _, err = cli("score", "--db", store.path, "--run", "r1", "--judge", "j1,j2")
    assert code == 2 and "would only repeat the first's replies" in err
    with pytest.raises(ResultsUiError, match="are one judge"):           # the Results page
        score_runs(store, ["r1"], ["j1", "j2"], "general")
    with pytest.raises(ScoringError, match="judge llm:j1 is named twice"):
        score_run(store, "r1", protocol="general", judges=["j1", "j1"])
    assert chats(server) == [] and store.run_scores("r1") == []
    store.add_endpoint("j3", server.url, "gpt-4o-mini", params={"top_p": 0.5})
    result = score_run(store, "r1", protocol="general", judges=["j1", "j3"])
    assert "general panel:j1+j3" in result["values"]


def test_verbench_needs_a_judge_and_reads_sub_scores(store, scored, server):
    with pytest.raises(ScoringError, match="needs an LLM judge"):
        score_run(store, "r1", protocol="verbench")
    server.configure(replies={**JUDGE, "AC (answer correctness)":
                              '{"AC": 8, "CC": 6, "RQ": 4, "ER": 10}'})
    try:
        store.add_endpoint("vb", server.url, "gpt-4o-mini")
        score_run(store, "r1", protocol="verbench", judges=["vb"])
    finally:
        server.configure(replies=JUDGE)
    summary = run_summary(store, "r1", "verbench")["summary"]
    # four outputs judged 8/6/4/10 (average 70), but t/3, "No." for the gold Yes (the rule
    # reads it wrong), has AC 0 (average 50); t/2, no answer read, is not graded and the
    # failed call neither: 0 on all four
    assert summary["n"] == 6 and summary["average"] == pytest.approx((3 * 70 + 50) / 6)
    assert summary["AC"] == pytest.approx(3 * 8 / 6 * 10) and summary["unparsed"] == 1
    from scoring.tables import verbench_results
    table = verbench_results(store, ["r1"])        # n, unparsed, unscored, judge as columns
    assert [c.key for c in table.columns][-4:] == ["n", "unparsed", "unscored", "judge"]
    [row] = table.rows
    assert (row["n"], row["unparsed"], row["unscored"], row["judge"]) == (6, 1, 0, "llm:vb")
    assert row["average_ci_low"] is None and "from 10 items on" in table.notes  # 6 items
    assert "| Judge |" in table.to_markdown() and "Unscored" in table.to_markdown()
    from scoring.tables import main_table
    with pytest.raises(ResultsError, match="four sub-scores"):   # a KeyError before
        main_table(store, ["r1"], protocol="verbench")
    reasons = {r["rationale"] for r in store.run_scores("r1", "verbench", "llm:vb", full=True)}
    assert any(r.startswith("AC 8 >= 5, shown as correct; average 7.0 of 10") for r in reasons)


def test_verdict_counts_name_every_part_and_add_up_to_the_total():
    from scoring.score_run import values_text

    assert values_text({"error": 1, "correct": 2, "unparsed": 1}) == \
        "4 responses: correct 2, wrong 0, unparsed 1, error 1, unscored 0"
    assert values_text({}) == "no responses to score"


def test_verbench_counts_an_unparsed_reply_as_unparsed_not_correct(store, scored, server):
    """The judge gives every output AC 8: t/2 (two final letters, no answer read) was
    counted "correct" by `score`'s line ("correct 5, error 1"); it is unparsed, kept apart,
    and the parts add up to the 6 responses. Its AC counts 0 (the judge's 8 kept in the
    details), so VER-Bench's numbers do not count a guessed answer either."""
    server.configure(replies={**JUDGE, "AC (answer correctness)":
                              '{"AC": 8, "CC": 6, "RQ": 4, "ER": 10}'})
    try:
        store.add_endpoint("vb", server.url, "gpt-4o-mini")
        code, out, err = cli("score", "--db", store.path, "--run", "r1", "--judge", "vb",
                             "--protocol", "verbench")
        from ui.results_handlers import score_runs
        page = score_runs(store, ["r1"], ["vb"], "verbench")      # the Results page's words
    finally:
        server.configure(replies=JUDGE)
    assert code == 0, err
    assert "verbench llm:vb: 6 responses: correct 3, wrong 1, unparsed 1, error 1, " \
        "unscored 0" in out         # t/3, "No." for the gold Yes, is wrong whatever its AC
    verbench = [[c.strip() for c in line.strip("|").split("|")] for line in page.splitlines()
                if line.startswith("| ") and "| verbench" in line]   # the page's table row
    assert [row[2:7] for row in verbench] == [["3", "1", "1", "1", "0"]]
    rows = {r["item_id"]: r for r in store.run_scores("r1", "verbench", "llm:vb", full=True)}
    assert rows["t/2"]["value"] == "unparsed" and rows["t/2"]["rationale"].startswith(
        "unparsed: no answer could be read")
    assert rows["t/2"]["subscores"] == {"AC": 0, "CC": 0, "RQ": 0, "ER": 0}   # not graded
    assert rows["t/2"]["judge_prompt"] is None                                # not asked
    assert "shown as correct" not in rows["t/2"]["rationale"]
    assert rows["t/4"]["value"] == "error"
    summary = run_summary(store, "r1", "verbench")["summary"]
    assert summary["n"] == 6 and summary["average"] == pytest.approx((3 * 70 + 50) / 6)


def test_a_verbench_verdict_is_counted_by_the_rule_of_every_protocol():
    """The model's unparsed reply is unparsed whatever the judge gave it (it was unscored
    without sub-scores: "unparsed 0, unscored 14" beside general's "unparsed 9"); any other
    verdict without all four is unscored; a split panel's graded means are "split"."""
    from judges.stats import verbench_counter

    full = {"AC": 1, "CC": 2, "RQ": 3, "ER": 4}
    assert verbench_counter("unparsed", {}) == "unparsed"
    assert verbench_counter("unparsed", full) == "unparsed"
    assert verbench_counter("correct", {"AC": 8}) == "unscored"
    assert verbench_counter("unscored", {}) == "unscored"
    assert verbench_counter("unscored", full) == "split"      # a split panel's graded means


def test_a_clue_judge_that_cannot_be_read_is_said_to_bias_rigorous(store, scored, server):
    """Only right answers go to the clue judge: with its replies unreadable they all became
    unscored, and rigorous read 0.00 on the wrong ones left, with nothing said. Now
    scoring says so (the right answers left out, the accuracy biased low)."""
    server.configure(replies={**JUDGE, "Ground-truth clues:": "no idea"})
    try:
        store.add_endpoint("clue-bad", server.url, "gpt-4o-mini")
        result = score_run(store, "r1", protocol="rigorous", judges=["clue-bad"],
                           use_cache=False)
    finally:
        server.configure(replies=JUDGE)
    [note] = [n for n in result["notes"] if n.startswith("rigorous llm:clue-bad") and
              "biased low" in n]
    assert "clues of 1 of the 1 right responses it was asked about (of 1 item" in note and \
        "biased low" in note
    store.add_endpoint("clue-good", server.url, "gpt-4o-mini", params={"temperature": 0.5})
    fine = score_run(store, "r1", protocol="rigorous", judges=["clue-good"])
    assert not [n for n in fine["notes"] if n.startswith("rigorous") and
                "unscored, by reason" not in n]     # that one names every unscored reason


def test_samples_repeats_and_paired_comparison(store):
    add_items(store, [{"id": f"s/{i}", "answer_type": MC, "answer": "A", "domain": "D",
                       "subtask": "x"} for i in range(4)])
    three = {"s/0": ["Answer: A", "Answer: A", "Answer: B"],   # majority right
             "s/1": ["Answer: B", "Answer: A", "Answer: C"],   # tie -> unparsed
             "s/2": ["Answer: B", "Answer: B", "Answer: A"],   # majority wrong
             "s/3": ["Answer: A", "Answer: A", "Answer: A"]}
    make_run(store, "samples", three, samples=3)
    score_run(store, "samples")
    assert run_summary(store, "samples")["summary"]["overall"].correct == 2
    with pytest.raises(ResultsError, match="needs 5 samples per item"):  # not 'all 3 right'
        run_summary(store, "samples", samples_rule="mmr_life")
    make_run(store, "reps", {f"s/{i}": ["Answer: A", "Answer: A" if i < 2 else "Answer: B"]
                             for i in range(4)}, repeats=2)
    score_run(store, "reps")
    spread = run_summary(store, "reps")["repeats"]["overall"]
    assert spread["mean"] == pytest.approx(0.75) and spread["std"] == pytest.approx(0.3536, 1e-3)
    make_run(store, "a", {f"s/{i}": "Answer: A" for i in range(4)})
    make_run(store, "b", {"s/0": "Answer: A", "s/1": "Answer: A", "s/2": "Answer: B",
                          "s/3": "Answer: B"})
    score_run(store, "a")
    score_run(store, "b")
    code, out, _ = cli("compare", "--db", store.path, "a", "b", "--json")
    result = json.loads(out)
    assert (result["only_a"], result["only_b"], result["both_correct"]) == (2, 0, 2)
    assert result["p_value"] == binomial_two_sided(2, 2) == 0.5
    assert sorted(f["item"] for f in result["flips"]) == ["s/2", "s/3"]
    code, out, _ = cli("leaderboard", "--db", store.path, "--runs", "a,b", "--format", "csv")
    assert code == 0 and out.splitlines()[0].startswith("run_id,run_name,run_label,model,run_status,protocol,samples_rule,from_cache,overall_pct,n")


def test_grounded_rigor_converts_boxes_of_a_downscaled_image(store):
    gt = [{"text": "Eiffel Tower", "reasoning": "", "boxes": []}]
    add_items(store, [{"id": "g/1", "answer_type": "yes_no", "answer": "Yes", "domain": "G",
                       "subtask": "g", "clues": gt}], width=2000, height=1000)
    item = store.get_item("g/1")
    item["clues"][0]["boxes"] = [{"image": item["images"][0], "x0": 100, "y0": 100,
                                  "x1": 500, "y1": 300}]
    store.save_item(item, item["version"], "test")
    # sent at 1000 x 500: the model's pixel box is half the original coordinates
    reply = '{"answer": "Yes", "clues": [{"clue": "the Eiffel Tower", "box": [50, 50, 250, 150]}]}'
    make_run(store, "grd", {"g/1": reply}, setting="structured", image_max_pixels=500_000,
             sent_size=(1000, 500))
    score_run(store, "grd", protocol="all")
    row = store.run_scores("grd", "grounded", "offline", full=True)[0]
    assert row["value"] == "correct" and row["details"]["best_iou"] == [1.0]
    assert row["details"]["convention"] == "pixels"
    code, out, _ = cli("table", "--db", store.path, "--kind", "drop", "--runs", "grd")
    assert code == 0 and "Grounded-rigorous" in out


def test_unknown_judge_and_unscored_run_are_readable_errors(store, scored):
    code, _, err = cli("score", "--db", store.path, "--run", "r1", "--judge", "nope")
    assert code == 2 and "nope" in err
    code, _, err = cli("report", "--db", store.path, "--run", "r1")
    assert code == 2 and "score" in err


def test_fast_summary_equals_the_judges_summary():
    import random

    from judges.stats import summarise, summary_to_dict
    from scoring.results import GROUPS, fast_summarise

    rng = random.Random(3)
    records = [{"value": rng.choice(["correct", "wrong", "unparsed", "error", "unscored"]),
                "domain": rng.choice(["A", "B", None]), "subtask": rng.choice("xyz"),
                "reasoning_type": None} for _ in range(500)]
    assert summary_to_dict(fast_summarise(records)) == summary_to_dict(summarise(records, GROUPS))


def test_a_panel_verdict_a_rule_decided_says_so_not_n_of_n_judges(store, scored, server):
    """t/1 is multiple choice: each panel member's verdict is decided by the rule, no judge
    asked. The panel's verdict read "2 of 2 judges: …", claiming a judgement nobody made;
    it says the rule decided it (Inspect's verdict table too), and t/5, which the judges
    were asked about, still counts their votes."""
    from ui import inspect_handlers as ih
    store.add_endpoint("j1", server.url, "gpt-4o-mini")
    store.add_endpoint("j2", server.url, "fake-vlm")
    score_run(store, "r1", protocol="general", judges=["j1", "j2"])
    panel = {r["item_id"]: r for r in store.run_scores("r1", "general", "panel:j1+j2")}
    view = ih.response_view(store, panel["t/1"]["work_id"])
    row = next(v for v in ih.verdict_table(view).data.values.tolist() if v[1] == "panel:j1+j2")
    assert row[4] == "rule:multiple_choice"
    assert row[5].startswith("decided by the rule rule:multiple_choice, no judge asked: ")
    assert "judges" not in row[5]
    five = ih.response_view(store, panel["t/5"]["work_id"])
    row = next(v for v in ih.verdict_table(five).data.values.tolist() if v[1] == "panel:j1+j2")
    assert row[5].startswith("2 of 2 judges: ")
