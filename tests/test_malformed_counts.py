"""A malformed call's refusal counts the values the caller sees: load_item called with 2
values said "value 3 is not of the kind its control takes", counting hidden State inputs."""
import gradio as gr

from ui.malformed_calls import malformed


class Fn:
    def __init__(self, inputs):
        self.inputs = inputs


def test_hidden_state_is_not_counted():
    with gr.Blocks():
        work, item_id, boxes = gr.State(), gr.Textbox(label="Item id"), gr.Textbox(label="Boxes")
    fn = Fn([work, item_id, boxes])
    assert malformed(fn, [None], ValueError("x")) == \
        "it takes 2 values besides the page's state (3 in all); 1 arrived, state included"
    plain = Fn([item_id, boxes])
    assert malformed(plain, ["a"], ValueError("x")) == "it takes 2 values, 1 was sent"
    assert malformed(fn, [None, "a", {}], ValueError("input component at index 2")) == \
        "Boxes is not of the kind its control takes"


def test_the_states_a_client_fills_in_are_not_counted_as_sent():
    """delete_item takes [State, Reason, State]; gradio_client called with no value sends
    [None, None] (a None for each State, the second appended), which was counted as
    "it takes 1 values, 1 were sent"."""
    with gr.Blocks():
        work, reason, ids = gr.State(), gr.Textbox(label="Reason"), gr.State([])
    fn = Fn([work, reason, ids])
    takes = "it takes 1 value besides the page's state (3 in all); "
    assert malformed(fn, [None, None], ValueError("x")) == takes + "2 arrived, state included"
    assert malformed(fn, [], ValueError("x")) == takes + "0 arrived, state included"


def test_a_raw_call_short_of_one_value_reads_right():
    """search_items takes 7 values and a State; a raw /queue/join with 7 of the 8 was told
    "it takes 7 values, 6 were sent" (the attacker review)."""
    with gr.Blocks():
        shown = [gr.Textbox(label=f"f{i}") for i in range(7)]
        state = gr.State()
    fn = Fn([*shown, state])
    assert malformed(fn, [None] * 7, ValueError("x")) == \
        "it takes 7 values besides the page's state (8 in all); 7 arrived, state included"


def test_a_number_out_of_its_bounds_is_named_with_the_bound():
    """Samples 0 on Start run read "a value is not one its control takes": Gradio's own
    error names no control."""
    with gr.Blocks():
        endpoint = gr.Textbox(label="Endpoint")
        samples = gr.Number(1, label="Samples", minimum=1, step=1)
        top = gr.Number(1, label="Top p", maximum=1)
    fn = Fn([endpoint, samples, top])
    assert malformed(fn, ["e", 0, 0.5], ValueError("Value 0 is less than minimum value 1.")) \
        == "Samples is below its least, 1"
    assert malformed(fn, ["e", 3, 1.5], ValueError("x")) == "Top p is above its most, 1"


def test_repeats_of_two_and_a_half_are_refused_not_rounded():
    """precision=0 had Gradio round 2.5 repeats to 2 without a word: the form's whole
    numbers reach the handler as typed, which refuses what is not whole."""
    from types import SimpleNamespace

    import pytest
    from ui.experiments_common import ExperimentError
    from ui.experiments_handlers import config_from_form
    from ui.experiments_layout import build_builder

    ui = SimpleNamespace()
    with gr.Blocks():
        build_builder(ui)
    for number in (ui.samples, ui.repeats):
        assert number.preprocess(2.5) == 2.5
    with pytest.raises(ExperimentError, match="repeats: must be a whole number, not 2.5"):
        config_from_form({"endpoint": "e", "repeats": ui.repeats.preprocess(2.5)})


def test_an_input_is_named_by_its_label_else_its_parameter_name(store):
    """search_items with list_page [0] answered "value 7 is not of the kind …" (the page box
    has no label) and restore_revision(-3) "value 1 (Version A) is below its least, 1" (the
    attacker review): an input is named as view_api names it when it has no label, and
    restore's one value as the version to restore."""
    from ui.server import build_app

    events = {fn.api_name: fn for fn in build_app(store).fns.values()}
    search = events["search_items"]
    page = next(i for i, b in enumerate(search.inputs) if b.elem_id == "list-page")
    assert search.input_parameter_names[page] == "list_page"       # what view_api shows
    sent = [None] * len(search.inputs)
    # (the page box and Version A have no least: their handlers answer 0 in the page's
    # words, the page box showing page 1, the restore naming the versions)
    sent[page] = [0]
    assert malformed(search, sent, ValueError(f"input component at index {page}")) == \
        "list_page is not of the kind its control takes"
    restore = events["restore_revision"]
    assert malformed(restore, [None, [-3]], ValueError("input component at index 1")) == (
        "the version to restore (version; the History's Version A) is not of the kind its "
        "control takes")
    quality = events["start_run"]
    index = quality.input_parameter_names.index("image_quality")
    sent = [None] * len(quality.inputs)
    assert malformed(quality, sent, ValueError(f"input component at index {index}")) == \
        "Quality is not of the kind its control takes"
