"""Reviewer round 29: box convention "auto" misread the pixel boxes ClueLab's own Structured
prompt asks for.

The Structured prompt asks for each clue's box "in pixel coordinates of the image it is on".
On a 1300x900 image every reply whose coordinates were all <= 1000 was read as 0-1000 (the
image is over 1000 px wide), so grounded-rigorous gave 1 of 4 where `--box-convention pixels`
gave 4 of 4, and Inspect drew the boxes stretched. Now auto heeds what the prompt asked and
what the reply says (`domain.geometry.detect_box_convention`): pixels of the image as sent
(scaled back to the original when it was downscaled), 0-1000 only when the reply says so or
the boxes cannot be the sent image's pixels. Real SQLite, the real CLI, the fake OpenAI server.
"""
from __future__ import annotations

import json

import pytest

from domain.extract import extract
from runner.prompts import default_text
from store import Store
from tests.openai_server import start_server
from tests.scoring_helpers import add_items, cli

W, H = 1300, 900
GT = {f"g/{k}": [60 + 220 * k, 100 + 150 * k, 260 + 220 * k, 350 + 150 * k] for k in range(4)}


def reply(box) -> str:
    return json.dumps({"answer": "Yes", "clues": [{"clue": "the red tram stop sign",
                                                   "reasoning": "trams run here",
                                                   "box": box}]})


@pytest.fixture
def db(tmp_path):
    def made(replies: dict[str, str]):
        server = start_server(replies={f"Question {i}?": text for i, text in replies.items()})
        store = Store.open(tmp_path / "px.db")
        add_items(store, [{"id": i, "answer_type": "yes_no", "answer": "Yes", "domain": "G",
                           "subtask": "g", "clues": [{"text": "red tram stop sign",
                                                      "reasoning": "", "boxes": []}]}
                          for i in GT], width=W, height=H)
        for item_id, (x0, y0, x1, y1) in GT.items():
            item = store.get_item(item_id)
            item["clues"][0]["boxes"] = [{"image": item["images"][0], "x0": x0, "y0": y0,
                                          "x1": x1, "y1": y1}]
            store.save_item(item, item["version"], "test")
        store.close()
        path = tmp_path / "px.db"
        assert cli("endpoint", "add", "ep-a", "--db", path, "--base-url", server.url,
                   "--model", "fake-vlm")[0] == 0
        made.servers.append(server)
        return path
    made.servers = []
    yield made
    for server in made.servers:
        server.stop()


def run_and_score(path, *options) -> tuple[str, dict]:
    code, out, err = cli("run", "--db", path, "--endpoint", "ep-a", "--setting", "structured",
                         "--ids", ",".join(GT), "--json", *options)
    assert code == 0, err
    run_id = json.loads(out)["id"]
    assert cli("score", "--db", path, "--run", run_id, "--protocol", "all")[0] == 0
    with Store.open(path) as store:
        scores = {s["item_id"]: s for s in store.run_scores(run_id, "grounded", "offline",
                                                             full=True)}
        responses = store.run_results(run_id)
    return run_id, {"scores": scores, "responses": responses}


def test_the_structured_prompt_asks_for_pixels_and_auto_reads_them_so(db):
    path = db({i: reply(box) for i, box in GT.items()})     # every coordinate <= 1000
    _, auto = run_and_score(path)                              # box convention auto
    assert {r["box_convention"] for r in auto["responses"]} == {"pixels"}
    assert all("pixels of the 1300x900 image as sent, as the prompt asked" in r["reason"]
               for r in auto["responses"]), [r["reason"] for r in auto["responses"]]
    assert [auto["scores"][i]["value"] for i in GT] == ["correct"] * 4   # was 1 of 4
    assert [auto["scores"][i]["details"]["best_iou"] for i in GT] == [[1.0]] * 4
    # the same replies read with the stated convention (from the cache): the same verdicts
    _, stated = run_and_score(path, "--box-convention", "pixels")
    assert [stated["scores"][i]["value"] for i in GT] == ["correct"] * 4


def test_pixels_of_a_downscaled_image_are_scaled_back_to_the_original(db):
    # 1300x900 fitted within 292,500 pixels is sent as 650x450: the model's pixels are half
    path = db({i: reply([v / 2 for v in box]) for i, box in GT.items()})
    _, run = run_and_score(path, "--image-max-pixels", "292500")
    assert {r["box_convention"] for r in run["responses"]} == {"pixels"}
    assert all("650x450 image as sent" in r["reason"] for r in run["responses"])
    assert [run["scores"][i]["details"]["best_iou"] for i in GT] == [[1.0]] * 4


def test_0_1000_only_when_the_reply_says_so_or_the_boxes_cannot_be_pixels():
    from runner.outcomes import asked_scale

    asked = asked_scale([{"role": "system", "content": default_text("system_structured")},
                         {"role": "user", "content": "Question?"}])
    assert asked == "pixels"
    assert asked_scale([{"role": "system", "content": default_text("system_cot")}]) is None
    box = [600, 300, 900, 700]
    read = lambda text, size=(W, H), scale=asked: extract(         # noqa: E731
        text, "yes_no", image_size=size, asked_scale=scale)
    assert read(reply(box)).box_convention == "pixels"
    said = json.loads(reply(box))
    said["note"] = "boxes are normalised to 0-1000"
    assert read(json.dumps(said)).box_convention == "normalized_1000"
    assert "the reply says" in read(json.dumps(said)).reason
    beyond = read(reply(box), size=(650, 450))               # cannot be the sent image's pixels
    assert beyond.box_convention == "normalized_1000" and "beyond the 650x450" in beyond.reason
    assert read(reply([0.1, 0.2, 0.3, 0.4])).box_convention == "normalized_1"
    assert read(reply([1200, 300, 1290, 800])).box_convention == "pixels"
    # a prompt that asked for no scale (CoT, a custom one): detected as before
    assert read(reply(box), scale=None).box_convention == "normalized_1000"
