"""Location: SeekWorld's strict rule exactly, our normalised rule, and when they differ."""
import pytest

from judges import judge_response
from judges.location import country_code, judge_location, normalised_match, seekworld_strict

CASES = [  # (answer, gold, strict, normalised)
    ("$italy,lazio$", "$italy,lazio/latium$", True, True),
    ("$italy,latium$", "$italy,lazio/latium$", True, True),               # second alias
    ("$italy,lazoi$", "$italy,lazio$", True, True),                       # distance 2 < 3
    ("$italy,lzaoi$", "$italy,lazio$", False, False),                     # distance 3
    ("$china,guangdong province$", "$china,guangdong$", True, True),      # authors' suffix
    ("$china,guangdong sheng$", "$china,guangdong$", True, True),
    ("$russia,moscow oblast$", "$russia,moscow$", True, True),
    ("$japan,tokyo prefecture$", "$japan,tokyo/tokyo-to$", False, True),  # not their suffix
    ("$usa,california$", "$united states,california$", False, True),     # the known trap
    ("$united states of america,california$", "$united states,california$", False, True),
    ("$u.s.,california$", "$united states,california$", False, True),
    ("$united states,ca$", "$united states,california$", False, True),   # ISO subdivision
    ("$russia,moscow$", "$russian federation,moscow$", False, True),
    ("$south korea,seoul$", "$korea republic of,seoul$", False, True),
    ("$czechia,prague$", "$czech republic,prague/praha$", False, True),
    ("$vietnam,hanoi$", "$viet nam,hanoi$", False, True),
    ("$iran,tehran$", "$iran islamic republic of,tehran$", False, True),
    ("$france,ile-de-france$", "$france,île-de-france$", True, True),
    ("$canada,ontario$", "$united states,ohio$", False, False),           # wrong country
    ("$united states,ohio$", "$united states,iowa$", False, False),
    ("$new york,usa$", "$united states,new york$", False, False),         # swapped
    ("$italy,lazio,rome$", "$italy,lazio$", False, False),                # two commas
    ("$italy,$", "$italy,lazio$", False, False),                          # no admin-1
]


@pytest.mark.parametrize("answer, gold, strict, normalised", CASES)
def test_strict_and_normalised_rules(answer, gold, strict, normalised):
    assert seekworld_strict(answer, gold)[0] is strict
    assert normalised_match(answer, gold)[0] is normalised


def test_seekworld_word_matching_is_greedy_and_needs_every_word():
    assert seekworld_strict("$spain,castilla la mancha$", "$spain,castilla-la mancha$")[0] is False
    assert seekworld_strict("$spain,castile la mancha$", "$spain,castilla la mancha$")[0] is True
    assert seekworld_strict("$spain,mancha$", "$spain,castilla la mancha$")[0] is False


@pytest.mark.parametrize("name", ["USA", "United States of America", "united states", "U.S.",
                                  "US", "the United States", "America"])
def test_the_united_states_is_one_country(name):
    assert country_code(name) == "US"


@pytest.mark.parametrize("name, code", [("Russia", "RU"), ("South Korea", "KR"),
                                        ("Czechia", "CZ"), ("Vietnam", "VN"), ("Iran", "IR"),
                                        ("UK", "GB"), ("Türkiye", "TR"), ("Turkey", "TR"),
                                        ("The Netherlands", "NL"), ("Atlantis", None)])
def test_common_country_names_resolve(name, code):
    assert country_code(name) == code


def test_verdict_carries_both_rules_and_differs():
    verdict = judge_response("location", "<answer>$USA,California$</answer>",
                             "$united states,california/ca$")
    assert verdict.correct and verdict.answer == "$usa,california$"
    assert verdict.details["strict"] is False and verdict.details["normalised"] is True
    assert verdict.details["differs"] is True and verdict.details["country_code"] == "US"
    strict = judge_response("location", "$USA,California$", "$united states,california$",
                            rule="strict")
    assert strict.value == "wrong" and strict.details["differs"] is True
    same = judge_location("$italy,lazio$", "$italy,lazio/latium$")
    assert same.correct and same.details["differs"] is False


def test_aliases_are_extra_golds_and_missing_parts_are_reported():
    assert judge_location("$italy,rome$", "$italy,lazio$", ["$italy,rome$"]).correct
    assert judge_location(None, "$italy,lazio$").value == "unparsed"
    assert judge_location("$italy,lazio$", "").value == "unscored"
    text = "Country: Italy\nRegion: Lazio"
    assert judge_response("location", text, "$italy,lazio/latium$").correct
    with pytest.raises(ValueError):
        judge_location("$italy,lazio$", "$italy,lazio$", rule="lenient")
