"""A file's name that is no dataset name: "Q&A set.jsonl" gave its malformed line the
dataset "Q&A set", which the store refused: the line was dropped ("refused by the store
(its dataset breaks the store's rules)"), though malformed lines are kept and flagged,
never dropped, and its cause (invalid JSON) was not said."""
import json

import pytest

from domain.item_ids import dataset_from_file, name_problem
from tests.scoring_helpers import cli


@pytest.mark.parametrize("name, dataset", [("Q&A set.jsonl", "Q-A set"),
                                           ("tom's.jsonl", "tom-s"),
                                           ("..hidden.jsonl", "hidden"),
                                           ("<b>.jsonl", "-b-"), ("plain.jsonl", "plain")])
def test_a_files_name_becomes_a_dataset_name_the_store_takes(name, dataset):
    assert dataset_from_file(f"/x/{name}") == dataset
    assert name_problem("dataset", dataset) is None


def test_a_malformed_line_of_a_file_named_with_markup_is_kept_and_flagged(tmp_path):
    path = tmp_path / "Q&A set.jsonl"
    good = {"id": "qa/ok1", "dataset": "qa", "question": "q?", "answer": "x",
            "answer_type": "open"}
    path.write_text(json.dumps(good) + "\n{broken line\n")
    db = tmp_path / "c.db"
    code, out, err = cli("import", "--db", str(db), "--format", "jsonl", str(path), "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["imported"] == 2 and report["skipped"] == 0, report
    from store import Store
    store = Store.open(db)
    try:
        item = store.get_item("Q-A set/line-2")
        assert any(p.startswith("malformed line: invalid JSON") for p in item["problems"])
    finally:
        store.close()


def test_a_box_on_a_line_without_images_says_so_in_words(tmp_path):
    """"its image 0 is beyond the line's no image" read garbled."""
    from formats.jsonl import read
    path = tmp_path / "l.jsonl"
    path.write_text(json.dumps({"id": "t/x", "dataset": "t", "question": "Which?",
                                "clues": [{"text": "a sign", "boxes": [
                                    {"image": 0, "x0": 1, "y0": 2, "x1": 3, "y1": 4}]}]}) + "\n")
    [record] = read(path)
    said = [p for p in record["problems"] if p.startswith("invalid box")]
    assert said and "beyond the line's images: it lists none, so it is on no image" in said[0], \
        record["problems"]
    assert "line's no image" not in said[0]


def test_text_direction_characters_in_imported_text_are_flagged_not_rewritten(tmp_path):
    """A question holding U+202E read reversed on every page, unflagged, while a comment or
    a review note holding one is refused."""
    from formats.direction_flags import direction_flags
    item = {"question": "Which RLO\u202e sign?", "answer": "A",
            "clues": [{"text": "ok", "reasoning": "x\u2066y\u2069"}],
            "options": [{"label": "A", "text": "fine"}]}
    [flag] = direction_flags(item)
    assert flag == ("text-direction characters: question, clue 1 reasoning (U+202E, U+2066, "
                    "U+2069: they can make text read as other text; kept as imported, remove "
                    "them if they are not the text's own)")
    assert direction_flags({"question": "plain", "clues": [], "options": []}) == []
    path = tmp_path / "d.jsonl"
    path.write_text(json.dumps({"id": "t/d", "dataset": "t", "question": "Q\u202e?",
                                "answer": "x", "answer_type": "open"}) + "\n")
    db = tmp_path / "d.db"
    code, _, err = cli("import", "--db", str(db), "--format", "jsonl", str(path))
    assert code == 0, err
    from store import Store
    store = Store.open(db)
    try:
        item = store.get_item("t/d")
        assert item["question"] == "Q\u202e?" and item["flagged"]
        assert any(p.startswith("text-direction characters: question") for p in item["problems"])
    finally:
        store.close()
