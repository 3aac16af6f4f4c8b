"""domain.extract: a table of hand-made model outputs and what must be read from them.

None means "unparsed": no answer may be guessed.
"""
import pytest

from domain.extract import extract
from domain.geometry import box_to_pixels, detect_box_convention

SHAPES = [{"label": label, "text": text, "image": None} for label, text in zip(
    "ABCDE", ["a red sphere", "a green cone", "a blue cube", "a yellow torus", "a black pyramid"])]
FOUR = SHAPES[:4]
PETS = [{"label": "A", "text": "a cat"}, {"label": "B", "text": "a dog"}]
ALCOVE = [{"label": "A", "text": "The sofa"}, {"label": "B", "text": "The desk"},
          {"label": "C", "text": "The bookcase"}, {"label": "D", "text": "The lamp"}]

ANSWERS = [
    # multiple choice: markers, strict to lenient
    ("Answer: C", "multiple_choice", SHAPES, "C"),
    ("# Answer: C", "multiple_choice", SHAPES, "C"),
    ("**Answer:** C", "multiple_choice", SHAPES, "C"),
    ("**Answer: C**", "multiple_choice", SHAPES, "C"),
    ("The colours match.\nThe final answer is $\\boxed{C}$.", "multiple_choice", SHAPES, "C"),
    ("\\boxed{\\text{C}}", "multiple_choice", SHAPES, "C"),
    ("<answer>C</answer>", "multiple_choice", SHAPES, "C"),
    ("The correct option is (C).", "multiple_choice", SHAPES, "C"),
    ("answer: c", "multiple_choice", SHAPES, "C"),
    ("Answer: (b)", "multiple_choice", SHAPES, "B"),
    ("Final Answer:\n\nD", "multiple_choice", SHAPES, "D"),
    ("The answer is D because the torus is yellow.", "multiple_choice", SHAPES, "D"),
    # no marker: the last line, a bare letter, (X), the option's text
    ("The cube is blue.\nC. a blue cube", "multiple_choice", SHAPES, "C"),
    ("The cube is blue.\nC) the cube", "multiple_choice", SHAPES, "C"),
    ("C\n\nThe cube is blue, as the left image shows.", "multiple_choice", SHAPES, "C"),
    ("Looking at the shapes in order...\n\n(C)", "multiple_choice", SHAPES, "C"),
    ("So the best match is (C).", "multiple_choice", SHAPES, "C"),
    ("It is a blue cube.", "multiple_choice", SHAPES, "C"),
    ("a blue cube", "multiple_choice", SHAPES, "C"),
    ("Answer: a blue cube", "multiple_choice", SHAPES, "C"),
    ("Answer: A dog", "multiple_choice", PETS, "B"),
    # the final statement wins; two different final letters are unparsed
    ("Answer: B\nHmm, wait, the colour is blue.\nAnswer: C", "multiple_choice", SHAPES, "C"),
    ("Answer: B ... wait ... Answer: C", "multiple_choice", SHAPES, "C"),
    ("Answer: C\n\\boxed{C}", "multiple_choice", SHAPES, "C"),
    ("Answer: B or C", "multiple_choice", SHAPES, None),
    ("Answer: B, C", "multiple_choice", SHAPES, None),
    ("The cube could be either.\n\\boxed{B} \\boxed{C}", "multiple_choice", SHAPES, None),
    ("It is either a red sphere or a blue cube.", "multiple_choice", SHAPES, None),
    # the MMR-Life trap and friends: letters inside words never count
    ("# Answer: C\nThis matches the blue cube.", "multiple_choice", SHAPES, "C"),
    ("None of these look right to mE.", "multiple_choice", SHAPES, None),
    ("I cannot tell from the image.", "multiple_choice", SHAPES, None),
    ("", "multiple_choice", SHAPES, None),
    ("Answer: E", "multiple_choice", FOUR, None),  # E is no label of a four-option item
    ("<think>Answer: A? No, look again.</think>\nAnswer: B", "multiple_choice", SHAPES, "B"),
    # yes / no
    ("Yes.", "yes_no", None, "Yes"),
    ("yes", "yes_no", None, "Yes"),
    ("No, because the sign is in French.", "yes_no", None, "No"),
    ("**No**", "yes_no", None, "No"),
    ("Answer: yes", "yes_no", None, "Yes"),
    ("The lamp is off.\nTherefore, the answer is no.", "yes_no", None, "No"),
    ("Yes and no.", "yes_no", None, None),
    ("Yes, the lamp is on.\nOn second thought the switch is down.\nNo.", "yes_no", None, None),
    ("It depends on the angle.", "yes_no", None, None),
    # location
    ("$Italy, Lazio$", "location", None, "$italy,lazio$"),
    ("The dome is St Peter's.\n<answer>$ITALY ,  Lazio $</answer>", "location", None,
     "$italy,lazio$"),
    ("Country: United States\nRegion: California", "location", None,
     "$united states,california$"),
    ("Country: France, Region: Île-de-France", "location", None, "$france,île-de-france$"),
    ("Answer: Japan, Tokyo", "location", None, "$japan,tokyo$"),
    ("I don't know where this is.", "location", None, None),
    # numeric
    ("Answer: 12.5", "numeric", None, "12.5"),
    ("\\boxed{12.5}", "numeric", None, "12.5"),
    ("About 12,000 people attended.", "numeric", None, "12000"),
    ("The tower is 324 m tall.", "numeric", None, "324"),
    ("Answer: 45%", "numeric", None, "45"),
    ("We count 3 cars, then 4 more, so 7 cars.", "numeric", None, "7"),
    ("Answer: −3.50 °C", "numeric", None, "-3.5"),
    ("There is no number here.", "numeric", None, None),
    # an answer line without a number is unparsed; list numbering is never the answer
    ("Clues:\n1. A bus is at the stop.\n2. People are standing in line.\n\nAnswer: C",
     "numeric", None, None),
    ("The answer is: several people.\n1. crowd\n2. queue", "numeric", None, None),
    ("Clues:\n1. A bus is at the stop.\n2. People are standing in line.", "numeric", None,
     None),
    ("As clue 2 shows, the queue is long.", "numeric", None, None),
    ("Step 1) count the chairs.\nStep 2) count the tables.", "numeric", None, None),
    ("1. There are 3 cars.\n2. There are 4 more, 7 in all.", "numeric", None, "7"),
    ("Counting row by row, clue 2 gives 14 people.\n1. front row\n2. back row", "numeric",
     None, "14"),
    ("1. Each shelf holds 12 jars.\n2. Three shelves.\nSo the total is 36.", "numeric", None,
     "36"),
    ("The count is:\n42.", "numeric", None, "42"),
    ("Answer: 2. People are standing.", "numeric", None, "2"),
    # open
    ("Some reasoning.\nAnswer: The Eiffel Tower", "open", None, "The Eiffel Tower"),
    ("<answer>Paris</answer>", "open", None, "Paris"),
    ("The clock shows noon.\nIt is about 12 o'clock.", "open", None, "It is about 12 o'clock."),
    ("   \n", "open", None, None),
    # an answer marker with nothing after it gives no answer (it was read as "Answer")
    ("Answer:", "open", None, None), ("It is cold.\nFinal answer:  ", "open", None, None),
    # structured JSON answers
    ('{"answer": "C", "clues": []}', "multiple_choice", SHAPES, "C"),
    ('```json\n{"answer": "Yes", "clues": ["lamp"]}\n```\nHope this helps.', "yes_no", None,
     "Yes"),
    ('{"answer": "B or C", "clues": []}', "multiple_choice", SHAPES, None),
    ('{"answer": "A", "clues": ["a cat ear",],}', "multiple_choice", PETS, "A"),
    ('{"answer": "$Italy,Lazio$"}', "location", None, "$italy,lazio$"),
    ('{"answer": 12.5}', "numeric", None, "12.5"),
    # a clue line, or a number inside one, is never the answer of a complete reply
    ("Clues:\n1. The alcove is about 110 cm wide\n2. The bookcase is 80 cm wide", "numeric",
     None, None),
    ("Clue 1: departures at :05 and :25\nReasoning: every 20 minutes", "numeric", None, None),
    ("Clues:\n1. Bare trees\n2. Snow on the ground", "open", None, None),
    ("Clues:\n- the sign shows (B)", "multiple_choice", ALCOVE, None),
    ("Clues:\n1. The bookcase stands in the alcove", "multiple_choice", ALCOVE, None),
    ("Evidence:\n- no, the lamp is off", "yes_no", None, None),
    # prose after the clues is read as before
    ("Clues:\n1. The alcove is 110 cm wide\n2. The bookcase is 80 cm wide\n\nSo 30 cm are "
     "left.", "numeric", None, "30"),
    ("Clues:\n1. Bare trees\n\nIt is winter.", "open", None, "It is winter."),
    ("Clues:\n1. The alcove is 110 cm wide\n\nC", "multiple_choice", ALCOVE, "C"),
    # a list that is no clue list: its numbering is never part of the answer
    ("Steps:\n1. It is cold\n2. Snow on the ground", "open", None, "Snow on the ground"),
    # a range or two numbers is no one answer (the first was taken: "8-10" read 8, correct)
    ("Answer: 8-10 minutes", "numeric", None, None),
    ("Answer: between 8 and 10", "numeric", None, None),
    ("Answer: 12.8 or 13", "numeric", None, None),
    ("Answer: 12 minutes.", "numeric", None, "12"),
    # "Option C": the word before the letter (it was unparsed, so counted wrong)
    ("Answer: Option C", "multiple_choice", ALCOVE, "C"),
    ("Answer: option (B)", "multiple_choice", ALCOVE, "B"),
    ("Answer: Option B or C", "multiple_choice", ALCOVE, None),
]


