"""domain.extract on replies cut off by max_tokens (finish_reason length). (Complete replies
around clue lists are in tests/test_domain_extract.py's table.)

A cut reply yields an answer only from a whole explicit statement; every fragment below was
once read as an answer (the first four by the fallbacks, on the demo dataset with the fake
server's truncate fault). None means "unparsed".
"""
import pytest

from domain.extract import extract
from tests.test_domain_extract import ALCOVE

CUT = [
    # the fallbacks read fragments: the last line, an option's text, bare numbers, free text
    ("Clues:\n1. The alcove is about 110 cm wide\n2. The bookcase ", "multiple_choice",
     ALCOVE, None),
    ("Clues:\n1. The timetable hangs at the stop\n2. Departures at :05, :25, ", "numeric",
     None, None),
    ("Clues:\n1. The label says 32 g per 100 g\n2. Serving ", "numeric", None, None),
    ("Clues:\n1. Bare trees\n2. Snow on the ground", "open", None, None),
    ("The bus is late, so", "yes_no", None, None),
    ("Country: Italy\nRegion: Laz", "location", None, None),
    # an answer line the cut may have shortened ("12" of "125", "B" of "B or C")
    ("Reasoning first.\nAnswer: 12", "numeric", None, None),
    ("Answer: B", "multiple_choice", ALCOVE, None),
    ("Answer:\n\nB", "multiple_choice", ALCOVE, None),
    # a whole statement, then text the cut ended: the statement stands
    ("Answer: C\nThe bookcase is the only piece that fits the alco", "multiple_choice",
     ALCOVE, "C"),
    ("Answer: 125\nBecause the ", "numeric", None, "125"),
    ("Answer: Yes\nThe lamp", "yes_no", None, "Yes"),
    ("Answer: Paris\nThe tower in the back", "open", None, "Paris"),
    ("The total is \\boxed{125}, since the", "numeric", None, "125"),
    ("<answer>$Italy, Lazio$</answer> The dome", "location", None, "$italy,lazio$"),
    ('{"answer": "C", "clues": ["bookcase 80 cm"]}\nThe bookcase', "multiple_choice", ALCOVE,
     "C"),
    # ... but a later statement the cut left unfinished: the model was restating its answer
    ("Answer: B\nOn second thought, the answer is C bec", "multiple_choice", ALCOVE, None),
    ("Answer: B\nSo the final answer is \\boxed{", "multiple_choice", ALCOVE, None),
    # still thinking when cut: no answer, whatever the thinking says
    ("<think>Answer: C\nlet me check the widths", "multiple_choice", ALCOVE, None),
    ("<think>Answer: C\n</think>", "multiple_choice", ALCOVE, None),
]


@pytest.mark.parametrize("text,answer_type,options,expected", CUT,
                         ids=[f"{i}-{row[1]}" for i, row in enumerate(CUT)])
def test_a_cut_reply_is_read_from_whole_statements_only(text, answer_type, options, expected):
    result = extract(text, answer_type, options, complete=False)
    assert result.answer == expected, result.reason
    assert result.status == ("unparsed" if expected is None else "ok")
    if expected is None:
        assert "cut off" in result.reason


def test_the_fragments_were_read_as_answers_when_taken_for_complete_replies():
    """The same texts, read as if complete: the fallbacks the cut must turn off."""
    assert extract(CUT[0][0], "multiple_choice", ALCOVE).answer is None   # the cut line
    assert extract("Answer: B", "multiple_choice", ALCOVE).answer == "B"
    assert extract("Reasoning first.\nAnswer: 12", "numeric").answer == "12"


def test_the_cut_clue_of_a_cut_reply_is_left_out():
    text = "Clues:\n1. The alcove is about 110 cm wide\n2. The bookcase "
    cut = extract(text, "multiple_choice", ALCOVE, complete=False)
    assert [c["text"] for c in cut.clues] == ["The alcove is about 110 cm wide"]
    assert "cut off" in cut.reason
    whole = extract(text + "is 80 cm wide\n", "multiple_choice", ALCOVE, complete=False)
    assert [c["text"] for c in whole.clues] == ["The alcove is about 110 cm wide",
                                                "The bookcase is 80 cm wide"]


def test_the_rule_judge_reads_raw_text_of_a_truncated_reply_as_cut():
    from judges.rules import judge_response

    text = CUT[0][0]
    assert judge_response("multiple_choice", text, "C", options=ALCOVE,
                          status="truncated").value == "unparsed"
    whole = "Answer: C\nThe bookcase "
    assert judge_response("multiple_choice", whole, "C", options=ALCOVE,
                          status="truncated").correct
