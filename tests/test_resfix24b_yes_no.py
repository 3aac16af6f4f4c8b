"""Researcher review (resfix24b): a yes/no reply "Answer: No, it isn't. Actually yes." was
read as "No" (its first word), though it states both. A yes or no standing as an answer of
its own (opening a clause, a few lead-in words allowed, and ending it) after the first word
makes the answer unparsed, as two places do for a location; a no inside a phrase ("the sign
says no parking", "no vehicles are parked") does not. Pure functions."""
import pytest

from domain.extract import extract

CASES = [
    # both stated: unparsed
    ("Answer: No, it isn't. Actually yes.", None),
    ("No, it isn't. Actually yes.", None),
    ("Answer: Yes. No.", None),
    ("Answer: No; yes.", None),
    ("Answer: no — yes", None),
    ("Answer: yes, I think no", None),
    ("Answer: No (yes, if you count the reflection)", None),
    ("Yes and no.", None),
    # one answer, the other word inside a phrase or said again: read
    ("Yes", "Yes"),
    ("No.", "No"),
    ("Answer: yes — the sign says no parking", "Yes"),
    ("Answer: yes - the sign says no parking", "Yes"),
    ("Answer: Yes, no vehicles are parked.", "Yes"),
    ("Answer: Yes, the sign says no.", "Yes"),
    ("Answer: Yes; there is no doubt.", "Yes"),
    ("Answer: No, no parking here.", "No"),
    ("Answer: no, no.", "No"),
    ("Answer: **Yes**", "Yes"),
    ("No, because the sign is in French.", "No"),
    ("The lamp is off.\nTherefore, the answer is no.", "No"),
]


@pytest.mark.parametrize("reply,expected", CASES)
def test_a_yes_no_answer_stating_both_is_unparsed(reply, expected):
    found = extract(reply, "yes_no", None)
    assert found.answer == expected, (reply, found)
    if expected is None:
        assert found.status == "unparsed"
