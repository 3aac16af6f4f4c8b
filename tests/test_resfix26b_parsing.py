"""Researcher review (resfix26b), pure functions: a numeric reply with no answer statement
that offers a clock time and a number ("at 14:45, so 8 minutes") was read as 8 (its last
number; the time's digits were two numbers, 14 and 45, none offered as an alternative); a
yes/no answer taken back in its next clause ("Answer: Yes, probably not though.") was read
as Yes. Both are unparsed now; plain replies keep their reading."""
import pytest

from domain.extract import extract


@pytest.mark.parametrize("reply", [
    "The next bus is at 14:45, so 8 minutes.",
    "The clock shows 14:45. The bus comes in 8 minutes.",
    "The bus leaves at 14:45.",                   # read 45, a time's minutes
    "Answer: 14:45",                              # read 14
])
def test_a_time_and_a_number_without_an_answer_statement_is_unparsed(reply):
    found = extract(reply, "numeric", None)
    assert found.answer is None and found.status == "unparsed", (reply, found)


@pytest.mark.parametrize("reply, number", [
    ("It takes 8 minutes.", "8"), ("The tower is 324 m tall.", "324"),
    ("Answer: 8 minutes (the bus is at 14:45)", "8"), ("There are 7 cars.", "7")])
def test_a_single_number_reply_is_still_read(reply, number):
    assert extract(reply, "numeric", None).answer == number


@pytest.mark.parametrize("reply, expected", [
    # taken back or left open in the next clause: unparsed
    ("Answer: Yes, probably not though.", None),
    ("Answer: Yes, not really", None),
    ("Yes, not sure.", None),
    ("Answer: Yes. Not really.", None),
    ("Answer: yes — probably not", None),
    ("Yes, I don't think so.", None),
    ("Answer: No, probably yes", None),
    ("No, maybe yes.", None),
    ("No, not sure.", None),
    # a negation agreeing with No, or a no/not inside a phrase: read
    ("Answer: No, it is not.", "No"),
    ("No, probably not.", "No"),
    ("No, not really.", "No"),
    ("Answer: Yes, no vehicles are parked.", "Yes"),
    ("Answer: Yes, the sign says no.", "Yes"),
    ("Yes, not the red one.", "Yes"),
    ("Yes, but not the red one.", "Yes"),
    ("Yes, though not clearly visible.", "Yes"),
    ("Yes, probably.", "Yes"),
])
def test_a_yes_no_answer_taken_back_in_its_next_clause_is_unparsed(reply, expected):
    found = extract(reply, "yes_no", None)
    assert found.answer == expected, (reply, found)
    if expected is None:
        assert found.status == "unparsed"
