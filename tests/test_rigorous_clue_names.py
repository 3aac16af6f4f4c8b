"""The rigorous verdict's reason names the model's clue as Inspect's Model clues table does:
M1 for the reply's clue list, S1 for a sentence of its reasoning (a review: the table said S1,
the reason "model clue M1", a clue the table did not have)."""
from scoring.offline import offline_rigorous, rule_verdict

ITEM = {"id": "x/alcove", "question": "Which bookcase fits?", "answer_type": "multiple_choice",
        "options": [{"label": "A", "text": "120 cm"}, {"label": "C", "text": "100 cm"}],
        "answer": "C", "clues": [{"text": "The alcove is 110 cm wide", "boxes": []},
                                 {"text": "The bookcase is 100 cm wide", "boxes": []}]}


def verdict(response: dict):
    response = {"status": "ok", **response}
    general = rule_verdict(ITEM, response)
    assert general.correct
    return offline_rigorous(ITEM, response, general)[0]


def test_a_sentence_of_the_reasoning_is_named_s1():
    said = verdict({"text": "The bookcase is 100 cm wide, less than the alcove.\nAnswer: C",
                    "answer": "C", "clues": []})
    assert "model clue S1 matches GT clue GT2" in said.reason


def test_a_clue_of_the_reply_s_list_is_named_m1():
    said = verdict({"text": "Clue 1: The bookcase is 100 cm wide\nAnswer: C", "answer": "C",
                    "clues": [{"text": "The bookcase is 100 cm wide"}]})
    assert "model clue M1 matches GT clue GT2" in said.reason
