"""Typed lists of ids (Experiments' explicit item ids, `run --ids`, `table --runs`): one rule,
runner.config.ID_LIST_RULE, read by one helper, stated where the list is typed.

The Experiments field split on spaces too: an item whose id holds a space could never be
chosen (its id was cut in two, and neither half existed)."""
from __future__ import annotations

import pytest

from runner.config import ID_LIST_RULE, parse_id_list
from store import Store
from tests.live_server import build_ui_db
from tests.test_experiments_handlers import form as run_form
from ui import experiments_endpoints as xe
from ui import experiments_handlers as xh
from ui import messages

SPACED = "ui/park in autumn"


@pytest.fixture
def store(tmp_path):
    build_ui_db(tmp_path / "ids.db")
    store = Store.open(tmp_path / "ids.db")
    store.duplicate_item("ui/alpha", SPACED, "t")
    xe.save_endpoint(store, "local", "http://127.0.0.1:9/v1", "some-vlm", "", 1, None)
    yield store
    store.close()


def form(**values) -> dict:
    return run_form(endpoint="local", **values)


def test_ids_are_separated_by_commas_or_new_lines_only():
    assert parse_id_list(f" {SPACED} ,ui/beta\r\n\n ui/gamma,, ui/beta ") == \
        [SPACED, "ui/beta", "ui/gamma"]
    assert parse_id_list("") == [] and parse_id_list(None) == [] and parse_id_list(" , \n") == []
    assert "commas or new lines" in ID_LIST_RULE


def test_an_id_with_a_space_can_be_run(store):
    the_plan = xh.plan(store, form(ids=f"{SPACED}\nui/beta"))
    assert list(the_plan.items) == [SPACED, "ui/beta"]


def test_ids_that_do_not_exist_are_named_and_shown_as_text(store):
    with pytest.raises(xh.ExperimentError) as refused:
        xh.plan(store, form(ids="ui/alpha, ui/<b>nope</b>, ui/park"))
    text = str(refused.value)
    assert "2 of the 3 given ids do not exist" in text
    assert "'ui/<b>nope</b>'" in text and "'ui/park'" in text
    shown = messages.as_toast_text(text)
    assert "<b>" not in shown and "&lt;b&gt;nope&lt;/b&gt;" in shown


def test_the_field_and_the_options_state_the_rule():
    from types import SimpleNamespace

    import gradio as gr

    from cli import build_parser
    from ui.experiments_layout import build_builder

    ui = SimpleNamespace()
    with gr.Blocks():
        build_builder(ui)
    assert ID_LIST_RULE in (ui.ids.info or "") and "," in (ui.ids.placeholder or "")
    run = build_parser()._subparsers._group_actions[0].choices["run"]
    [ids_option] = [a for a in run._actions if "--ids" in a.option_strings]
    assert ID_LIST_RULE in ids_option.help


def test_an_id_over_the_limit_that_does_not_exist_is_not_echoed_whole(store):
    """The refusal quoted every missing id whole (a security review: a megabyte id)."""
    with pytest.raises(xh.ExperimentError) as refused:
        xh.plan(store, form(ids=f"ui/alpha, {'i' * 1_000_000}"))
    text = str(refused.value)
    assert "1 of the 2 given ids do not exist" in text and "1,000,000 characters" in text
    assert len(text) < 400
