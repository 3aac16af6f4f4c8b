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
        "value 2 (Boxes) is not of the kind its control takes"


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
