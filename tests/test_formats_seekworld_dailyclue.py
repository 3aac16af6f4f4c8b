"""SeekWorld JSONL and DailyClue triplets: location answers, foreign image paths, clue lists."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from formats import FormatError, import_path
from formats.dailyclue import MISSING_IMAGE
from formats.seekworld import parse_location_answer

FIXTURES = Path(__file__).parent / "fixtures" / "formats"
STREETVIEW = "testaccio_rome_italy_h45_r100_20250317_183133"


def reasons(report, item_id):
    return [p["reason"] for p in report.problems if p["item_id"] == item_id]


# --------------------------------------------------------------------- SeekWorld
@pytest.mark.parametrize("answer, country, aliases, ok", [
    ("$italy,lazio/lazio/latium/latium$", "italy", ["lazio", "latium"], True),
    ("$China,Chongqing$", "China", ["Chongqing"], True),
    ("italy,lazio", None, [], False),
    ("$italy$", "italy", [], False),
])
def test_parse_location_answer(answer, country, aliases, ok):
    got_country, got_aliases, problem = parse_location_answer(answer)
    assert (got_country, got_aliases, problem is None) == (country, aliases, ok)


def test_seekworld_resolves_foreign_paths_by_file_name(store, tmp_path, make_png):
    make_png(tmp_path / "imgs" / "nested", name=f"{STREETVIEW}.jpg", image_format="JPEG")
    report = import_path(store, "seekworld", FIXTURES / "seekworld_example.jsonl",
                         images_dir=tmp_path / "imgs")
    assert report.imported == 1 and report.problems == []
    item = store.get_item(f"seekworld/{STREETVIEW}")
    assert item["answer"] == "$italy,lazio/lazio/latium/latium$"
    assert item["answer_type"] == "location"
    assert item["aliases"] == ["lazio", "latium"]
    assert item["metadata"]["country"] == "italy"
    assert item["question"].startswith("In which country and within which first-level")
    assert item["metadata"]["system_prompt"].startswith("You are a helpful assistant")
    assert item["metadata"]["image_paths"][0].startswith("/data/phd/")
    assert len(item["images"]) == 1


def test_seekworld_never_reads_where_foreign_paths_point(store, tmp_path, make_png):
    outside = make_png(tmp_path / "outside", name="secret.png")
    line = {"message": json.dumps([{"role": "user", "content": [
        {"type": "image", "image": str(outside)}, {"type": "text", "text": "Where?"}]}]),
        "answer": "$france,bretagne$"}
    path = tmp_path / "data" / "in.jsonl"
    path.parent.mkdir()
    path.write_text(json.dumps(line) + "\n")
    report = import_path(store, "seekworld", path, images_dir=tmp_path / "data")
    assert store.get_item("seekworld/secret")["images"] == []
    assert any(r.startswith("image file not found: image 1 (") for r in
               reasons(report, "seekworld/secret"))
    assert not any("secret.png" in r for r in reasons(report, "seekworld/secret"))


def test_seekworld_malformed_lines(store, tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join([
        json.dumps({"message": "not json", "answer": "$a,b$"}),
        json.dumps({"message": "[]", "answer": "no dollars", "id": "x1"}),
        "{broken",
    ]) + "\n")
    report = import_path(store, "seekworld", path)
    assert report.imported == 3 and report.flagged == 3
    assert any(r.startswith("malformed location answer") for r in reasons(report, "seekworld/x1"))
    assert store.get_item("seekworld/line-3")["metadata"]["raw_line"] == "{broken"


# --------------------------------------------------------------------- DailyClue
@pytest.fixture
def daily_dir(tmp_path, make_png):
    shutil.copy(FIXTURES / "dailyclue_sample.json", tmp_path / "daily.json")
    make_png(tmp_path / "pics", name="street.jpg", image_format="JPEG", w=40, h=30)
    make_png(tmp_path / "pics", name="table.png", w=40, h=30)
    make_png(tmp_path, name="secret.png")
    return tmp_path


def test_dailyclue_triplets(store, daily_dir):
    report = import_path(store, "dailyclue", daily_dir / "daily.json")
    assert report.imported == 5
    loc = store.get_item("dailyclue/loc_1")
    assert loc["answer_type"] == "location" and loc["aliases"] == ["lazio", "latium"]
    assert [c["text"] for c in loc["clues"]] == ["A sign in Italian.", "A SPQR manhole cover."]
    assert loc["metadata"]["source"] == "SeekWorld"
    assert loc["domain"] == "Location Identification"
    spa = store.get_item("dailyclue/spa_1")
    assert spa["answer_type"] == "yes_no" and spa["answer"] == "Yes."
    assert spa["clues"][0]["boxes"][0]["x1"] == 10
    sci = store.get_item("dailyclue/sci_1")
    assert sci["answer_type"] == "multiple_choice"
    assert [(o["label"], o["text"]) for o in sci["options"]] == [
        ("A", "Melting"), ("B", "Boiling"), ("C", "Freezing")]
    assert len(sci["images"]) == 2
    daily = store.get_item("dailyclue/daily_1")
    # no image: flagged, as a SeekWorld line without one is (issue #12)
    assert daily["answer_type"] == "yes_no" and daily["flagged"]
    assert daily["problems"] == [MISSING_IMAGE]
    assert all(MISSING_IMAGE not in store.get_item(i)["problems"]
               for i in ("dailyclue/loc_1", "dailyclue/spa_1", "dailyclue/sci_1"))


def test_dailyclue_flags_without_dropping(store, daily_dir):
    report = import_path(store, "dailyclue", daily_dir / "daily.json")
    bad = reasons(report, "dailyclue/bad_1")
    assert any(r.startswith("gold answer has no option") for r in bad)
    assert any("leaves the image folder" in r for r in bad)
    item = store.get_item("dailyclue/bad_1")
    assert item["metadata"]["options_raw"] == "A. a cat B. a dog"
    assert item["images"] == []


def test_dailyclue_jsonl_and_plain_array(store, tmp_path):
    triplet = {"question": "Is it raining?", "clues": ["Wet road."], "answer": "No"}
    (tmp_path / "a.jsonl").write_text(json.dumps(triplet) + "\n" + json.dumps(triplet) + "\n")
    (tmp_path / "b.json").write_text(json.dumps([triplet]))
    assert import_path(store, "dailyclue", tmp_path / "a.jsonl", dataset="a").imported == 2
    assert import_path(store, "dailyclue", tmp_path / "b.json", dataset="b").imported == 1
    assert store.get_item("a/2")["clues"][0]["text"] == "Wet road."


@pytest.mark.parametrize("content", ['{"items": [1, 2', "question,answer\nq,a\n"])
def test_dailyclue_broken_file_is_fatal(store, tmp_path, content):
    path = tmp_path / "d.json"
    path.write_text(content)
    with pytest.raises(FormatError, match="d.json"):
        import_path(store, "dailyclue", path)
    assert store.count_items() == 0
