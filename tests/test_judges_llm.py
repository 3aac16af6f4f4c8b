"""LLM judges as pure functions: prompts from templates, replies read into verdicts (malformed
replies are unscored with their transcript, never 0), panels and agreement."""
import pytest

from judges import llm
from judges.agreement import cohen_kappa, pairwise_agreement, panel_vote, percent_agreement
from judges.verdict import Verdict
from runner.prompts import default_text

ITEM = {"question": "Where was this taken?", "answer": "Paris", "aliases": ["Paris, France"],
        "clues": [{"text": "Eiffel Tower on the skyline", "reasoning": "a landmark"},
                  {"text": "street sign in French"}], "gt_reasoning": "The tower is in Paris."}


@pytest.mark.parametrize("reply, expected", [
    ('{"verdict": "correct", "reason": "same city"}', "correct"),
    ('{"verdict": "wrong", "reason": "another city"}', "wrong"),
    ('{"Verdict": "Incorrect"}', "wrong"),
    ('{"correct": true}', "correct"),
    ('```json\n{"verdict": "correct"}\n```', "correct"),
    ('Sure! {"verdict": "wrong", "reason": "x"} Hope this helps.', "wrong"),
    ("The answers mean the same.\nVerdict: correct", "correct"),
    ("I think it is probably right", None),                        # no verdict
    ('{"verdict": "maybe"}', None),                                # unreadable value
    ('{"reason": "forgot the verdict"}', None),
    ('{"verdict": "correct"', None),                               # truncated JSON
    ("", None), (None, None),
])
def test_open_replies(reply, expected):
    assert llm.parse_open(reply)[0] == expected


def test_unreadable_open_reply_is_unscored_with_its_transcript():
    prompt = llm.open_prompt(default_text("judge_open"), ITEM, "Lyon")
    v = llm.open_verdict("llm:j", prompt, "no idea", "Lyon")
    assert v.value == "unscored" and v.score is None and not v.scored
    assert v.prompt == prompt and v.reply == "no idea" and "unreadable" in v.reason
    ok = llm.open_verdict("llm:j", prompt, '{"verdict": "wrong", "reason": "Lyon"}', "Lyon")
    assert (ok.value, ok.score, ok.reason, ok.judge) == ("wrong", 0.0, "Lyon", "llm:j")


def test_prompts_hold_the_item_and_clip_long_outputs():
    prompt = llm.open_prompt(default_text("judge_open"), ITEM, "Lyon")
    assert "Reference answer: Paris" in prompt and "Paris, France" in prompt
    assert "Model's answer: Lyon" in prompt and "{{" not in prompt
    clues = llm.clues_prompt(default_text("judge_clues"), ITEM, [{"text": "a tall tower"}])
    assert "1. Eiffel Tower on the skyline\n2. street sign in French" in clues
    assert "Model's clues:\n1. a tall tower" in clues
    long = "x" * 50_000
    assert len(llm.extract_prompt(default_text("judge_extract_clues"), ITEM, long)) < 14_000
    vb = llm.verbench_prompt(default_text("judge_verbench"), ITEM, "Answer: Paris")
    assert "Reasoning: a landmark" in vb and "Overall: The tower is in Paris." in vb


CLUE_CASES = [
    ('{"clues": [{"model_clue": 1, "label": "match", "gt_clue": 2},'
     ' {"model_clue": 2, "label": "useless", "gt_clue": null}]}',
     [("match", 1), ("useless", None)]),
    ('{"clues": [{"model_clue": 2, "label": "illusionary"}]}', [("unjudged", None),
                                                                 ("illusionary", None)]),
    ('{"clues": [{"model_clue": 3, "label": "match", "gt_clue": 1}]}', None),  # no clue 3
    ('{"clues": [{"model_clue": 1, "label": "match", "gt_clue": 9}]}', None),  # no GT clue 9
    ('{"clues": [{"model_clue": 1, "label": "match"}]}', None),               # match, no GT
    ('{"clues": [{"model_clue": 1, "label": "relevant"}]}', None),           # unknown label
    ('{"clues": "all good"}', None), ("they match", None),
]


@pytest.mark.parametrize("reply, expected", CLUE_CASES)
def test_clue_judge_replies(reply, expected):
    labels, _, problem, _ = llm.parse_clue_labels(reply, 2, 2)
    assert labels == expected and (problem == "") == (expected is not None)


