"""Defects a context-free annotator's review found on the Annotate page, tested on the
page's own handlers (ui.server.build_app's events, called as plain functions on a real
SQLite store): the id box after an unknown id, Next pressed several times at once."""
from __future__ import annotations

import gradio as gr
import pytest

from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui.annotate_render import Renderer
from ui.editor_handlers import EditorHandlers
from ui.server import build_app

PAGE = gr.Request(headers={"origin": "http://127.0.0.1:7860"})     # a page of this site
SCRIPT = gr.Request(headers={"x-gradio-user": "api"})               # gradio_client


@pytest.fixture
def handlers(ui_store):
    return {fn.api_name: fn.fn for fn in build_app(ui_store).fns.values()}


def out(values: list, name: str):
    return values[Renderer.OUTPUTS.index(name)]


def test_an_unknown_id_puts_the_open_items_id_back_in_the_box(ui_store, handlers):
    """The box kept 'no-such-item' under the message, so it no longer named the item on
    screen; now it shows the open item's id again, and the message says both."""
    work = EditorHandlers(ui_store).load("ui/beta", "local")
    with pytest.warns(UserWarning, match="no item with id 'no-such-item'"):
        shown = handlers["load_item"]("no-such-item", work, [], [], None, PAGE)
    assert out(shown, "item_id") == "ui/beta"
    assert "no item with id 'no\\-such\\-item'; the item open is still ui/beta" in out(
        shown, "save_message")
    # nothing else on the page changes: the editor still shows ui/beta as it was
    rest = [v for k, v in zip(Renderer.OUTPUTS, shown)
            if k not in ("item_id", "save_message")]
    assert all(isinstance(v, dict) and v.get("__type__") == "update" and len(v) == 1
               for v in rest + shown[len(Renderer.OUTPUTS):]), rest
    # a script's call still fails with the reason
    with pytest.raises(gr.Error, match="no item with id"):
        handlers["load_item"]("no-such-item", work, [], [], None, SCRIPT)
    # a known id opens as before
    assert out(handlers["load_item"]("ui/gamma", work, [], [], None, PAGE),
               "item_id") == "ui/gamma"


def test_next_pressed_three_times_moves_three_items(ui_store, handlers):
    """Three quick Alt+→ moved one item: Gradio dropped the presses made while Next ran.
    The page now counts them and sends the count (`steps`) with the one event it runs."""
    for n in range(4):
        ui_store.duplicate_item("ui/alpha", f"ui/copy-{n}", "fixture")
    ids = list(ui_store.item_ids())
    work = EditorHandlers(ui_store).load(ids[0], "local")
    moved = handlers["next_item"](ids, work, [], None, "3", PAGE)
    assert out(moved, "item_id") == ids[3]
    back = handlers["prev_item"](ids, out(moved, "work"), [], None, "2", PAGE)
    assert out(back, "item_id") == ids[1]
    # one press (a script's call without the count too) is one item; past the end, the last
    assert out(handlers["next_item"](ids, work, [], None, "1", PAGE), "item_id") == ids[1]
    assert out(handlers["next_item"](ids, work, [], None, None, PAGE), "item_id") == ids[1]
    assert out(handlers["next_item"](ids, work, [], None, "50", PAGE), "item_id") == ids[-1]


def test_the_page_sends_the_count_of_presses_with_next(store):
    """Next and Previous run once more for the presses made while they run (always_last,
    not the default that drops them), their page script sending the count."""
    events = {fn.api_name: fn for fn in build_app(store).fns.values()}
    for name, button in (("next_item", "next-item"), ("prev_item", "prev-item")):
        event = events[name]
        assert event.trigger_mode == "always_last"
        assert event.inputs[-1].elem_id == "nav-steps"
        assert f"cluelabNavSteps('{button}', v)" in event.js