@pytest.mark.parametrize("text,answer_type,options,expected", ANSWERS,
                         ids=[f"{i}-{row[1]}" for i, row in enumerate(ANSWERS)])
def test_answer_table(text, answer_type, options, expected):
    result = extract(text, answer_type, options)
    assert result.answer == expected, result.reason
    assert result.status == ("unparsed" if expected is None else "ok")
    assert result.reason.startswith("answer: ")


def test_the_table_is_big_enough():
    assert len(ANSWERS) >= 40


def test_reason_says_which_rule_matched_or_why_not():
    assert "final answer marker" in extract("# Answer: C", "multiple_choice", SHAPES).reason
    assert "ambiguous" in extract("Answer: B or C", "multiple_choice", SHAPES).reason
    assert "option" in extract("It is a blue cube.", "multiple_choice", SHAPES).reason


def test_a_numeric_answer_line_without_a_number_says_so():
    reply = "1. A bus is at the stop.\n2. People are standing in line.\nAnswer: C"
    result = extract(reply, "numeric")
    assert (result.status, result.answer) == ("unparsed", None)
    assert "last number" not in result.reason and "gives no number" in result.reason


def test_unknown_answer_type_is_an_error():
    with pytest.raises(ValueError):
        extract("Answer: C", "essay")


STRUCTURED = ('Here is my analysis.\n```json\n{"answer": "C", "visual_clues": [\n'
              ' {"clue": "blue paint on the block", "reasoning": "the cube is blue", '
              '"bbox": %s},\n'
              ' {"text": "shadow", "reason": "it is a solid", "bbox_2d": %s}]}\n```\nDone.')


