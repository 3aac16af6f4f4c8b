"""Reviewer round 29: an Experiments response filter matching nothing ("not run" on a
finished run, Show responses) showed an empty table still captioned "A sample (first 50);
click one to read it". It says no responses match now, and the caption comes back with
rows."""
import gradio as gr

from tests.scoring_helpers import add_items, make_run
from ui.experiments_layout import SAMPLE_LABEL
from ui.experiments_tab import build_experiments_tab


def test_a_filter_matching_nothing_says_so(store):
    add_items(store, [{"id": "p/1", "answer_type": "yes_no", "answer": "Yes"}])
    make_run(store, "run-f", {"p/1": "Answer: Yes"})
    with gr.Blocks() as page:
        opened = gr.Button()
        build_experiments_tab(store, opened.click)
    show = next(fn.fn for fn in page.fns.values() if fn.api_name == "list_responses")
    none = show("run-f", "not_run")
    assert none["value"] == [] and none["label"] == (
        'No responses match "not run": choose another filter'), none
    some = show("run-f", "all")
    assert len(some["value"]) == 1 and some["label"] == SAMPLE_LABEL
    assert SAMPLE_LABEL == "A sample (first 50); click one to read it"