def test_an_entry_for_a_clue_that_does_not_exist_is_left_out_and_the_rest_kept():
    """One extra entry (model clue 3 of 2, a match with GT clue 9 of 2) discarded the whole
    verdict; now it is left out, said so, and the real clues' verdicts are kept."""
    reply = ('{"clues": [{"model_clue": 1, "label": "match", "gt_clue": 2}, '
             '{"model_clue": 2, "label": "useless"}, '
             '{"model_clue": 3, "label": "match", "gt_clue": 1}], "reason": "ok"}')
    labels, reason, problem, dropped = llm.parse_clue_labels(reply, 2, 2)
    assert labels == [("match", 1), ("useless", None)] and reason == "ok" and problem == ""
    assert dropped == ['{"model_clue": 3, "label": "match", "gt_clue": 1}: there is no '
                       'model clue 3 (the response has 2)']
    wrong_gt = ('{"clues": [{"model_clue": 1, "label": "match", "gt_clue": 9}, '
                '{"model_clue": 2, "label": "match", "gt_clue": 1}]}')
    labels, _, _, dropped = llm.parse_clue_labels(wrong_gt, 2, 2)
    assert labels == [("unjudged", None), ("match", 0)]          # clue 1: nothing guessed
    assert dropped == ['{"model_clue": 1, "label": "match", "gt_clue": 9}: there is no GT '
                       'clue 9 (the item has 2)']
    model = [{"text": "the tower"}, {"text": "a bench"}]
    v, match = llm.rigorous_llm_verdict("llm:j", Verdict("correct", answer="Paris"), model, 2,
                                        "P", reply)
    assert v.value == "correct" and match.best_gt == [1, None]
    assert v.details["useless"] == [{"clue": 2, "text": "a bench"}]
    assert v.details["left_out"] == [
        '{"model_clue": 3, "label": "match", "gt_clue": 1}: there is no model clue 3 (the '
        'response has 2)']
    assert "1 entry of the judge's reply left out, naming a clue that does not exist: " \
        '{"model_clue": 3' in v.reason


@pytest.mark.parametrize("reason, shown", [
    ('{"clue": 1, "why": "the tower"}', "clue: 1, why: the tower"),
    ('["clue 1 matches GT 2", "clue 2 is a bench"]', "clue 1 matches GT 2; clue 2 is a bench"),
    ('[{"clue": 1, "ok": true}, "fine"]', "clue: 1, ok: true; fine"),
    ('"  the tower  "', "the tower"), ("7", "7"),
])
def test_a_judges_reason_is_plain_text_never_a_python_repr(reason, shown):
    clues = '{"clues": [{"model_clue": 1, "label": "match", "gt_clue": 1}], "reason": %s}'
    v, _ = llm.rigorous_llm_verdict("llm:j", Verdict("correct"), [{"text": "x"}], 1, "P",
                                    clues % reason)
    assert v.details["judge_reason"] == shown
    open_reply = '{"verdict": "correct", "rationale": %s}' % reason
    assert llm.open_verdict("llm:j", "P", open_reply, "a").reason == shown
    vb = '{"AC": 8, "CC": 6, "RQ": 5, "ER": 9, "reason": %s}' % reason
    assert llm.verbench_verdict("llm:j", "P", vb).reason.endswith(f": {shown}")
    assert "'" not in shown and "[" not in shown and "{" not in shown
    found, _ = llm.parse_extracted_clues('{"clues": [["a", "tram"], "red sign"]}')
    assert [c["text"] for c in found] == ["a; tram", "red sign"]


def test_rigorous_llm_verdicts_name_illusionary_and_useless_clues():
    model = [{"text": "a purple elephant"}, {"text": "a bench"}, {"text": "the tower"}]
    reply = ('{"clues": [{"model_clue": 1, "label": "illusionary"}, {"model_clue": 2, '
             '"label": "useless"}, {"model_clue": 3, "label": "match", "gt_clue": 1}],'
             ' "reason": "the tower is the landmark"}')
    right = Verdict("correct", answer="Paris")
    v, match = llm.rigorous_llm_verdict("llm:j", right, model, 2, "P", reply)
    assert v.value == "correct" and match.best_gt == [None, None, 0]
    assert v.details["illusionary"] == [{"clue": 1, "text": "a purple elephant"}]
    assert v.details["useless"] == [{"clue": 2, "text": "a bench"}] and v.reply == reply
    none = reply.replace('"match", "gt_clue": 1', '"useless", "gt_clue": null')
    assert llm.rigorous_llm_verdict("llm:j", right, model, 2, "P", none)[0].value == "wrong"
    wrong = llm.rigorous_llm_verdict("llm:j", Verdict("wrong"), model, 2, "P", reply)[0]
    assert wrong.value == "wrong"                   # eq. 1: a wrong answer stays wrong
    bad, match = llm.rigorous_llm_verdict("llm:j", right, model, 2, "P", "match!")
    assert bad.value == "unscored" and match is None and bad.prompt == "P"


