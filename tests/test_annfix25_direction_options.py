"""An import's text-direction problem names an option by its label, as the rest of the app
does: "option 2" was read for an item whose options are lettered A and B."""
import json

from formats import import_path
from judges.direction_parts import option_name, text_parts

RLO = "\u202e"


def test_the_import_problem_names_options_by_label(store, tmp_path):
    source = tmp_path / "d.jsonl"
    source.write_text(json.dumps({
        "id": "t/d", "dataset": "t", "question": f"Which{RLO}?",
        "answer_type": "multiple_choice", "answer": "A",
        "clues": [{"text": f"tiny cat {RLO}evil", "reasoning": ""}],
        "options": [{"label": "A", "text": "a dog"}, {"label": "B", "text": f"a {RLO}cat"}]})
        + "\n")
    import_path(store, "jsonl", source)
    problems = store.get_item("t/d")["problems"]
    assert any(p.startswith("text-direction characters: question, clue 1 text, option B "
                            "(U+202E") for p in problems), problems


def test_an_option_without_a_nameable_label_is_named_by_place():
    assert option_name(2, {"label": "<b>x</b>"}) == "option 2"
    assert option_name(1, {"label": ""}) == "option 1"
    names = [n for n, _ in text_parts({"options": [{"label": "C", "text": "x"}]})]
    assert names[-2:] == ["option C label", "option C"]
