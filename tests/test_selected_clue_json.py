"""The clue row a click selects goes to a hidden gr.JSON (#selected-clue): a bare int made
gr.JSON warn in the server's log on every click (an attacker's review, round 18, saw the
log fill with "JSON component received unexpected type <class 'int'>")."""
import warnings

import gradio as gr

from ui.annotate_structure import selected_row


def test_a_selected_row_reaches_the_json_without_a_warning_and_reads_back_as_its_number():
    component = gr.JSON(None, visible="hidden")
    for index in ([2, 1], (0, 3), 4):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            shown = component.postprocess(selected_row(index))
        value = shown.model_dump() if hasattr(shown, "model_dump") else shown
        assert component.preprocess(value) == (index[0] if isinstance(index, (list, tuple))
                                                else index)