@pytest.mark.parametrize("boxes,image_size,convention", [
    ("[0.1, 0.2, 0.3, 0.4]", None, "normalized_1"),
    ("[100, 200, 300, 400]", None, "normalized_1000"),
    ("[1200, 300, 1500, 500]", None, "pixels"),
    ("[100, 200, 300, 400]", (800, 600), "pixels"),
    ("[100, 200, 700, 650]", (800, 600), "normalized_1000"),
    ("[100, 200, 300, 400]", (1500, 2000), "normalized_1000"),
])
def test_structured_json_with_boxes_in_each_convention(boxes, image_size, convention):
    result = extract(STRUCTURED % (boxes, boxes), "multiple_choice", SHAPES,
                     image_size=image_size)
    assert (result.status, result.answer) == ("ok", "C")
    assert [c["text"] for c in result.clues] == ["blue paint on the block", "shadow"]
    assert [c["reasoning"] for c in result.clues] == ["the cube is blue", "it is a solid"]
    assert result.clues[0]["box"] == [float(v) for v in boxes.strip("[]").split(",")]
    assert result.box_convention == convention
    assert "boxes: " in result.reason


def test_clues_as_pairs_and_annotation_style_keys():
    result = extract('{"answer": "Yes", "clues": [["a lit lamp", "light is on"], '
                     '{"clue3": "switch up", "reasoning": "on", "box": [[1, 2, 3, 4], '
                     '[5, 6, 7, 8]]}]}', "yes_no")
    assert result.answer == "Yes"
    assert result.clues[0] == {"text": "a lit lamp", "reasoning": "light is on", "box": None}
    assert result.clues[1]["box"] == [1.0, 2.0, 3.0, 4.0]
    assert result.clues[1]["boxes"] == [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]
    assert result.box_convention == "normalized_1000"


