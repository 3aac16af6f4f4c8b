"""Experiments tab: the preset and the protocol it stands for, kept in step.

A preset is a paper's protocol (`runner.config.PRESET_PROTOCOLS`: MMR-Life is zero-shot CoT,
no clues, full images, with its sampling). Choosing it sets its setting, clue source and
image mode, and fills its temperature, top_p and seed (they showed "default" and "none"); changing one of those away from it clears the preset, which stayed selected
before and labelled a clue_guided run with GT clues "preset mmr-life".
"""
from __future__ import annotations

import gradio as gr

from ui import experiments_handlers as xh


def wire_preset(ui) -> None:
    def protocol_of(preset):
        """The preset's setting, clue source and image mode (left as they are for none)."""
        return [gr.skip() if value is None else value for value in xh.preset_protocol(preset)]

    ui.preset.change(protocol_of, ui.preset, [ui.setting, ui.clues, ui.image_mode,
                                              ui.temperature, ui.top_p, ui.seed],
                     api_name="preset_protocol", show_progress="hidden")
    for name, departing in (("setting", ui.setting), ("clues", ui.clues),
                            ("image_mode", ui.image_mode)):
        departing.change(xh.preset_after_change,
                         [ui.preset, ui.setting, ui.clues, ui.image_mode], ui.preset,
                         api_name=f"preset_after_{name}", show_progress="hidden")
