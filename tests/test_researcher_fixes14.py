"""Findings of a researcher review (round 14), each with the test that failed before its fix."""
import pytest

from domain.extract import clues_of, extract


# -- 1. a "Clue N:" after other text on its line is read -----------------------------------

def test_a_clue_after_other_text_on_its_line_is_read():
    """Only "people are waiting" was read (as M1): the model's Clue 1 followed "Let me look."."""
    reply = ("Let me look. Clue 1: the sign shows a bus number.\n"
             "Clue 2: people are waiting.\nAnswer: B")
    assert [c["text"] for c in clues_of(reply)] == ["the sign shows a bus number",
                                                    "people are waiting"]


@pytest.mark.parametrize("reply", [
    "Let me look at this clue: the sign is red.\nAnswer: B",
    "As clue 2 shows, the queue is long. So B.\nAnswer: B",
    "This matches clue 2. The bus is red.\nAnswer: B",
    "Read the sign, as in clue 2: it is red.\nAnswer: B",
])
def test_prose_naming_a_clue_is_no_clue(reply):
    assert clues_of(reply) == []


def test_the_text_before_a_clue_on_its_line_is_still_prose():
    """The answer rules read the prose: "the count is 7." before the clue is kept."""
    reply = "So the count is 7. Clue 1: 3 cars and 4 more."
    assert extract(reply, "numeric").answer == "7"
