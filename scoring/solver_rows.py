"""The rows of the clue-injection and ablation tables: a solver is a model and setting (the
ablation's: a model) with everything else of its runs' configs that decides a reply besides
what the table's columns vary (the clue source; the ablation's reasoning setting).

A row compares its clue sources against its No Clue run, so every run of a row must have
drawn its replies the same way: the same sampling sent (temperature, top_p, max_tokens,
seed and any other parameter the endpoint adds), the same samples, repeats and preset, and
the same image preparation (mode, size limit, format, quality, mask style). A row keyed by
model and setting alone took a temperature-0.2 run as the No Clue of runs at the default
temperature (the newer one won the cell) and measured their changes against it, while the
run they were like, and the source of their injected clues, sat in a row of its own with
dashes. Runs that differ in any of these are separate rows; the label names the sampling
given as every run label does ('vlm-a · CoT · T 0.2', `runner.config.sampling_text`), and
any other setting that tells rows apart only where two rows of one model and setting would
otherwise read the same, never a word the label already says. The ablation table had the same fault: a row keyed by model (and
draws) set a CoT run at temperature 0.2 beside No-CoT and Clue-guided runs at the endpoint's
default, the one-run-per-cell rule hiding the CoT run drawn like them.
"""
from __future__ import annotations

import json
from typing import Callable

from runner.config import SAMPLING_KEYS, sampling_word
from scoring.compared import solver_label
# image preparation with its default when a config from before it was recorded lacks it
IMAGE_DEFAULTS = {"image_max_pixels": None, "image_format": "jpeg", "image_quality": 90}
SAID_DEFAULTS = {**IMAGE_DEFAULTS, "mask_style": "black"}


def draw_settings(config: dict) -> dict:
    """{setting: value} of what decides a run's replies beside its model, setting, clue
    source, image mode, preset, samples, repeats and boxes (those are in `solver_label`):
    the sampling it sent (the recorded `sampling`, the endpoint's defaults and the preset
    filled in; else the values given) and its image preparation. Unset values left out."""
    sampling = config.get("sampling")
    if not isinstance(sampling, dict):
        sampling = {key: config.get(key) for key in SAMPLING_KEYS}
    found = {key: value for key, value in sampling.items() if value is not None}
    found.update({key: config.get(key, default) for key, default in IMAGE_DEFAULTS.items()})
    if config.get("image_mode") == "clue_masked":
        found["mask_style"] = config.get("mask_style") or "black"
    return {key: value for key, value in found.items() if value is not None}


def setting_text(key: str, value) -> str:
    """One draw setting as a row label says it: 'T 0.2', 'top_p 0.9', 'max_tokens 512',
    'seed 7', 'images ≤ 1000000 px', 'png images', 'quality 80', 'blur masks'."""
    if key in SAMPLING_KEYS:
        return sampling_word(key, value)
    if key == "image_max_pixels":
        return f"images ≤ {value} px"
    if key == "image_format":
        return f"{value} images"
    if key == "image_quality":
        return f"quality {value}"
    if key == "mask_style":
        return f"{value} masks"
    return sampling_word(key, value)


def _order(key: str) -> tuple:
    known = (*SAMPLING_KEYS, *IMAGE_DEFAULTS, "mask_style")
    return (known.index(key) if key in known else len(known), key)


def solver_rows(configs, base: Callable[[dict], str] = solver_label) -> Callable[[dict], str]:
    """`solver_of(config)` for a table over the runs of `configs`: the row a run belongs to,
    its label `base(config)` (the injection table's `solver_label`, model and setting; the
    ablation table's `model_label`, whose columns are the settings) with the draw settings
    (`draw_settings`) in which the runs of that label differ, each said where the run has it
    set ('vlm-a · CoT' and 'vlm-a · CoT · T 0.2' for a run at the endpoint's default
    temperature and one at 0.2). Runs alike in all of them share a row; a config not among
    `configs` is labelled against itself alone."""
    groups: dict[str, list[dict]] = {}
    for config in configs:
        groups.setdefault(base(config), []).append(draw_settings(config))

    def differing(label: str) -> list[str]:
        found = groups.get(label, [])
        keys = {key for settings in found for key in settings}
        return sorted((key for key in keys
                       if len({json.dumps(s.get(key), sort_keys=True) for s in found}) > 1),
                      key=_order)

    apart = {label: differing(label) for label in groups}

    def solver_of(config: dict) -> str:
        label = base(config)
        settings = draw_settings(config)
        # a default image preparation goes unsaid, as an unset sampling value does: the
        # row beside it says its own, which sets the two apart
        # the label already names the sampling given ('T 0.2'): a word it says is not
        # said again ('vlm-a · CoT · T 0.2 · T 0.2')
        said = set(label.split(" · "))
        extra = [word for word in (setting_text(key, settings[key])
                                   for key in apart.get(label, [])
                                   if key in settings and settings[key] != SAID_DEFAULTS.get(key))
                 if word not in said]
        return " · ".join([label, *extra])

    return solver_of
