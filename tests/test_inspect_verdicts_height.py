"""Inspect's verdicts table had Gradio's fixed 500 px height: a response's VER-Bench rows sat
below an inner scroll and the last visible row was cut in half. It is now as tall as its rows
(a response has a few): its cap is past every row it can hold."""
from __future__ import annotations

import gradio as gr


def test_the_verdicts_table_shows_all_its_rows():
    from ui.inspect_layout import build_layout

    with gr.Blocks():
        ui = build_layout()
    # 4 protocols x 5 judges, each row up to 3 wrapped lines (~24 px) plus its padding
    assert ui.verdicts.max_height >= 4 * 5 * (3 * 24 + 16)