@pytest.mark.parametrize("reply, expected", [
    ('{"clues": ["red sign", "a tram"]}', ["red sign", "a tram"]),
    ('{"clues": [{"text": "red sign"}, ""]}', ["red sign"]),
    ('{"clues": []}', []),
    ('{"answer": "B"}', None), ("red sign, a tram", None),
])
def test_clue_extraction_replies(reply, expected):
    found, _ = llm.parse_extracted_clues(reply)
    assert (None if found is None else [c["text"] for c in found]) == expected


@pytest.mark.parametrize("reply, expected", [
    ('{"AC": 8, "CC": 6, "RQ": 5, "ER": 9, "reason": "ok"}', (8, 6, 5, 9)),
    ('{"ac": "7/10", "cc": "4", "rq": 3.5, "er": 10}', (7, 4, 3.5, 10)),
    ('{"AC": 11, "CC": 6, "RQ": 5, "ER": 9}', None),      # out of range
    ('{"AC": 8, "CC": 6, "RQ": 5}', None),                 # ER missing
    ('{"AC": true, "CC": 6, "RQ": 5, "ER": 9}', None),
    ("AC 8, CC 6", None),
])
def test_verbench_replies(reply, expected):
    verdict = llm.verbench_verdict("llm:j", "P", reply)
    if expected is None:
        assert verdict.value == "unscored" and verdict.score is None and verdict.reply == reply
    else:
        assert tuple(verdict.details["subscores"].values()) == expected
        assert verdict.score == pytest.approx(sum(expected) / 4 / 10)


def test_agreement_and_kappa_by_hand():
    a = ["correct", "correct", "wrong", "wrong"]
    b = ["correct", "wrong", "wrong", "wrong"]
    assert percent_agreement(a, b) == 0.75
    # p_o = 0.75; p_e = 0.5 * 0.25 + 0.5 * 0.75 = 0.5; kappa = 0.25 / 0.5
    assert cohen_kappa(a, b) == pytest.approx(0.5)
    assert cohen_kappa(["correct"] * 3, ["correct"] * 3) is None    # chance agreement is 1
    pairs = pairwise_agreement({"x": {1: "correct", 2: "wrong", 3: "unscored"},
                                "y": {1: "correct", 2: "correct", 3: "wrong"}})
    assert pairs == [{"a": "x", "b": "y", "n": 2, "agreement": 0.5, "kappa": 0.0}]


def test_panel_majority_ties_and_graded_means():
    c, w, u = Verdict("correct", answer="A"), Verdict("wrong", answer="B"), Verdict("unscored")
    assert panel_vote({"a": c, "b": c, "c": w}, "panel").value == "correct"
    assert panel_vote({"a": c, "b": w, "c": u}, "panel").value == "unscored"   # split
    assert panel_vote({"a": u, "b": u}, "panel").value == "unscored"
    g1 = llm.verbench_verdict("a", "P", '{"AC": 8, "CC": 6, "RQ": 4, "ER": 10}')
    g2 = llm.verbench_verdict("b", "P", '{"AC": 6, "CC": 2, "RQ": 4, "ER": 8}')
    mean = panel_vote({"a": g1, "b": g2, "c": u}, "panel")
    assert mean.details["subscores"] == {"AC": 7, "CC": 4, "RQ": 4, "ER": 9}
    assert mean.score == pytest.approx(0.6) and mean.details["votes"]["c"] == "unscored"


def test_a_panel_keeps_an_unparsed_or_failed_response_as_such_under_verbench():
    """The mean AC decided a graded panel's value: an unparsed reply the judges scored AC 8
    was a panel "correct", a failed call (0 on all four) a panel "wrong", not an error."""
    def graded(value, ac):
        return Verdict(value, score=ac / 10, details={"subscores": {
            "AC": ac, "CC": ac, "RQ": ac, "ER": ac}})
    assert panel_vote({"a": graded("unparsed", 8), "b": graded("unparsed", 6)},
                      "panel").value == "unparsed"
    assert panel_vote({"a": graded("error", 0), "b": graded("error", 0)},
                      "panel").value == "error"
    assert panel_vote({"a": graded("correct", 8), "b": graded("wrong", 4)},
                      "panel").value == "unscored"     # a 1-1 split, whatever the mean AC (6)
    assert panel_vote({"a": graded("correct", 8), "b": graded("correct", 6),
                       "c": graded("wrong", 4)}, "panel").value == "correct"