def test_free_text_clue_lines_with_reasoning_and_boxes():
    text = ("Clue 1: a red STOP sign [10, 20, 30, 40]\nReasoning: stop signs are red octagons\n"
            "**Clue 2:** a left-hand drive car\n\nAnswer: B")
    result = extract(text, "multiple_choice", SHAPES, image_size=(640, 480))
    assert result.answer == "B"
    assert result.clues == [
        {"text": "a red STOP sign", "reasoning": "stop signs are red octagons",
         "box": [10.0, 20.0, 30.0, 40.0]},
        {"text": "a left-hand drive car", "reasoning": None, "box": None}]
    assert result.box_convention == "pixels"


def test_free_text_list_under_a_heading():
    text = "Visual clues:\n- a red sign\n- a blue car\n\nSo the place is Spain.\nAnswer: B"
    result = extract(text, "multiple_choice", SHAPES)
    assert [c["text"] for c in result.clues] == ["a red sign", "a blue car"]
    assert result.box_convention is None


def test_no_clues_no_convention():
    result = extract("Answer: C", "multiple_choice", SHAPES)
    assert result.clues == [] and result.box_convention is None


def test_box_convention_rule_and_conversion_to_pixels():
    clue = {"text": "x", "box": [500.0, 250.0, 1000.0, 500.0]}
    assert detect_box_convention([clue], (2000, 1000))[0] == "normalized_1000"
    assert box_to_pixels(clue["box"], "normalized_1000", (2000, 1000)) == [1000, 250, 2000, 500]
    assert box_to_pixels([0.5, 0.5, 1, 1], "normalized_1", (200, 100)) == [100, 50, 200, 100]
    assert box_to_pixels([1, 2, 3, 4], "pixels", (200, 100)) == [1, 2, 3, 4]


def test_a_structured_answer_field_no_number_is_unparsed_never_a_box_coordinate():
    """A numeric item's structured reply {"answer": "A", "clues": [... "box": [0,0,50,50]]}
    was read as 50, "the last number in the text" (a box coordinate), and counted as a
    read answer."""
    from domain.extract import extract
    reply = ('{"answer": "A", "clues": [{"text": "the label", "box": [10, 10, 200, 120]}, '
             '{"text": "the scale", "box": [0, 0, 50, 50]}]}')
    found = extract(reply, "numeric")
    assert found.status == "unparsed" and found.answer is None
    assert "JSON answer field" in found.reason
    assert extract('{"answer": "12.8 g", "clues": []}', "numeric").answer == "12.8"
    assert extract("The sugar is 12.8 g.\nAnswer: 12.8", "numeric").answer == "12.8"
