"""Statistics tab: the numbers of `python app.py stats`, refreshed on demand."""
from __future__ import annotations

import gradio as gr

from store.stats import render_stats


def build_stats_tab(store, opened) -> None:
    """`opened`: the event that fires when the page opens (`demo.load` in its route)."""
    refresh = gr.Button("Refresh", elem_id="stats-refresh")
    text = gr.Code(label="Summary", language=None, elem_id="stats-text", interactive=False)
    raw = gr.JSON(label="All numbers (JSON)", elem_id="stats-json")

    def compute():
        stats = store.stats()
        return render_stats(stats), stats

    refresh.click(compute, None, [text, raw], api_name="stats")
    opened(compute, None, [text, raw], api_name="stats_on_open", show_progress="hidden")
