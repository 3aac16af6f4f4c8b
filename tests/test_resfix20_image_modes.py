"""Run labels and the run form say an image mode in words: labels read "images
clue_masked" and "images clue_crops", the form's list offered the same raw ids."""
from domain.vocabulary import IMAGE_MODE_TITLES
from runner.config import IMAGE_MODES
from ui.run_choices import run_label


def test_a_run_label_says_its_image_mode_in_words():
    run = {"id": "r1", "status": "done",
           "config": {"setting": "cot", "image_mode": "clue_masked", "mask_style": "blur"}}
    label = run_label(run)
    assert "images clues masked (blur)" in label and "clue_masked" not in label, label
    crops = run_label({**run, "config": {"setting": "cot", "image_mode": "clue_crops"}})
    assert "images clue crops" in crops, crops
    assert "images full" in run_label({**run, "config": {"setting": "cot"}})


def test_every_image_mode_has_words():
    assert set(IMAGE_MODE_TITLES) == set(IMAGE_MODES)
    assert all("_" not in title for title in IMAGE_MODE_TITLES.values())
