"""Choosing the MMR-Life preset left Temperature, top_p and Seed showing "default"/"none"
while the run took 0.5, 0.5 and 17; and a preset run of 3 samples started without a word,
Results refusing it later ("needs 5 samples per item, or 1"). Choosing the preset now fills
the fields, and the form warns of such a samples count before the start."""
from __future__ import annotations

from ui import experiments_handlers as xh


def test_choosing_the_preset_fills_its_sampling_fields():
    assert xh.preset_protocol("mmr-life") == ["cot", "none", "full", "0.5", "0.5", "17"]
    assert xh.preset_protocol("none") == [None] * 6                  # left as they are


def test_a_samples_count_the_rule_cannot_read_is_warned_before_the_start():
    for samples in (2, 3, "4"):
        said = xh.preset_samples_warning("mmr-life", samples)
        assert "needs 5 samples per item, or 1" in said and "set Samples to 5" in said
    for samples in (1, 5, 7, None):
        assert xh.preset_samples_warning("mmr-life", samples) == ""
    assert xh.preset_samples_warning("none", 3) == ""
