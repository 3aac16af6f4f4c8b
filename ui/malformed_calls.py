"""Calls no page sends (too few values, a value its control cannot take, a click without
its selection): what is wrong, in words naming the control and never the value sent, and
the refusal GuardedBlocks (ui/gradio_hooks.py) raises for it, with a log line (one a minute
per event at most: ui/quiet_log.py)."""
from __future__ import annotations

import logging
import re

import gradio as gr

from ui import messages
from ui.quiet_log import QuietLog, shown

log = QuietLog(logging.getLogger("cluelab.access"))


def refused_malformed(block_fn, wrong: str) -> gr.Error:
    """A malformed call's refusal, and its one log line (no traceback, nothing sent)."""
    reason = f"{block_fn.api_name or 'this action'}: {wrong}"
    log.warning(("malformed", reason), f"refused a malformed call ({shown(reason)})")
    return messages.error(f"{reason}. Nothing was done.", quiet=True)


def takes_one_value(block) -> bool:
    """A control whose value is one text, number or choice (Gradio lets a Dropdown that takes
    typed values, or a Textbox, pass a list or a dict on to the handler)."""
    one = (gr.Textbox, gr.Number, gr.Slider, gr.Checkbox, gr.Radio, gr.Dropdown)
    return isinstance(block, one) and not getattr(block, "multiselect", False)


def malformed_call(block_fn, event_data) -> str | None:
    """What no page sends, seen before the inputs are read: a call of an event that runs in
    the page only (Gradio raised IndexError), or of one whose handler reads a click's
    selection (gr.SelectData) without one (TypeError)."""
    data = getattr(event_data, "_data", None)
    if block_fn.fn is None:
        return "it runs in the page only, there is nothing to call on the server"
    if block_fn.collects_event_data and not (isinstance(data, dict)
                                             and {"index", "value"} <= set(data)):
        return "it needs the selection a page sends with a click (index and value)"
    return None


def malformed(block_fn, inputs, err: Exception) -> str:
    """What is wrong with a call's inputs, naming the control, never the value sent; counting
    the values a caller sees (the API page's parameters), not hidden State inputs.

    Every client sends one value for each hidden State besides the caller's own: a page
    sends the State's value, gradio_client inserts None at each State's place (appending
    it when the caller's values stop short of that place). So the caller sent the values
    beyond those: delete_item ([State, Reason, State]) called with none arrives as
    [None, None], which counting places read as "1 were sent"; a raw call sends them
    itself. So an event with a State says what it takes besides the state, how many values
    that makes in all, and how many arrived."""
    shown = [i for i, block in enumerate(block_fn.inputs) if not isinstance(block, gr.State)]
    index = re.search(r"input component at index (\d+)", str(err))
    if not isinstance(inputs, list) or len(inputs) < len(block_fn.inputs):
        hidden = len(block_fn.inputs) - len(shown)
        takes = f"it takes {len(shown)} value{'s' * (len(shown) != 1)}"
        if not hidden:
            sent = len(inputs or [])
            return f"{takes}, {sent} {'was' if sent == 1 else 'were'} sent"
        # a raw /queue/join sends the states itself, gradio_client fills them in: what
        # arrived, states included, reads right for both (a raw caller's 7 of 8 was "6")
        arrived = len(inputs or [])
        return (f"{takes} besides the page's state ({len(block_fn.inputs)} in all); "
                f"{arrived} arrived, state included")
    if (bound := _out_of_bounds(block_fn, inputs, shown)) is not None:
        return bound
    if index and int(index.group(1)) in shown:
        return (f"{named(block_fn, int(index.group(1)), shown)} is not of the kind its "
                "control takes")
    return "a value is not one its control takes (a choice it does not offer, or of another kind)"


def _out_of_bounds(block_fn, inputs: list, shown: list[int]) -> str | None:
    """A number below its control's least or above its most, named with the bound: Gradio
    says it in an error that names no control ("Samples" 0 read "a value is not one its
    control takes")."""
    for k, i in enumerate(shown):
        block, value = block_fn.inputs[i], inputs[i]
        if not isinstance(block, gr.Number) or isinstance(value, bool) or \
                not isinstance(value, (int, float)):
            continue
        if block.minimum is not None and value < block.minimum:
            return f"{named(block_fn, i, shown)} is below its least, {block.minimum:g}"
        if block.maximum is not None and value > block.maximum:
            return f"{named(block_fn, i, shown)} is above its most, {block.maximum:g}"
    return None


IN_WORDS = {("restore_revision", "version"): "the version to restore (version; the "
                                            "History's Version A)"}
"""Inputs whose label reads otherwise in the event than on the page: restore_revision's
one value is the version to restore, which the page takes from the History's "Version A"
box (Diff's too); "value 1 (Version A) is below its least" named neither."""


def named(block_fn, index: int, shown: list[int]) -> str:
    """The input at `index`, as a caller knows it: its words for the event (IN_WORDS), its
    label, else the parameter name the API description gives it (gradio_client's view_api:
    Gradio takes it from BlockFunction.input_parameter_names, the handler's own parameter
    names, which ui/server.name_parameters fills in where the handler has none), else its
    place among the values the caller sends. "value 7 is below its least" named search_items'
    list_page by a count a caller had to do."""
    names = getattr(block_fn, "input_parameter_names", None) or []
    parameter = names[index] if index < len(names) else None
    words = IN_WORDS.get((getattr(block_fn, "api_name", None), parameter))
    label = getattr(block_fn.inputs[index], "label", None)
    return words or label or parameter or f"value {shown.index(index) + 1}"
