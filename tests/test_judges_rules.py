"""Rule-based judges: hand-made model outputs with the verdicts they must get."""
import pytest

from judges import Verdict, judge_response
from judges.mmr_life import mmr_life_extract, mmr_life_rule
from judges.rules import gold_label
from domain.extract import extract

OPTIONS = [{"label": label, "text": text} for label, text in
           zip("ABCDE", ["red sphere", "green cone", "blue cube", "yellow torus", "grey ring"])]

MULTIPLE_CHOICE = [  # (model output, gold, expected verdict)
    ("# Answer: C\nThis matches the blue cube.", "C", "correct"),   # MMR-Life's trap
    ("Answer: C", "C", "correct"),
    ("**Answer:** (C)", "C", "correct"),
    ("\\boxed{C}", "C", "correct"),
    ("Looking at the frames... (C)", "C", "correct"),
    ("C. blue cube", "C", "correct"),
    ("The blue cube", "C", "correct"),                               # option text, not letter
    ("Answer: B", "C", "wrong"),
    ("Answer: B or C", "C", "unparsed"),                             # two final letters
    ("\\boxed{B} \\boxed{C}", "C", "unparsed"),
    ("I cannot tell from these images.", "C", "unparsed"),           # none
    ("Answer: C", "blue cube", "correct"),                           # gold given as text
    ("Answer: C", "Z", "unscored"),                                  # gold names no option
]


@pytest.mark.parametrize("text, gold, expected", MULTIPLE_CHOICE)
def test_multiple_choice(text, gold, expected):
    verdict = judge_response("multiple_choice", text, gold, options=OPTIONS)
    assert verdict.value == expected, verdict.reason
    assert verdict.judge == "rule:multiple_choice"


def test_the_mmr_life_trap_and_the_papers_own_rule_disagree():
    trap = "# Answer: C\nThis matches the blue cube."
    assert judge_response("multiple_choice", trap, "C", options=OPTIONS).correct
    assert mmr_life_extract(trap) == "E"
    paper = mmr_life_rule(trap, "C")
    assert paper.value == "wrong" and paper.answer == "E"


@pytest.mark.parametrize("text, letter", [
    ("Answer: c", "C"), ("\\boxed{ d }", "D"), ("- **Answer:** B", "B"),
    ("Answer: A\nso the answer is (C). See above.", "E"),  # "e." of "above."
    ("The result is B.", "B"), ("no letter here", None), ("", None), (None, None),
])
def test_mmr_life_extract_reads_like_the_paper(text, letter):
    assert mmr_life_extract(text) == letter


def test_mmr_life_rule_reports_no_match_as_unparsed_not_a_random_letter():
    verdict = mmr_life_rule("I refuse to answer", "C")
    assert verdict.value == "unparsed" and verdict.score == 0.0


def test_an_extraction_can_be_given_instead_of_text():
    found = extract("Answer: D", "multiple_choice", OPTIONS)
    assert judge_response("multiple_choice", found, "D", options=OPTIONS).correct
    assert judge_response("multiple_choice", {"answer": "D"}, "D", options=OPTIONS).correct
    assert judge_response("multiple_choice", {"answer": None}, "D").value == "unparsed"


@pytest.mark.parametrize("gold, label", [("C", "C"), ("(c)", "C"), ("b.", "B"),
                                         ("Yellow torus", "D"), ("purple", None)])
def test_gold_label(gold, label):
    assert gold_label(gold, OPTIONS) == label


YES_NO = [
    ("Yes.", "Yes", "correct"), ("yes", "Yes", "correct"), ("YES", "yes", "correct"),
    ("No, because the road is wet.", "No", "correct"), ("**No**", "no.", "correct"),
    ("Answer: No", "Yes", "wrong"), ("The answer is yes", "No", "wrong"),
    ("Yes and no", "Yes", "unparsed"), ("Maybe", "No", "unparsed"),
    ("Yes", "Perhaps", "unscored"),
]


@pytest.mark.parametrize("text, gold, expected", YES_NO)
def test_yes_no(text, gold, expected):
    assert judge_response("yes_no", text, gold).value == expected


