"""The Inspect overlay and the grounded score put a model's box at the same original-image pixels.

Both go through the same scaling rule:
original fitted within the run's image_max_pixels), normalised boxes to any size of it. The
numbers below were measured on the code before the two paths were made one, and pin it.
"""
import pytest

from judges.clue_match import match_clues
from judges.grounding import iou
from judges.verdict import Verdict
from scoring.offline import grounded
from ui.inspect_view import _model_rows

ORIGINAL = (4000, 3000)
MAX_PIXELS = 1_000_000          # the image was sent at 1154 x 866
GT = [1000.0, 800.0, 2000.0, 1600.0]
CASES = [  # (convention, model box, its box in original pixels)
    ("pixels", [288.0, 231.0, 577.0, 462.0],
     [998.2668977469671, 800.230946882217, 2000.0, 1600.461893764434]),
    ("pixels", [10, 20, 300, 400], [34.66204506065858, 69.2840646651271, 1039.8613518197574,
                                    1385.681293302542]),
    ("normalized_1000", [250, 267, 500, 533], [1000.0, 801.0, 2000.0, 1599.0]),
    ("normalized_1", [0.25, 0.25, 0.5, 0.5], [1000.0, 750.0, 2000.0, 1500.0]),
]


def _item() -> dict:
    return {"id": "q", "images": ["sha"], "answer_type": "open", "answer": "x",
            "clues": [{"text": "the red door on the left", "boxes": [
                {"image": "sha", "x0": GT[0], "y0": GT[1], "x1": GT[2], "y1": GT[3]}]}]}


@pytest.mark.parametrize("convention, box, expected", CASES)
def test_overlay_and_grounded_score_agree_on_a_box(convention, box, expected):
    clues = [{"text": "the red door on the left", "box": box}]
    response = {"clues": clues, "box_convention": convention}
    config = {"image_max_pixels": MAX_PIXELS, "image_mode": "full"}
    overlay = _model_rows(response, [], [ORIGINAL], config)[0]["boxes"]
    assert overlay == [{"image": 0, "box": pytest.approx(expected, abs=1e-9)}]

    item = _item()
    match = match_clues(clues, item["clues"])
    general = Verdict("correct", judge="rule:open", answer="x")
    verdict = grounded(item, response, general, match, clues, {"sha": ORIGINAL}, MAX_PIXELS,
                       "full")
    assert verdict.details["best_iou"] == [round(iou(overlay[0]["box"], GT), 4)]
