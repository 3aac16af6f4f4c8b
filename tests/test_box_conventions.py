"""A run states how its model writes boxes, or leaves it to detection (auto, the default).

Each reply's box convention was detected alone (pixels, 0-1 or 0-1000, corners always
assumed): a model writing COCO-style x, y, width, height had every box read as corners, and
a 0-1000 box on a small image could be read as pixels, with no way for a researcher who knows
the model's convention to say so. Now `run --box-convention` (and the Experiments form's
*Boxes in replies*) states it for the run: it is stored with the run's config, recorded with
each reply that has boxes, read by the grounded score and Inspect (`box_to_pixels`), and said
wherever the run's setup is. Real SQLite, the real CLI and the real fake OpenAI server.
"""
from __future__ import annotations

import json

import pytest

from domain.extract import extract
from domain.geometry import box_to_pixels, reply_box_convention
from runner.config import ConfigError, RunConfig
from scoring.compared import labels
from store import Store
from tests.openai_server import start_server
from tests.scoring_helpers import add_items, cli, runs_listed
from ui.run_choices import run_label

# The GT box is (100, 100)-(500, 300) on a 2000 x 1000 image, sent whole. The model writes it
# as x, y, width, height: read as corners, (100, 100)-(400, 200) has IoU 0.375 with it.
XYWH_REPLY = ('{"answer": "Yes", "clues": [{"clue": "the Eiffel Tower", '
              '"box": [100, 100, 400, 200]}]}')


def test_an_xywh_box_is_a_corner_and_a_size_in_every_scale():
    assert box_to_pixels([100, 100, 400, 200], "xywh_pixels", (2000, 1000)) == \
        [100, 100, 500, 300]
    assert box_to_pixels([50, 100, 200, 200], "xywh_normalized_1000", (2000, 1000)) == \
        [100.0, 100.0, 500.0, 300.0]
    assert box_to_pixels([0.05, 0.1, 0.2, 0.2], "xywh_normalized_1", (2000, 1000)) == \
        pytest.approx([100, 100, 500, 300])
    # pixels of a downscaled image are scaled back, as for corners
    assert box_to_pixels([50, 50, 200, 100], "xywh_pixels", (2000, 1000), 500_000) == \
        [100.0, 100.0, 500.0, 300.0]
    assert box_to_pixels([100, 100, 500, 300], "pixels", (2000, 1000)) == [100, 100, 500, 300]


def test_a_stated_convention_is_the_replys_and_auto_still_detects():
    clues = [{"text": "sign", "box": [10, 20, 30, 40]}]
    assert reply_box_convention(clues, (100, 100)) == ("pixels", "coordinates fit the 100x100 "
                                                                 "image")
    assert reply_box_convention(clues, (100, 100), "xywh_normalized_1000") == \
        ("xywh_normalized_1000", "xywh 0-1000, as the run states")
    assert reply_box_convention([{"text": "no box"}], (100, 100), "xywh_pixels") == (None, "")
    read = extract("Answer: Yes\nClues:\n1. the sign [10, 20, 30, 40]", "yes_no",
                   image_size=(100, 100), box_convention="normalized_1000")
    assert read.box_convention == "normalized_1000" and "as the run states" in read.reason
    assert extract("Answer: Yes\nClues:\n1. the sign [10, 20, 30, 40]", "yes_no",
                   image_size=(100, 100)).box_convention == "pixels"
    with pytest.raises(ConfigError, match="box convention must be one of auto, pixels"):
        RunConfig("e", box_convention="yxyx").validate()


@pytest.fixture(scope="module")
def server():
    with start_server(default_reply=XYWH_REPLY) as handle:
        yield handle


@pytest.fixture
def db(tmp_path, server):
    store = Store.open(tmp_path / "boxes.db")
    add_items(store, [{"id": "g/1", "answer_type": "yes_no", "answer": "Yes", "domain": "G",
                       "subtask": "g", "clues": [{"text": "Eiffel Tower", "reasoning": "",
                                                   "boxes": []}]}], width=2000, height=1000)
    item = store.get_item("g/1")
    item["clues"][0]["boxes"] = [{"image": item["images"][0], "x0": 100, "y0": 100,
                                  "x1": 500, "y1": 300}]
    store.save_item(item, item["version"], "test")
    store.close()
    path = tmp_path / "boxes.db"
    assert cli("endpoint", "add", "fake", "--db", path, "--base-url", server.url, "--model",
               "fake-vlm")[0] == 0
    return path


def started(db, *options) -> str:
    code, out, err = cli("run", "--db", db, "--endpoint", "fake", "--setting", "structured",
                         "--ids", "g/1", "--json", *options)
    assert code == 0, err
    run_id = json.loads(out)["id"]
    assert cli("score", "--db", db, "--run", run_id, "--protocol", "all")[0] == 0
    return run_id


def test_a_run_states_its_box_convention_and_its_boxes_are_read_so(db):
    auto = started(db)
    stated = started(db, "--box-convention", "xywh_pixels")   # the same reply, from the cache
    with Store.open(db) as store:
        runs = {rid: store.get_run(rid) for rid in (auto, stated)}
        assert runs[auto]["config"]["box_convention"] == "auto"       # the default
        assert runs[stated]["config"]["box_convention"] == "xywh_pixels"
        assert runs[auto]["config_id"] == runs[stated]["config_id"]    # the same question
        grounded = {rid: store.run_scores(rid, "grounded", "offline", full=True)[0]
                    for rid in runs}
        assert grounded[auto]["value"] == "wrong"                      # read as corners
        # detected: pixels, as the Structured prompt asks (no longer 0-1000 for the image's
        # 2000 px: test_boxconv_pixels), corners assumed
        assert grounded[auto]["details"]["convention"] == "pixels"
        assert grounded[auto]["details"]["best_iou"] == [0.375]
        assert grounded[stated]["value"] == "correct"
        assert grounded[stated]["details"]["best_iou"] == [1.0]
        assert grounded[stated]["details"]["convention"] == "xywh_pixels"
        # said wherever the run's setup is: run pickers, the runs list, the tables' labels
        assert "· boxes xywh pixels ·" in run_label(runs[stated])
        assert "boxes" not in run_label(runs[auto])
        names = labels(store, [auto, stated])
        assert names[stated] == "fake-vlm · Structured · boxes xywh pixels"
        assert names[auto] == "fake-vlm · Structured"
    code, out, _ = cli("runs", "--db", db)
    listed = runs_listed(out)
    assert listed[stated]["draws"] == "1 sample · boxes xywh pixels"
    assert listed[auto]["draws"] == "1 sample"
    shown = json.loads(cli("runs", "--db", db, "--show", stated, "--json")[1])
    assert shown["config"]["box_convention"] == "xywh_pixels"
    code, out, err = cli("table", "--db", db, "--kind", "drop", "--runs", f"{auto},{stated}")
    assert code == 0 and "fake-vlm · Structured · boxes xywh pixels" in out, err
    with pytest.raises(SystemExit) as refused:            # argparse: invalid choice 'yxyx'
        cli("run", "--db", db, "--endpoint", "fake", "--setting", "structured", "--ids", "g/1",
            "--box-convention", "yxyx")
    assert refused.value.code == 2
