"""A location written "X, Y" without `$` (an answer marker's content, a JSON answer field):
which part is the country. "Bavaria, Germany" was read as `$bavaria,germany$` and judged
wrong ("country 'bavaria' is not 'germany'"); an order that cannot be told is unparsed."""
import pytest

from domain.extract import extract
from domain.extract.answers import location_order
from judges.rules import judge_response


@pytest.mark.parametrize("first, second, expected", [
    ("Germany", "Bavaria", ("Germany", "Bavaria")),         # the format's order
    ("Bavaria", "Germany", ("Germany", "Bavaria")),         # region, country
    ("Lazio", "Italy", ("Italy", "Lazio")),
    ("California", "USA", ("USA", "California")),
    ("USA", "Georgia", ("USA", "Georgia")),                 # both countries: one holds the other
    ("Georgia", "United States", ("United States", "Georgia")),
    ("Mexico", "Mexico", ("Mexico", "Mexico")),             # either order reads the same
    ("France", "Germany", None),                            # two countries, neither holds the other
    ("Deutschland", "Bayern", None),                        # no part is a country we know
    ("Lazio", "Latium", None),
])
def test_the_country_is_the_part_that_is_one(first, second, expected):
    assert location_order(first, second) == expected


@pytest.mark.parametrize("text, answer", [
    ("The plates are German and the flag is Bavarian.\nAnswer: Bavaria, Germany",
     "$germany,bavaria$"),
    ("Answer: Bavaria, Germany.", "$germany,bavaria$"),
    ('{"answer": "Bavaria, Germany"}', "$germany,bavaria$"),
    ("**Final answer:** Tokyo, Japan", "$japan,tokyo$"),
    ("Answer: Japan, Tokyo", "$japan,tokyo$"),
    ("Answer: $germany,bavaria$", "$germany,bavaria$"),     # the format itself: as written
])
def test_a_region_first_answer_is_read_country_first(text, answer):
    assert extract(text, "location").answer == answer


@pytest.mark.parametrize("text", ["Answer: France, Germany", '{"answer": "Lazio, Latium"}',
                                  "Answer: Deutschland, Bayern"])
def test_an_order_that_cannot_be_told_is_unparsed_and_says_why(text):
    found = extract(text, "location")
    assert (found.status, found.answer) == ("unparsed", None)
    assert "neither order" in found.reason


def test_bavaria_germany_is_judged_right():
    verdict = judge_response("location", "Answer: Bavaria, Germany", "$germany,bavaria/bayern$")
    assert verdict.value == "correct", verdict.reason
    unclear = judge_response("location", "Answer: France, Germany", "$germany,bavaria$")
    assert unclear.value == "unparsed"
