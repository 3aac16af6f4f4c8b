"""Reviewer round 29: the Experiments preview told a researcher to "add one in Prices below
(0 for a local server)" when the model had no price, while only admins may set prices
(ui/access.py: save_price). A reader who may not set one is told to ask an admin."""
import gradio as gr

from tests.test_runner_engine import fake, items, server  # noqa: F401
from ui.experiments_handlers import RUN_FIELDS
from ui.experiments_tab import build_experiments_tab


def _preview_fn(store):
    with gr.Blocks() as page:
        opened = gr.Button()
        build_experiments_tab(store, opened.click)
    return next(fn.fn for fn in page.fns.values() if fn.api_name == "preview_run")


def test_the_missing_price_is_said_to_whoever_may_set_it(store, fake, items):
    ids = items(1)
    store.add_user("rita", "researcher", "pw-of-rita-123")
    store.add_user("ada", "admin", "pw-of-ada-1234")
    form = dict.fromkeys(RUN_FIELDS)
    form.update(endpoint="fake", setting="cot", clues="none", image_mode="full", samples=1,
                repeats=1, dataset="(all)", flagged="all", image_quality=90, preset="none",
                ids=ids[0])
    values = [form[k] for k in RUN_FIELDS]
    preview = _preview_fn(store)
    researcher = preview(gr.Request(username="rita"), ids[0], *values)[0]
    assert "no price for model" in researcher, researcher
    assert "ask an admin to add one in Prices (0 for a local server)" in researcher
    assert "Prices below" not in researcher
    admin = preview(gr.Request(username="ada"), ids[0], *values)[0]
    assert "add one in Prices below (0 for a local server)" in admin and "ask an" not in admin
