"""The Results table's column widths (ui/table_fit.py), without a browser: every column at
least as wide as its longest word at 1400 px, or, when that cannot fit, pixel widths and a
sideways scroll (tests/browser/test_results_fit.py measures the page itself)."""
import pandas as pd

from ui import table_fit


def frame(groups: list[str]) -> pd.DataFrame:
    columns = ["Model", "Overall", "n", *[f"{g} (n 5)" for g in groups], "Unparsed %",
               "Error %", "Unscored", "Judge"]
    row = ["qwen2.5-vl-72b-instruct · CoT · clues gt", "23.08 [8.18, 50.26]", "13",
           *["100.00 [56.55, 100.00]"] * len(groups), "61.54", "0.00", "1", "offline"]
    return pd.DataFrame([row], columns=columns)


def test_every_column_holds_its_longest_word_and_the_row_fills_the_table():
    table = frame(["Daily Commonsense", "Location Identification", "Scientific Commonsense",
                   "Spatial Relationship"])
    widths, scrolls = table_fit.column_widths(table)
    assert not scrolls and all(w.endswith("%") for w in widths)
    px = [float(w[:-1]) / 100 * table_fit.ROOM for w in widths]
    assert abs(sum(px) - table_fit.ROOM) < 1
    for title, width in zip(table.columns, px):
        assert width >= table_fit.least_width([title, *table[title]]) - 0.5, title  # 0.01 %
    # "Commonsense" (110 px in bold Montserrat) had 98 px of an equal share
    assert px[3] - table_fit.PAD >= table_fit.text_width("Commonsense") > 98


def test_too_many_groups_scroll_at_their_least_widths_the_model_readable():
    table = frame([f"Subtask number {k}" for k in range(16)])
    widths, scrolls = table_fit.column_widths(table)
    assert scrolls and all(w.endswith("px") for w in widths)
    assert int(widths[0][:-2]) >= table_fit.MODEL_MIN
    for title, width in zip(table.columns[1:], widths[1:]):
        assert int(width[:-2]) == round(table_fit.least_width([title, *table[title]]))
