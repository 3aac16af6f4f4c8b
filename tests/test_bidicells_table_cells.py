"""ui/table_cells: a read-only table's cells show their text-direction controls written out;
an editable table's (what a save sends back) and the stored text stay as they are."""
import gradio as gr
import pandas as pd

from ui import table_cells
from ui.table_cells import shown_cell, shown_rows, shown_table

RLO = "\u202e"


def test_a_cell_shows_its_controls_and_keeps_other_values():
    assert shown_cell(f"Which {RLO}exit now") == "Which ⟨U+202E⟩exit now"
    assert shown_cell("plain") == "plain"
    assert [shown_cell(v) for v in (3, 1.5, None, True)] == [3, 1.5, None, True]
    assert shown_rows(None) is None
    assert shown_rows([[f"a{RLO}", 1], ["\u2066b\u2069", None]]) == \
        [["a⟨U+202E⟩", 1], ["⟨U+2066⟩b⟨U+2069⟩", None]]


def test_read_only_tables_show_and_editable_ones_keep():
    # an editable table's postprocess, which the hook (once installed by any app built
    # earlier in the session) leaves alone: the full suite ran this after build_app
    table = gr.Dataframe(headers=["id", "text"], interactive=True)
    data = [["x", f"tiny cat {RLO}evil"]]
    assert shown_table(table.postprocess(data), False).data == [["x", "tiny cat ⟨U+202E⟩evil"]]
    kept = shown_table(table.postprocess(data), True)
    assert kept.data == data and shown_table(None, False) is None
    assert shown_table(table.postprocess(data), None).data == data


def test_the_hook_covers_every_read_only_table_and_styler_display_values():
    table_cells.install()
    table_cells.install()                   # once: not wrapped twice
    assert not getattr(gr.Dataframe.postprocess.__wrapped__, "shows_direction_marks", False)
    frame = pd.DataFrame([["x", f"{RLO}evil"]], columns=["id", "text"])
    styled = frame.style.apply(lambda s: ["color: red"] * len(s), subset=["id"], axis=0)
    out = gr.Dataframe(headers=["id", "text"], interactive=False).postprocess(styled)
    assert out.data == [["x", "⟨U+202E⟩evil"]]
    assert out.metadata["display_value"] == [["x", "⟨U+202E⟩evil"]]
    assert frame.iloc[0, 1] == f"{RLO}evil"             # the value handed in is not changed
    editable = gr.Dataframe(headers=["id", "text"], interactive=True).postprocess(
        [["x", f"{RLO}evil"]])
    assert editable.data == [["x", f"{RLO}evil"]]
