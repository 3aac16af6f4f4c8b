"""Every read-only table's cells shown with their text-direction controls written out.

Why: a table cell showing imported or model-written text obeyed the controls in it. An item
whose question held U+202E (right-to-left override) was listed as "Which won tixe" for
"Which \\u202eexit now", and a clue's "tiny cat \\u202eevil" read "tiny cat live". Every
read-only gr.Dataframe (the items list, History, Inspect's, Results', Experiments' tables)
now shows each control as its code, "Which ⟨U+202E⟩exit now" (ui.text.marks_shown, as
Inspect's "as received" views do), so the cell reads in stored order and says what it holds.
The stored text is not changed: only the value a read-only table is handed out.

One place for all tables: `install` wraps gr.Dataframe.postprocess, which every table's value
goes through (an event's output, a gr.update, a value given at build time), data and the
display values a pandas Styler brings (Inspect's coloured tables show those). An editable
table (the clue and option tables: interactive=True) is left as it is: what it shows is what
a save sends back, so written-out codes would be saved as text. Its controls are refused in
a save they bring in (judges/direction_parts.py) and flagged at import.

Outside its cell a control reorders nothing: Gradio 6 draws each cell as a block (a flex
item), and a bidi paragraph ends at a block's edge; assets/cluelab.css also gives every
table's text `unicode-bidi: isolate`, in case a cell's text is ever drawn inline.
"""
from __future__ import annotations

import functools

import gradio as gr

from ui.text import marks_shown


def shown_cell(value):
    """A cell's value as a read-only table shows it: text with its controls written out,
    anything else (numbers, None, booleans) as it is."""
    return marks_shown(value) if isinstance(value, str) else value


def shown_rows(rows):
    """`rows` (a list of rows of cells, or None) with each cell `shown_cell`."""
    if rows is None:
        return None
    return [[shown_cell(cell) for cell in row] for row in rows]


def shown_table(table, interactive):
    """A postprocessed table (Gradio's DataframeData) as shown: for a read-only table
    (`interactive` False) its headers, cells and Styler display values `shown_cell`; an
    editable one unchanged."""
    if interactive is not False or table is None:
        return table
    table.headers = [shown_cell(h) for h in table.headers]
    table.data = shown_rows(table.data)
    if table.metadata and table.metadata.get("display_value") is not None:
        table.metadata = {**table.metadata,
                          "display_value": shown_rows(table.metadata["display_value"])}
    return table


def install() -> None:
    """Wrap gr.Dataframe.postprocess with `shown_table` (once)."""
    original = gr.Dataframe.postprocess
    if getattr(original, "shows_direction_marks", False):
        return

    @functools.wraps(original)
    def postprocess(self, value):
        return shown_table(original(self, value), getattr(self, "interactive", None))

    postprocess.shows_direction_marks = True
    gr.Dataframe.postprocess = postprocess