NUMERIC = [  # (text, gold, params, expected)
    ("Answer: 12", "12", {}, "correct"),
    ("Answer: 12.0", 12, {}, "correct"),
    ("Answer: 12,000 km", "12000", {}, "correct"),
    ("Answer: 12.4", "12", {}, "wrong"),
    ("Answer: 12.4", "12", {"abs_tol": 0.5}, "correct"),
    ("Answer: 12.6", "12", {"abs_tol": 0.5}, "wrong"),
    ("Answer: 104", "100", {"rel_tol": 0.05}, "correct"),
    ("Answer: 106", "100", {"rel_tol": 0.05}, "wrong"),
    ("Answer: 5", "100", {"rel_tol": 0.05, "abs_tol": 100}, "correct"),  # the larger wins
    ("no idea", "3", {}, "unparsed"),
    ("Answer: 3", "three-ish", {}, "unscored"),
]


@pytest.mark.parametrize("text, gold, params, expected", NUMERIC)
def test_numeric(text, gold, params, expected):
    verdict = judge_response("numeric", text, gold, **params)
    assert verdict.value == expected, verdict.reason


def test_numeric_relative_tolerance_comes_from_the_gold():
    # math.isclose(200, 100, rel_tol=0.5) is True (0.5 * 200); ours uses 0.5 * gold = 50
    assert judge_response("numeric", "Answer: 200", "100", rel_tol=0.5).value == "wrong"


OPEN = [  # (text, gold, aliases, expected)
    ("Answer: The Eiffel Tower.", "Eiffel tower", [], "correct"),
    ("Answer: la tour eiffel", "Eiffel Tower", ["La Tour Eiffel"], "correct"),
    ("Answer: Café", "cafe", [], "correct"),
    ("Answer: a tower in Paris", "Eiffel Tower", [], "unscored"),
    ("", "Eiffel Tower", [], "unparsed"),
    ("Answer: x", None, [], "unscored"),
]


@pytest.mark.parametrize("text, gold, aliases, expected", OPEN)
def test_open_is_a_cheap_precheck(text, gold, aliases, expected):
    assert judge_response("open", text, gold, aliases).value == expected


@pytest.mark.parametrize("output", [
    "Answer: A",            # clue-guided CoT run of the review: "A" is an article to _plain
    "Answer: C",            # plain CoT run of the review
    "Answer: The",
    "Answer: ...",
])
def test_an_extracted_open_answer_the_rules_cannot_decide_is_unscored_never_unparsed(output):
    from scoring.offline import needs_llm, rule_verdict
    item = {"answer_type": "open", "answer": "Winter", "aliases": [], "options": []}
    found = extract(output, "open")
    assert found.status == "ok" and found.answer
    response = {"status": found.status, "answer": found.answer, "reason": found.reason}
    verdict = rule_verdict(item, response)
    assert verdict.value == "unscored", verdict.reason
    assert "needs the LLM judge" in verdict.reason and needs_llm(verdict)
    assert verdict.answer == found.answer


def test_open_unparsed_only_when_the_extractor_found_nothing():
    from scoring.offline import rule_verdict
    item = {"answer_type": "open", "answer": "Winter", "aliases": [], "options": []}
    found = extract("", "open")
    assert found.status == "unparsed" and found.answer is None
    verdict = rule_verdict(item, {"status": found.status, "answer": None,
                                  "reason": found.reason})
    assert verdict.value == "unparsed" and verdict.reason == found.reason


def test_open_can_be_strict_when_asked():
    verdict = judge_response("open", "Answer: a tower", "Eiffel Tower", no_match="wrong")
    assert verdict.value == "wrong"


def test_failed_calls_are_errors_and_unknown_types_are_refused():
    assert judge_response("yes_no", None, "Yes", status="error").value == "error"
    with pytest.raises(ValueError):
        judge_response("essay", "text", "gold")


def test_verdict_round_trip_and_validation():
    verdict = judge_response("yes_no", "Yes.", "Yes")
    assert Verdict.from_dict(verdict.to_dict()) == verdict
    assert Verdict("unscored").score is None and Verdict("unparsed").score == 0.0
    with pytest.raises(ValueError):
        Verdict("maybe")
