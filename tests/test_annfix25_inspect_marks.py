"""Model-written text on Inspect carries no live text-direction control: the output as
received and the model clue cells (as every read-only table shows them: ui/table_cells.py)
show each as "⟨U+202E⟩", the answer line strips them.
Why: a reply "reasoning \\u202eC :rewsnA\\u202c" read "Answer: C" though stored reversed."""
import json

from tests.inspect_helpers import make_run
from tests.live_server import open_ui_store
import gradio as gr

from ui import inspect_handlers as ih, table_cells
from ui.experiments_runs import response_detail

RLO, PDF = "\u202e", "\u202c"
REPLY = (f"reasoning {RLO}C :rewsnA{PDF}\nAnswer: C\n" +
         json.dumps({"answer": f"{RLO}C", "clues": [{"text": f"tiny cat {RLO}evil",
                                                      "box": [1, 1, 50, 50]}]}))


def _view(tmp_path):
    store = open_ui_store(tmp_path / "ui.db")
    ids = make_run(store, "run-x", "m-x", {"ui/alpha": REPLY})
    return store, ih.open_view(store, str(ids["ui/alpha"]))


def test_inspect_shows_controls_in_the_output_and_the_cells(tmp_path):
    store, view = _view(tmp_path)
    try:
        output = ih.output_text(view)
        assert "⟨U+202E⟩C :rewsnA⟨U+202C⟩" in output and RLO not in output
        table_cells.install()
        shown = gr.Dataframe(interactive=False).postprocess(ih.model_table(view))
        cells = shown.data + shown.metadata["display_value"]
        assert cells and all(RLO not in str(c) for row in cells for c in row)
        assert all("tiny cat ⟨U+202E⟩evil" in rows[0][1]
                   for rows in (shown.data, shown.metadata["display_value"]))
        assert RLO not in ih.answer_md(view)
        shown, _ = response_detail(store, "run-x", view["response"]["work_id"])
        assert "⟨U+202E⟩" in shown and RLO not in shown
    finally:
        store.close()