def test_a_graded_panels_reason_names_the_mean_ac_and_the_tie_rule():
    """Judges with AC 8 and AC 2: "correct" beside "mean of 2 judges: 4.5 of 10" read as a
    contradiction; the reason names the mean AC, and a 1-1 split is the panel's tie (the
    mean AC 5.0 >= 5 once made it "correct")."""
    from judges.agreement import panel_vote
    from judges.verdict import Verdict

    def graded(ac, rest):
        return Verdict("correct" if ac >= 5 else "wrong",
                       details={"subscores": {"AC": ac, "LC": rest, "IC": rest}})

    verdict = panel_vote({"llm:a": graded(8, 5), "llm:b": graded(2, 4)}, "panel:a+b")
    assert verdict.value == "unscored"
    assert verdict.reason.startswith("the panel is split (correct 1, wrong 1): a tie is "
                                     "unscored under every protocol")
    assert "mean AC of 2 judges 5.0; mean of all sub-scores" in verdict.reason
    assert verdict.details["subscores"]["AC"] == 5.0      # the grades are kept
    two_of_three = panel_vote({"llm:a": graded(8, 5), "llm:b": graded(2, 4),
                               "llm:c": graded(6, 4)}, "panel:a+b+c")
    assert two_of_three.value == "correct" and two_of_three.reason.startswith(
        "correct: 2 of 3 judges (each judge's AC >= 5 is its correct); mean AC of 3 judges")


def test_a_two_judge_split_is_unscored_under_rigorous_and_verbench_alike():
    """One tie rule: a 1-1 split was unscored under rigorous but "correct" under VER-Bench
    (its mean AC, 4.5 shown, decided by the threshold)."""
    from judges.agreement import TIE_RULE, panel_vote
    from judges.verdict import Verdict

    rigorous = panel_vote({"a": Verdict("correct"), "b": Verdict("wrong")}, "panel:a+b")
    a = llm.verbench_verdict("a", "P", '{"AC": 10, "CC": 5, "RQ": 4, "ER": 4}')
    b = llm.verbench_verdict("b", "P", '{"AC": 0, "CC": 4, "RQ": 4, "ER": 4}')
    graded = panel_vote({"a": a, "b": b}, "panel:a+b")
    assert (a.value, b.value) == ("correct", "wrong")
    assert rigorous.value == graded.value == "unscored"
    assert TIE_RULE in rigorous.reason and TIE_RULE in graded.reason


def test_a_split_panels_mean_sub_scores_still_count_in_ver_bench_numbers():
    """The split is unscored as a verdict, but its members' mean grades are VER-Bench's
    numbers: dropping them would leave out exactly the items the judges disagree on."""
    from scoring.results import summarise_records

    split = {"AC": 5.0, "CC": 4.5, "RQ": 4.0, "ER": 4.0}
    records = [{"value": "unscored", "item_id": "i1", "repeat": 0, "tokens": None,
                "subscores": split},
               {"value": "unscored", "item_id": "i2", "repeat": 0, "tokens": None,
                "subscores": {}}]
    summary = summarise_records(records, "verbench", ci=False)["summary"]
    assert (summary["n"], summary["unscored"]) == (1, 1) and summary["AC"] == 50.0


def test_a_panel_verdict_names_the_members_that_could_not_score():
    """'1 of 1 judges: same' for a panel of two whose second member's reply was unreadable,
    as if the panel had one member: the silent member is named."""
    c, u = Verdict("correct", answer="A", reason="same"), Verdict("unscored")
    voted = panel_vote({"llm:judge-a": c, "llm:judge-b": u}, "panel:judge-a+judge-b")
    assert voted.reason == "1 of 1 judges (llm:judge-b could not score): same"
    assert panel_vote({"a": c, "b": c}, "panel").reason == "2 of 2 judges: same"
    g1 = llm.verbench_verdict("a", "P", '{"AC": 8, "CC": 6, "RQ": 4, "ER": 10}')
    assert "1 of 1 judges (c could not score) (each" in panel_vote({"a": g1, "c": u},
                                                                    "panel").reason
