"""Statistics tab: the numbers of `python app.py stats`, refreshed on demand.

The summary is Markdown written for the page (`stats_markdown`): headings and lists, every
name from the data escaped. The command line's text (store.stats.render_stats) lines its
counts up with spaces, which a page showed as a code listing with line numbers.
"""
from __future__ import annotations

import gradio as gr

from ui.text import escape_md

BREAKDOWNS = (("by_dataset", "dataset"), ("by_domain", "domain"), ("by_subtask", "subtask"),
              ("by_reasoning_type", "reasoning type"), ("by_answer_type", "answer type"),
              ("by_status", "status"))


def stats_markdown(stats: dict) -> str:
    """The summary as the page shows it: the totals on one line, the means as a list, then
    one list per breakdown (largest first). No line starts with spaces: Markdown would
    take an indented line for code."""
    titles = {"images": "distinct images"}
    totals = " · ".join(f"**{stats[key]}** {titles.get(key, key)}" for key in
                        ("items", "images", "clues", "boxes", "flagged"))
    shown = stats.get("images_shown", stats["images"])
    # the mean counts an image each time an item or option shows it, the total once: said,
    # so "24 distinct images" beside 1.47 a item over 17 items (25 shown) adds up
    means = [f"- Images shown per item: {stats['mean_images_per_item']:.2f} on average "
             f"({shown} shown by {stats['items']} items, options included, an image counted "
             "each time it is shown)",
             f"- Box area: {100 * stats['mean_box_area_fraction']:.3f}% of the image "
             "on average"]
    resolution = stats.get("mean_resolution") or {}
    if all(isinstance(resolution.get(k), (int, float)) for k in ("width", "height")):
        means.append(f"- Image size: {resolution['width']:.1f} × {resolution['height']:.1f} px "
                     "on average" + (f" ({resolution['megapixels']:.1f} megapixels)"
                                     if isinstance(resolution.get("megapixels"), (int, float))
                                     else ""))
    sections = [totals, "\n".join(means)]
    for key, name in BREAKDOWNS:
        counts = stats.get(key) or {}
        if counts:
            ranked = sorted(counts.items(), key=lambda kv: (-kv[1], str(kv[0])))
            sections.append(f"#### Items by {name}\n\n" + "\n".join(
                f"- {escape_md(label)}: **{n}**" for label, n in ranked))
    return "\n\n".join(sections)


def build_stats_tab(store, opened) -> None:
    """`opened`: the event that fires when the page opens (`demo.load` in its route)."""
    refresh = gr.Button("Refresh", elem_id="stats-refresh")
    text = gr.Markdown(label="Summary", elem_id="stats-text")
    raw = gr.JSON(label="All numbers (JSON)", elem_id="stats-json")

    def compute():
        stats = store.stats()
        return stats_markdown(stats), stats

    refresh.click(compute, None, [text, raw], api_name="stats")
    opened(compute, None, [text, raw], api_name="stats_on_open", show_progress="hidden")
