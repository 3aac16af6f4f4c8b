"""Clues read from a model's text (domain.extract.clues, what the scorer and Inspect use):
their quotes, trailing punctuation and parentheses are the clue's own. "1. The shelter
display shows 'TUE 14:37'" lost its closing quote (quotes were stripped as decoration)."""
import pytest

from domain.extract import clues_from_text, clues_of


@pytest.mark.parametrize("line, text", [
    ("1. The shelter display shows 'TUE 14:37'", "The shelter display shows 'TUE 14:37'"),
    ('1. The shelter display shows "TUE 14:37".', 'The shelter display shows "TUE 14:37"'),
    ("1. The display shows “TUE 14:37”;", "The display shows “TUE 14:37”"),
    ("1. The display shows ‘TUE 14:37’,", "The display shows ‘TUE 14:37’"),
    ('- "EXIT 12" is written on the sign.', '"EXIT 12" is written on the sign'),
    ("- **The plate reads 'B MW 12'.**", "The plate reads 'B MW 12'"),
    ("- `TUE 14:37` on the display", "`TUE 14:37` on the display"),
    ("- The driver's cab shows 'TUE'", "The driver's cab shows 'TUE'"),
    ('1. "The whole clue is quoted."', "The whole clue is quoted"),   # the wrapper goes
    ("1. The sign (white (faded) letters) reads EXIT", "The sign (white (faded) letters) reads EXIT"),
])
def test_a_clues_own_quotes_and_parentheses_are_kept(line, text):
    found = clues_from_text(f"Visual clues:\n{line}\n\nAnswer: Tuesday")
    assert [c["text"] for c in found] == [text]


def test_the_same_on_clue_lines_with_their_reasoning_in_nested_parentheses():
    reply = ("Clue 1: The shelter display shows 'TUE 14:37' (reasoning: buses run on "
             "weekdays (mostly)) [10, 20, 110, 60]\n"
             "Clue 2: **The timetable (summer (June–Sept)) says “every 10 min”.**\n"
             "Reasoning: a summer timetable (see (2)).\n"
             "Answer: Tuesday")
    found = clues_of(reply)
    assert [(c["text"], c["reasoning"]) for c in found] == [
        ("The shelter display shows 'TUE 14:37'", "buses run on weekdays (mostly)"),
        ("The timetable (summer (June–Sept)) says “every 10 min”",
         "a summer timetable (see (2))."),
    ]
    assert found[0]["box"] == [10.0, 20.0, 110.0, 60.0]
