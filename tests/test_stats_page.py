"""The Statistics page's summary reads as text: headings and lists, not a code listing.

Found by a review: the page showed `stats`' command-line text in a code box, line numbers
and all (its counts lined up with leading spaces, which Markdown also takes for code)."""
import gradio as gr

from ui.server import build_app
from ui.stats_tab import stats_markdown

STATS = {"items": 14, "images": 20, "images_shown": 22, "clues": 37, "boxes": 54, "flagged": 1,
         "mean_images_per_item": 1.5714, "mean_box_area_fraction": 0.02474,
         "mean_resolution": {"width": 1136.7, "height": 935.8, "megapixels": 1.4},
         "by_dataset": {"demo": 13, '<form action="x">': 1},
         "by_domain": {"Daily Commonsense": 6, "Location Identification": 2},
         "by_subtask": {}, "by_reasoning_type": {"(none)": 13, "temporal": 1},
         "by_answer_type": {"yes_no": 4, "multiple_choice": 5}, "by_status": {"draft": 2}}


def test_the_summary_is_markdown_text_and_lists_never_code():
    text = stats_markdown(STATS)
    lines = text.splitlines()
    assert not [line for line in lines if line.startswith(("    ", "\t"))], text   # no code
    assert "```" not in text
    assert lines[0] == ("**14** items · **20** distinct images · **37** clues · **54** boxes · "
                        "**1** flagged")
    # the mean's numbers are said: "20 images" beside 1.57 a item over 14 did not add up
    assert ("- Images shown per item: 1.57 on average (22 shown by 14 items, options "
            "included, an image counted each time it is shown)") in lines
    assert "- Box area: 2.474% of the image on average" in lines
    assert "- Image size: 1136.7 × 935.8 px on average (1.4 megapixels)" in lines
    assert "#### Items by domain" in lines and "- Daily Commonsense: **6**" in lines
    # largest first, each breakdown its own list; an empty one is left out
    answer_types = lines.index("#### Items by answer type")
    assert lines[answer_types + 2:answer_types + 4] == ["- multiple\\_choice: **5**",
                                                        "- yes\\_no: **4**"]
    assert "#### Items by subtask" not in lines
    # a name from an imported file is text, never markup
    assert "<form" not in text and "- &lt;form action=\"x\"&gt;: **1**" in lines


def test_the_page_shows_the_summary_as_markdown(store):
    """The summary's component is Markdown (a gr.Code showed it as code, numbered)."""
    app = build_app(store)
    summary = [block for block in app.blocks.values()
               if getattr(block, "elem_id", None) == "stats-text"]
    assert len(summary) == 1 and isinstance(summary[0], gr.Markdown)
    compute = {fn.api_name: fn for fn in app.fns.values()}["stats"].fn
    text, numbers = compute()
    assert text == stats_markdown(numbers) and text.startswith("**0** items")
