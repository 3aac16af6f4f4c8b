"""The shared gold-answer rules (judges.gold_check): pure function, one test per type."""
import pytest

from judges.gold_check import (GOLD_KINDS, gold_problems, number_or_none, numeric_value,
                               split_location, still_holds)


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
    ("numeric", "12.8 g"), ("numeric", "1,200"), ("numeric", "€5.30"), ("numeric", "5,30 €"), ("location", "$deutschland,bayern$"),
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


@pytest.mark.parametrize("text, value", [
    ("8", 8.0), ("12.8", 12.8), ("-3e2", -300.0), ("1,200", 1200.0), ("3 km", 3.0),
    ("12.8 g", 12.8), ("1,200 m", 1200.0), ("45%", 45.0), ("−5 °C", -5.0), ("8min", 8.0),
    ("twelve", None), ("12 or 13", None), ("12 to 15 min", None), ("nan", None),
    ("inf", None), ("3e2 m", None), ("about 8", None),
    # a currency before or after, a decimal comma ("5,30 €" was refused, and the scorer
    # read it as 30); a comma that is neither a thousands nor a decimal one is no number
    ("5.30 €", 5.3), ("€5.30", 5.3), ("5,30 €", 5.3), ("€ 5,30", 5.3), ("US$ 5", 5.0),
    ("EUR 5.30", 5.3), ("1,5", 1.5), ("1,2345", None), ("1.200,50 €", None), ("€", None),
    ("€5 EUR", None),
    # the letter O typed for a zero is no unit ("1O min" saved as 1 minute); ounces are
    ("1O min", None), ("2O%", None), ("1o", None), ("5 oz", 5.0), ("5oz", 5.0)])
def test_numeric_gold_and_aliases_follow_one_rule_a_number_a_unit_allowed(text, value):
    """A numeric gold "3 km" was flagged "not a number" while the alias "3 km" was fine (the
    README allows a unit): one rule, `numeric_value`, read the scorer's way."""
    from judges.rules import number_value

    assert numeric_value(text) == value
    gold, alias = (fields(gold_problems(item("numeric", text))),
                   fields(gold_problems(item("numeric", "", aliases=[text]))))
    if value is None:
        assert (gold, alias) == ([("answer", "gold answer is not a number")],
                                 [("aliases", "numeric alias without a number")])
    else:
        assert gold == alias == []
        assert value is None or number_value(text) == value    # what the scorer reads
    assert number_or_none("1,200") == 1200.0 and number_or_none("x") is None


def test_a_number_is_no_region_name():
    """The numeric aliases "8 minutes" and "8 min" stayed under location (a region name)."""
    assert fields(gold_problems(item("location", "", aliases=["8 minutes", "8 min"]))) == [
        ("aliases", "region is a number in location")] * 2
    assert gold_problems(item("location", "", aliases=["Île-de-France", "bayern"])) == []


@pytest.mark.parametrize("region", ["12", "8 minutes", "", "lazio//latium"])
def test_a_region_follows_one_rule_in_the_gold_and_in_the_aliases(region):
    """Region "12" was accepted in the gold and refused as an alias: one rule for both,
    whether the alias is written as an answer or as a region name."""
    gold = fields(gold_problems(item("location", f"$italy,{region}$")))
    as_answer = fields(gold_problems(item("location", "", aliases=[f"$italy,{region}$"])))
    assert gold and [kind for _, kind in gold] == [kind for _, kind in as_answer]
    if region and "/" not in region:
        assert fields(gold_problems(item("location", "", aliases=[region]))) == as_answer
    assert gold_problems(item("location", "$italy,lazio/12$"))   # an alias of the gold too


def test_region_messages_say_what_is_wrong_in_the_annotators_words():
    """The empty-region message said "(aliases are separated by '/')" for "$italy,$"."""
    assert [p.message for p in gold_problems(item("location", "$italy,$"))] == [
        "empty region in location: '$italy,$': it names no region after the country"]
    assert [p.message for p in gold_problems(item("location", "$italy,lazio//latium$"))] == [
        "empty region in location: '$italy,lazio//latium$': an empty region name between "
        "two '/'"]
    assert [p.message for p in gold_problems(item("location", "", aliases=["12"]))] == [
        "region is a number in location: '12' is no region name"]
    assert [p.message for p in gold_problems(item("location", "$italy,12$"))] == [
        "region is a number in location: '$italy,12$': '12' is no region name"]


BROKEN = [item("numeric", "4", ABCD), item("multiple_choice", "A"),
          item("multiple_choice", "A", [("", "x"), ("", "y")]),
          item("multiple_choice", "Z", [("A", ""), ("A", "y")]), item("yes_no", "maybe"),
          item("numeric", "twelve"), item("location", "Paris"), item("location", "$,x$"),
          item("location", "$atlantis,x$"), item("location", "$italy,$"),
          item("yes_no", "", aliases=["yep"]), item("numeric", "", aliases=["x"]),
          item("location", "", aliases=["a$b"]), item("location", "$italy,12$"),
          item("open", "", images=["a"], clues=[{"boxes": [{"image": "b"}]}]),
          item("multiple_choice", "A", [("A", "x"), ("B", "x")])]


def test_every_kind_the_rules_report_is_one_still_holds_can_check():
    kinds = {p.kind for broken in BROKEN for p in gold_problems(broken, quote=False)}
    assert kinds == GOLD_KINDS


def test_an_import_problem_holds_until_the_edited_item_keeps_its_rule():
    """dailyclue/mc2: imported open with options, gold Z, no image; made multiple choice
    with gold A and two images. Its three problems were kept (and the item flagged)."""
    imported = item("open", "Z", [("A", "red"), ("B", "blue")])
    problems = ["gold answer has no option: it is none of the 2 option labels",
                "image file not found: image 1 (a file at that path inside the image folder)",
                "options on a non-multiple-choice item: an item of type open has no options "
                "(2 given); remove them or make it multiple_choice",
                "missing image: the item names no image (give image or images)"]
    assert [still_holds(p, imported) for p in problems] == [False, True, True, True]
    fixed = {**imported, "answer_type": "multiple_choice", "answer": "A",
             "images": ["sha1", "sha2"]}
    assert [still_holds(p, fixed) for p in problems] == [False, False, False, False]
    assert still_holds("gold answer has no option: 'Z' (options A, B)",
                       {**fixed, "answer": "Z"}) is True


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


def test_an_empty_alias_is_named_an_empty_alias():
    """A location item's empty alias was reported as "empty region in location"."""
    from judges.gold_check import alias_problems
    for answer_type in ("location", "open", "numeric", "yes_no"):
        assert alias_problems(answer_type, "  ") == [
            "empty alias: an accepted alias needs a text (the editor drops it at save)"]
