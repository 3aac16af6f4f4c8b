"""An annotator's review of the Annotate page, through the handlers on a real store: a
numeric alias that is a number and a description ("100 cm bookcase"), the draft notice
after one's own delete and its undo, the restored-draft line after a save, what Add option
and Set option image say, the letters after a removed option."""
import pytest

from tests.test_ui_answers import save
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from domain.numbers import read_quantity
from judges.gold_check import numeric_value
from judges.rules import judge_numeric


@pytest.mark.parametrize("text, value", [
    ("100 cm bookcase", None), ("3 km away", None), ("8 minutes walk", None),
    ("100 cm", 100.0), ("8 minutes", 8.0), ("3 apples", 3.0), ("50 km/h", 50.0),
    ("20 m²", 20.0), ("45 per cent", 45.0), ("12 sq ft", 12.0), ("60 km per hour", 60.0),
    ("5.30 €", 5.3), ("−5 °C", -5.0), ("8 min.", 8.0)])
def test_a_numeric_value_is_a_number_with_at_most_a_unit(text, value):
    """"100 cm bookcase" read as 100 with the unit "cm bookcase": a description after the
    number is no unit. One rule for the save and the scorer (domain/numbers)."""
    assert numeric_value(text) == value
    assert (read_quantity(text) or (None,))[0] == value


def test_a_numeric_alias_with_words_after_its_unit_is_refused_naming_it(ui_store):
    outcome, stored = save(ui_store, "ui/alpha", answer_type="numeric", answer_number="100",
                           aliases="100 cm\n100 cm bookcase")
    assert outcome["kind"] == "invalid", outcome
    assert ("Accepted aliases: the alias '100 cm bookcase' is no number the scorer can "
            "read: write one number") in outcome["message"]
    assert "3 km" in outcome["message"]          # it says what would do
    assert "'100 cm'" not in outcome["message"]
    assert stored["version"] == 1
    outcome, stored = save(ui_store, "ui/alpha", answer_type="numeric", answer_number="100",
                           aliases="100 cm")
    assert outcome["kind"] == "saved" and stored["aliases"] == ["100 cm"]
    # the scorer still finds the number in a reply that says more
    assert judge_numeric("the 100 cm bookcase", "100").value == "correct"
