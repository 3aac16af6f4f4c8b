"""Model-written text on Inspect carries no live text-direction control: the output as
received shows each as "⟨U+202E⟩", the model clue cells and the answer line strip them.
Why: a reply "reasoning \\u202eC :rewsnA\\u202c" read "Answer: C" though stored reversed."""
import json

from tests.inspect_helpers import make_run
from tests.live_server import open_ui_store
from ui import inspect_handlers as ih
from ui.experiments_runs import response_detail

RLO, PDF = "\u202e", "\u202c"
REPLY = (f"reasoning {RLO}C :rewsnA{PDF}\nAnswer: C\n" +
         json.dumps({"answer": f"{RLO}C", "clues": [{"text": f"tiny cat {RLO}evil",
                                                      "box": [1, 1, 50, 50]}]}))


def _view(tmp_path):
    store = open_ui_store(tmp_path / "ui.db")
    ids = make_run(store, "run-x", "m-x", {"ui/alpha": REPLY})
    return store, ih.open_view(store, str(ids["ui/alpha"]))


def test_inspect_shows_controls_in_the_output_and_strips_them_from_cells(tmp_path):
    store, view = _view(tmp_path)
    try:
        output = ih.output_text(view)
        assert "⟨U+202E⟩C :rewsnA⟨U+202C⟩" in output and RLO not in output
        cells = ih.model_table(view).data.values.tolist()
        assert cells and all(RLO not in str(c) for row in cells for c in row)
        assert "tiny cat evil" in cells[0][1]
        assert RLO not in ih.answer_md(view)
        shown, _ = response_detail(store, "run-x", view["response"]["work_id"])
        assert "⟨U+202E⟩" in shown and RLO not in shown
    finally:
        store.close()
