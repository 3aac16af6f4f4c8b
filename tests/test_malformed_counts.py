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
    assert malformed(fn, [None], ValueError("x")) == "it takes 2 values, 0 were sent"
    assert malformed(fn, [None, "a", {}], ValueError("input component at index 2")) == \
        "value 2 (Boxes) is not of the kind its control takes"


def test_the_states_a_client_fills_in_are_not_counted_as_sent():
    """delete_item takes [State, Reason, State]; gradio_client called with no value sends
    [None, None] (a None for each State, the second appended), which was counted as
    "it takes 1 values, 1 were sent"."""
    with gr.Blocks():
        work, reason, ids = gr.State(), gr.Textbox(label="Reason"), gr.State([])
    fn = Fn([work, reason, ids])
    assert malformed(fn, [None, None], ValueError("x")) == "it takes 1 value, 0 were sent"
    assert malformed(fn, [], ValueError("x")) == "it takes 1 value, 0 were sent"
