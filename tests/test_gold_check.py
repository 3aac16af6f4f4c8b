"""The shared gold-answer rules (judges.gold_check): pure function, one test per type."""
import pytest

from judges.gold_check import gold_problems, number_or_none, split_location


def item(answer_type, answer, options=(), **extra):
    return {"answer_type": answer_type, "answer": answer,
            "options": [{"label": label, "text": text, "image": None}
                        for label, text in options], **extra}


ABCD = [("A", "red"), ("B", "blue"), ("C", "green"), ("D", "grey")]


def fields(problems):
    return [(p.field, p.kind) for p in problems]


def test_multiple_choice_gold_must_be_an_option_label_and_labels_unique():
    assert gold_problems(item("multiple_choice", "C", ABCD)) == []
    bad = gold_problems(item("multiple_choice", "Z", ABCD))
    assert fields(bad) == [("answer", "gold answer has no option")]
    assert bad[0].message == "gold answer has no option: 'Z' (options A, B, C, D)"
    twice = gold_problems(item("multiple_choice", "A", [("A", "x"), ("A", "y"), ("", "z")]))
    assert fields(twice) == [("options", "option without a label"),
                             ("options", "duplicated option label")]
    assert fields(gold_problems(item("multiple_choice", "A"))) == [("options", "no options")]


def test_every_option_has_a_text_or_an_image():
    """Options A-D, text only in A and B: it saved, and exported {"label": "C", "text": ""}."""
    bad = gold_problems(item("multiple_choice", "A", [("A", "red"), ("B", "blue"), ("C", ""),
                                                      ("D", " ")]))
    assert [p.message for p in bad] == ["option without text: option C has no text or image",
                                        "option without text: option D has no text or image"]
    pictured = item("multiple_choice", "A", [("A", "red"), ("B", "")])
    pictured["options"][1]["image"] = "sha-of-an-image"
    assert gold_problems(pictured) == []


@pytest.mark.parametrize("answer_type, alias, kind", [
    ("numeric", "$germany,bavaria$", "numeric alias without a number"),
    ("numeric", "bavaria", "numeric alias without a number"),
    ("location", "$germany bavaria$", "location is not $country,region$"),
    ("location", "bay$ern", "location alias is neither $country,region$ nor a region name"),
    ("yes_no", "yep", "yes/no alias is not Yes or No"),
])
def test_aliases_must_parse_for_the_answer_type(answer_type, alias, kind):
    assert fields(gold_problems(item(answer_type, "", aliases=[alias]))) == [("aliases", kind)]


@pytest.mark.parametrize("answer_type, alias", [
    ("numeric", "12.8 g"), ("numeric", "1,200"), ("location", "$deutschland,bayern$"),
    ("location", "bayern"), ("open", "$anything, really$"), ("yes_no", "yes."),
    ("multiple_choice", "the desk"),
])
def test_aliases_each_type_takes(answer_type, alias):
    assert gold_problems(item(answer_type, "", ABCD, aliases=[alias]) if answer_type ==
                         "multiple_choice" else item(answer_type, "", aliases=[alias])) == []


def test_yes_no_gold_is_yes_or_no():
    for gold in ("Yes", "No", "yes", "Yes.", ""):
        assert gold_problems(item("yes_no", gold)) == [], gold
    assert fields(gold_problems(item("yes_no", "maybe"))) == [
        ("answer", "gold answer is not Yes or No")]
    assert gold_problems(item("yes_no", "Yes, because"))


def test_numeric_gold_is_a_number_by_itself():
    for gold in ("8", "12.8", "-3e2", "1,200"):
        assert gold_problems(item("numeric", gold)) == [], gold
    for gold in ("twelve", "12 or 13", "nan", "inf"):
        assert fields(gold_problems(item("numeric", gold))) == [
            ("answer", "gold answer is not a number")], gold
    assert number_or_none("1,200") == 1200.0 and number_or_none("x") is None


def test_options_belong_to_multiple_choice_only():
    problems = gold_problems(item("numeric", "4", ABCD))
    assert fields(problems) == [("options", "options on a non-multiple-choice item")]
    assert "4 given" in problems[0].message


@pytest.mark.parametrize("gold", ["$italy,lazio/latium$", "$USA,California$",
                                  "$united states,ca$", "$russia,moscow$", "$canada,québec$"])
def test_location_gold_with_a_known_country(gold):
    assert gold_problems(item("location", gold)) == []


@pytest.mark.parametrize("gold, kind", [
    ("Paris", "location is not $country,region$"),
    ("$france$", "location is not $country,region$"),
    ("$france,paris,idf$", "location is not $country,region$"),
    ("$atlantis,poseidonia$", "unknown country in location"),
    ("$,lazio$", "location has no country"),
    ("$italy,$", "empty region in location"),
    ("$italy,lazio//latium$", "empty region in location"),
])
def test_location_gold_refused(gold, kind):
    assert fields(gold_problems(item("location", gold))) == [("answer", kind)]


def test_location_aliases_written_as_answers_need_the_shape_not_a_known_country():
    ok = item("location", "$germany,bavaria$", aliases=["$deutschland,bayern$", "bayern"])
    assert gold_problems(ok) == []
    bad = item("location", "$germany,bavaria$", aliases=["$germany bavaria$"])
    assert fields(gold_problems(bad)) == [("aliases", "location is not $country,region$")]
    assert split_location("$italy, lazio / latium$") == ("italy", ["lazio", "latium"])


def test_every_box_on_one_of_the_items_images():
    box = {"image": "sha-b", "x0": 0, "y0": 0, "x1": 1, "y1": 1}
    stray = item("open", "x", images=["sha-a"], clues=[{"text": "t", "boxes": [box]}])
    assert fields(gold_problems(stray)) == [("clues", "box on no image of the item")]
    stray["images"].append("sha-b")
    assert gold_problems(stray) == []
