"""COCO and Label Studio exports of clue boxes."""
from __future__ import annotations

import json

import pytest
from pycocotools.coco import COCO

from formats import EXPORT_FORMATS, FormatError, export_path


@pytest.fixture
def boxed(store, make_item):
    item = make_item("demo/Q_1", n_images=2, n_clues=2)       # images are 100x80
    item["clues"][1]["boxes"] = [
        {"image": item["images"][1], "x0": 50.0, "y0": 40.0, "x1": 100.0, "y1": 80.0},
        {"image": item["images"][0], "x0": 0.0, "y0": 0.0, "x1": 10.0, "y1": 8.0}]
    store.create_item(item, "t")
    store.create_item(make_item("other/Q_1", n_images=1, n_clues=1), "t")
    return store, item


def test_coco_loads_with_pycocotools(boxed, tmp_path):
    store, item = boxed
    out = tmp_path / "coco.json"
    summary = export_path(store, "coco", out)
    assert (summary["images"], summary["annotations"], summary["categories"]) == (3, 4, 2)
    coco = COCO(str(out))
    assert len(coco.getImgIds()) == 3 and len(coco.getAnnIds()) == 4
    assert [c["name"] for c in coco.loadCats(coco.getCatIds())] == ["demo", "other"]
    second_image = next(i for i in coco.dataset["images"] if i["sha256"] == item["images"][1])
    ann = coco.loadAnns(coco.getAnnIds(imgIds=[second_image["id"]]))[0]
    assert ann["bbox"] == [50.0, 40.0, 50.0, 40.0] and ann["area"] == 2000.0
    assert ann["iscrowd"] == 0
    assert ann["attributes"] == {"item_id": "demo/Q_1", "clue": 2, "text": "clue 1",
                                 "reasoning": "because 1"}
    assert (out.parent / "coco_images" / second_image["file_name"]).is_file()
    assert (second_image["width"], second_image["height"]) == (100, 80)


def test_coco_one_dataset(boxed, tmp_path):
    store, _ = boxed
    summary = export_path(store, "coco", tmp_path / "c.json", dataset="other")
    assert (summary["items"], summary["annotations"]) == (1, 1)


@pytest.mark.parametrize("fmt", EXPORT_FORMATS)
def test_a_name_that_is_no_dataset_is_refused_never_read_as_all(boxed, tmp_path, fmt):
    """The page's export of a typed 'demoo' wrote every dataset (235 items); the CLI's
    `export --dataset demoo` an empty file. Both are refused, nothing written."""
    store, _ = boxed
    out = tmp_path / f"x.{fmt}"
    with pytest.raises(FormatError, match=r"no dataset of that name \(the datasets: demo, "
                                          r"other\); nothing exported"):
        export_path(store, fmt, out, dataset="demoo")
    assert not out.exists()
    assert store.dataset_sizes() == {"demo": 1, "other": 1}


def test_labelstudio_tasks_in_percent(boxed, tmp_path):
    store, item = boxed
    out = tmp_path / "ls.json"
    summary = export_path(store, "labelstudio", out)
    tasks = json.loads(out.read_text())
    assert summary["tasks"] == len(tasks) == 3
    task = next(t for t in tasks if t["meta"]["sha256"] == item["images"][1])
    assert task["data"]["image"].startswith("ls_images/")
    assert (out.parent / task["data"]["image"]).is_file()
    assert task["data"]["item_id"] == "demo/Q_1" and task["data"]["image_index"] == 2
    [result] = task["annotations"][0]["result"]
    assert result["type"] == "rectanglelabels"
    assert (result["original_width"], result["original_height"]) == (100, 80)
    assert result["value"]["x"] == 50.0 and result["value"]["y"] == 50.0
    assert result["value"]["width"] == 50.0 and result["value"]["height"] == 50.0
    assert result["value"]["rectanglelabels"] == ["clue"]
    assert result["meta"]["text"] == ["clue 1"]


def test_export_formats_and_errors(store, tmp_path):
    assert set(EXPORT_FORMATS) == {"jsonl", "vlmevalkit", "coco", "labelstudio"}
    with pytest.raises(FormatError, match="unknown export format"):
        export_path(store, "mmr-life", tmp_path / "x.json")
    with pytest.raises(FormatError, match="is a folder"):
        export_path(store, "jsonl", tmp_path)
    for fmt in EXPORT_FORMATS:                      # an empty store exports an empty file
        summary = export_path(store, fmt, tmp_path / f"empty.{fmt}")
        assert summary["items"] == 0


def test_a_name_that_is_no_dataset_is_not_quoted_back(boxed):
    """A call can send any text where the page offers a list of datasets; the refusal
    quoted it ("no dataset named '../../etc'"; an attacker's review)."""
    from formats import dataset_refusal
    store, _ = boxed
    refusal = dataset_refusal(store, "../../<b>etc</b>")
    assert refusal.startswith("no dataset of that name") and "etc" not in refusal
