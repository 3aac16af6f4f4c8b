"""The parse reason of a reply without an "Answer:" line ("I think the answer is C", read
as C) said "final answer marker": it names the phrase read."""
from domain.extract import extract

SHAPES = [{"label": label, "text": label} for label in "ABCD"]


def test_the_reason_names_the_phrase_read():
    found = extract("I think the answer is C", "multiple_choice", SHAPES)
    assert found.answer == "C" and found.reason == 'answer: "the answer is …" phrase'
    said = extract("The correct option would be B.", "multiple_choice", SHAPES).reason
    assert said == 'answer: "the correct option would be …" phrase'
    assert extract("I think the answer is Paris", "open", None).reason == \
        'answer: text of the "the answer is …" phrase'
    # an "Answer:" line is a marker, as before
    assert extract("Reasoning.\nAnswer: C", "multiple_choice", SHAPES).reason == \
        "answer: final answer marker"
