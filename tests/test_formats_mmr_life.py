"""MMR-Life import: option parsing, image folders, and the release's real malformations.

The fixture `mmr_life_malformed.json` reproduces the malformed items found in the real
MMR_Life.json (CIA_7 "A.Jerry", CIA_44 "notice.E.", RSD_44 duplicated B and gold C) plus
synthetic breakage (missing folder, hostile path, missing fields, duplicate id).
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from formats import FormatError, import_path
from formats.mmr_options import split_options, split_question

FIXTURES = Path(__file__).parent / "fixtures" / "formats"


# --------------------------------------------------------------------- option parsing
def test_split_question_strips_prefix_and_keeps_option_text():
    stem, options = split_question("Question: Why? Pick one.\nOptions: A. x B. y ")
    assert stem == "Why? Pick one."
    assert options == " A. x B. y "


def test_split_options_well_formed():
    parsed = split_options(" A. She is thirsty. B. Routine. C. Medicine. D. Water. E. Fun. ")
    assert parsed.options == [("A", "She is thirsty."), ("B", "Routine."), ("C", "Medicine."),
                              ("D", "Water."), ("E", "Fun.")]
    assert parsed.problems == []


def test_split_options_ignores_letters_inside_text():
    parsed = split_options("A. Take vitamin C. daily B. the U.S. team C. x D. y E. plan F. ok")
    assert [label for label, _ in parsed.options] == list("ABCDE")
    assert parsed.options[0] == ("A", "Take vitamin C. daily")
    assert parsed.options[4] == ("E", "plan F. ok")
    assert parsed.problems == []


def test_split_options_missing_space_after_label():
    parsed = split_options(" A.Jerry turned into a ball. B. b C. c D. d E. e ")
    assert parsed.options[0] == ("A", "Jerry turned into a ball.")
    assert parsed.problems == ["missing space after option label: A"]


def test_split_options_missing_space_before_label():
    parsed = split_options(" A. a B. b C. c D. asleep and wouldn't notice.E. Because. ")
    assert parsed.options[3] == ("D", "asleep and wouldn't notice.")
    assert parsed.options[4] == ("E", "Because.")
    assert parsed.problems == ["missing space before option label: E"]


def test_split_options_duplicated_label():
    parsed = split_options(" A. 8-1 B. 8-2 B. 8-2 D. 8-3 E. 8-4 ")
    assert [label for label, _ in parsed.options] == ["A", "B", "B", "D", "E"]
    assert "duplicated option label: B" in parsed.problems
    assert "missing option label: C (text jumps to D)" in parsed.problems


def test_split_options_without_labels_keeps_text():
    parsed = split_options(" just some text ")
    assert parsed.options == []
    assert parsed.preamble == "just some text"
    assert parsed.problems and parsed.problems[0].startswith("unparsed options")


# --------------------------------------------------------------------- import
def make_tree(root: Path, make_png) -> None:
    """Image folders for the fixture items (HAL_9 deliberately has none)."""
    base = root / "images"
    haa = base / "abductive/Human Activity Attribution/1"
    for n, name in enumerate(["10.png", "2.png", "1.png"]):
        make_png(haa, name=name, color=(10 * n, 20, 30))
    ari = base / "analogical/Animal Relation Inference/1"
    for n in range(1, 4):
        make_png(ari, name=f"{n}.png", color=(40, 10 * n, 30))
    for n in range(1, 6):
        make_png(ari / "options", name=f"{n}.png", color=(50, 60, 10 * n))
    for k, folder in enumerate(["abductive/Character Interaction Attribution/7",
                                "abductive/Character Interaction Attribution/44",
                                "deductive/Recipe Step Deduction/44",
                                "abductive/Multi-Hop Collision Attribution/2",
                                "analogical/Product Similarity Inference/3"]):
        make_png(base / folder, name="1.png", color=(90, 90, 10 * k))


@pytest.fixture
def mmr_dir(tmp_path, make_png):
    root = tmp_path / "mmr"
    root.mkdir()
    shutil.copy(FIXTURES / "mmr_life_malformed.json", root / "MMR_Life.json")
    make_tree(root, make_png)
    return root


def problems_of(report, item_id):
    return [p["reason"] for p in report.problems if p["item_id"] == item_id]


def test_import_well_formed_text_item(store, mmr_dir):
    report = import_path(store, "mmr-life", mmr_dir / "MMR_Life.json")
    item = store.get_item("mmr-life/HAA_1")
    assert item["question"].startswith("Why does the woman drink?")
    assert item["metadata"]["original_question"].startswith("Question: Why does the woman")
    assert item["metadata"]["source_id"] == "HAA_1"
    assert item["reasoning_type"] == "abductive"
    assert item["subtask"] == "Human Activity Attribution"
    assert [o["label"] for o in item["options"]] == list("ABCDE")
    assert item["answer"] == "C" and item["answer_type"] == "multiple_choice"
    assert item["problems"] == [] and not item["flagged"]
    # natural order: 1.png, 2.png, 10.png
    colors = [(0, 20, 30), (10, 20, 30), (20, 20, 30)][::-1]
    assert len(item["images"]) == 3
    from PIL import Image
    seen = [Image.open(store.image_path(sha)).getpixel((0, 0)) for sha in item["images"]]
    assert seen == colors
    assert problems_of(report, "mmr-life/HAA_1") == []


def test_import_image_options(store, mmr_dir):
    import_path(store, "mmr-life", mmr_dir / "MMR_Life.json")
    item = store.get_item("mmr-life/ARI_1")
    assert len(item["images"]) == 3
    assert [o["label"] for o in item["options"]] == list("ABCDE")
    assert all(o["image"] and o["text"] == "" for o in item["options"])
    assert item["problems"] == []


def test_import_flags_real_malformations(store, mmr_dir):
    report = import_path(store, "mmr-life", mmr_dir / "MMR_Life.json")
    assert problems_of(report, "mmr-life/CIA_7") == ["missing space after option label: A"]
    assert store.get_item("mmr-life/CIA_7")["options"][0]["text"].startswith("Jerry turned")
    assert problems_of(report, "mmr-life/CIA_44") == ["missing space before option label: E"]
    rsd = problems_of(report, "mmr-life/RSD_44")
    assert "duplicated option label: B" in rsd
    assert any(p.startswith("gold answer has no option") for p in rsd)
    item = store.get_item("mmr-life/RSD_44")
    assert item["flagged"] and item["answer"] == "C"
    assert "B. 8-1-3-7-4-5-2-6 B. 8-1-3-7-4-5-2-6" in item["metadata"]["options_raw"]
    mca = problems_of(report, "mmr-life/MCA_2")
    assert "option count: expected 5, found 4" in mca
    assert any(p.startswith("gold answer has no option") for p in mca)


def test_import_never_drops_broken_items(store, mmr_dir):
    report = import_path(store, "mmr-life", mmr_dir / "MMR_Life.json")
    assert report.items_read == 11
    assert report.imported == 11 and report.skipped == 0
    assert problems_of(report, "mmr-life/HAL_9") == [
        "missing image folder: img_path (a folder inside the image folder)"]
    assert any(p.startswith("unsafe image path") for p in problems_of(report, "mmr-life/SFI_1"))
    psi = problems_of(report, "mmr-life/PSI_3")
    assert "missing field: question" in psi and "missing field: golden_answer" in psi
    assert store.get_item("mmr-life/#10")["metadata"]["raw"] == "not an item"
    dup = store.get_item("mmr-life/HAA_1~2")
    assert dup["question"].startswith("A second item") and dup["flagged"]
    assert report.flagged == 9


def test_unreadable_image_is_a_problem_naming_the_image_by_its_place(store, mmr_dir):
    folder = mmr_dir / "images/abductive/Character Interaction Attribution/7"
    (folder / "2.png").write_text("this is not a PNG")
    report = import_path(store, "mmr-life", mmr_dir / "MMR_Life.json")
    reasons = problems_of(report, "mmr-life/CIA_7")
    assert any(r.startswith("unreadable image: image 2 (") for r in reasons)
    assert not any("7/2.png" in r for r in reasons)
    assert len(store.get_item("mmr-life/CIA_7")["images"]) == 1


def test_images_dir_option_and_dataset_override(store, mmr_dir, tmp_path):
    json_file = tmp_path / "elsewhere.json"
    shutil.copy(mmr_dir / "MMR_Life.json", json_file)
    report = import_path(store, "mmr-life", json_file, images_dir=mmr_dir, dataset="mmr2")
    assert report.dataset == "mmr2"
    assert len(store.get_item("mmr2/HAA_1")["images"]) == 3


def test_without_image_tree_every_item_is_flagged_not_dropped(store, tmp_path):
    entries = json.loads((FIXTURES / "mmr_life_malformed.json").read_text())[:5]
    path = tmp_path / "MMR_Life.json"
    path.write_text(json.dumps(entries))
    report = import_path(store, "mmr-life", path)
    assert report.imported == 5 and report.flagged == 5
    assert report.problem_counts()["missing image folder"] == 5


def test_wrong_format_is_fatal(store, tmp_path):
    path = tmp_path / "x.json"
    path.write_text(json.dumps([{"question": "q", "answer": "a"}]))
    with pytest.raises(FormatError, match="not MMR-Life"):
        import_path(store, "mmr-life", path)
    path.write_text(json.dumps({"id": "HAA_1"}))
    with pytest.raises(FormatError, match="JSON array"):
        import_path(store, "mmr-life", path)
    assert store.count_items() == 0


def test_file_whose_every_path_leaves_the_folder_is_refused(store, tmp_path):
    path = tmp_path / "evil.json"
    path.write_text(json.dumps([
        {"id": "A_1", "img_path": "../../etc", "question": "Question: q\nOptions: ",
         "golden_answer": "A"},
        {"id": "A_2", "img_path": "/etc", "question": "Question: q\nOptions: ",
         "golden_answer": "A"}]))
    with pytest.raises(FormatError, match="leaves the image folder"):
        import_path(store, "mmr-life", path)
    assert store.count_items() == 0


def test_images_option_may_name_the_images_folder_itself(store, mmr_dir):
    report = import_path(store, "mmr-life", mmr_dir / "MMR_Life.json",
                         images_dir=mmr_dir / "images")
    assert len(store.get_item("mmr-life/HAA_1")["images"]) == 3
    assert report.problem_counts()["missing image folder"] == 1      # HAL_9 only


def test_problem_counts_group_by_kind(store, mmr_dir):
    report = import_path(store, "mmr-life", mmr_dir / "MMR_Life.json")
    counts = report.problem_counts()
    assert counts["missing space after option label"] == 1
    assert counts["duplicated option label"] == 1
    assert counts["gold answer has no option"] == 2


def test_symlinked_image_leaving_the_folder_is_refused(store, mmr_dir, tmp_path, make_png):
    secret = make_png(tmp_path / "outside", name="secret.png")
    folder = mmr_dir / "images/abductive/Character Interaction Attribution/7"
    (folder / "2.png").symlink_to(secret)
    (mmr_dir / "images/deductive/Recipe Step Deduction/44/options").symlink_to(secret.parent)
    report = import_path(store, "mmr-life", mmr_dir / "MMR_Life.json")
    assert any("leaves the image folder" in r for r in problems_of(report, "mmr-life/CIA_7"))
    assert len(store.get_item("mmr-life/CIA_7")["images"]) == 1
    assert any("leaves the image folder" in r for r in problems_of(report, "mmr-life/RSD_44"))
