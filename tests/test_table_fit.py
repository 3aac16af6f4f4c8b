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
    # "Commonsense" (110 px in bold Montserrat, 97 in IBM Plex Sans) had 98 px of an equal
    # share when titles were 110 px wide
    assert px[3] - table_fit.PAD >= table_fit.text_width("Commonsense") > 90


def test_too_many_groups_scroll_each_cell_on_one_line_the_model_readable():
    """Scrolling anyway, a subtask's cells ("100.00 [56.55, 100.00]") had only their longest
    word's width and read on three lines: each column now holds its cells on one line, and
    its title's words whole."""
    table = frame([f"Subtask number {k}" for k in range(16)])
    widths, scrolls = table_fit.column_widths(table)
    assert scrolls and all(w.endswith("px") for w in widths)
    assert int(widths[0][:-2]) >= table_fit.MODEL_MIN
    for title, width in zip(table.columns[1:], widths[1:]):
        least = max(table_fit.least_width([title, *table[title]]),
                    table_fit.one_line_width(table[title]))
        assert int(width[:-2]) == round(least)


def test_a_title_keeps_its_n_on_one_line():
    """"Home and Daily Life (n 2)" read "... Life (n" over "2)": the n's space is an NBSP,
    one word for the widths, a plain space in what the downloads print."""
    assert table_fit.unbroken_n("Home and Daily Life (n 2)") == "Home and Daily Life (n\u00a02)"
    assert table_fit.unbroken_n("Overall") == "Overall"
    assert table_fit.words("Life (n\u00a012)") == ["Life", "(n\u00a012)"]
    assert table_fit.least_width(["(n\u00a012)"]) == table_fit.text_width("(n 12)") + table_fit.PAD


def test_the_overall_column_holds_each_accuracy_and_interval_on_one_line():
    """Four DailyClue domains left Overall at its longest word ("[8.18,"): "23.08 [8.18,
    50.26]" read on three lines while the domain columns took the room. Overall is each
    row's headline figure: the room left after every word's goes first to hold its widest
    cell on one line; a table that scrolls sideways gives it that width too."""
    for groups in (["Daily Commonsense", "Location Identification", "Scientific Commonsense",
                    "Spatial Relationship"], [f"Subtask number {k}" for k in range(16)]):
        table = frame(groups)
        widths, scrolls = table_fit.column_widths(table)
        overall = list(table.columns).index("Overall")
        px = (float(widths[overall][:-2]) if scrolls
              else float(widths[overall][:-1]) / 100 * table_fit.ROOM)
        assert px >= table_fit.one_line_width(table["Overall"]) - 0.5, (groups, widths)


ENDPOINTS = [["fake", "http://127.0.0.1:8797/v1", "fake-vlm", "", "no key needed"],
             ["openai-gpt-4o", "https://api.openai.com/v1", "gpt-4o-2024-08-06",
              "OPENAI_API_KEY", "NOT SET"]]


def test_the_endpoints_list_holds_its_values_on_one_line():
    """An endpoint's name, URL, model id and key variable broke anywhere into their narrow
    columns (a vLLM model id read as a column of three-letter lines). They are on one line
    now, in columns fitted to the endpoints listed: typical ones whole, "key set" wrapping
    first; the columns share the whole room."""
    from ui.experiments_endpoints import (ENDPOINT_FONT_PX, ENDPOINT_HEADERS, ENDPOINT_ROOM,
                                          ONE_LINE, endpoint_widths)

    def at_font(width: float) -> float:     # a 14 px width (table_fit) at the list's font
        return (width - table_fit.PAD) * ENDPOINT_FONT_PX / 14 + table_fit.PAD

    local = [["local-vllm-server", "http://localhost:8000/v1", "qwen2.5-vl-72b-instruct",
              "OPENAI_API_KEY", "NOT SET"]]
    for rows in (ENDPOINTS, local):
        px = [float(w[:-1]) / 100 * ENDPOINT_ROOM for w in endpoint_widths(rows)]
        assert abs(sum(px) - ENDPOINT_ROOM) < 1
        for k, title in enumerate(ENDPOINT_HEADERS):
            texts = [str(row[k]) for row in rows]
            assert px[k] >= at_font(table_fit.least_width([title])) - 0.5, title
            if k in ONE_LINE:         # on one line; the local one's model a little short
                assert px[k] >= 0.9 * at_font(table_fit.one_line_width(texts)), (title, texts)
            else:
                assert px[k] >= at_font(table_fit.least_width(texts)) - 0.5, (title, texts)
    assert ONE_LINE == tuple(ENDPOINT_HEADERS.index(t) for t in
                             ("name", "base URL", "model", "key variable"))


def test_a_table_whose_words_cannot_fit_scrolls_at_their_widths():
    widths = table_fit.fitted_widths(["a", "b"], [["x" * 40, "y" * 40]], 300)
    assert widths == [f"{round(table_fit.least_width(['x' * 40]))}px",
                      f"{round(table_fit.least_width(['y' * 40]))}px"]


def test_a_long_model_id_breaks_after_its_separators_and_its_column_stays_narrow():
    """"Qwen/Qwen2.5-VL-72B-Instruct-AWQ-very-long-suffix-v2" was one word: the Model column
    took a third of the table (its least width the whole id), or the id broke mid-word."""
    from ui.table_fit import ZWSP, breakable, least_width, words
    model = "Qwen/Qwen2.5-VL-72B-Instruct-AWQ-very-long-suffix-v2 · CoT"
    shown = breakable(model)
    assert shown.replace(ZWSP, "") == model and f"Qwen/{ZWSP}Qwen2.5" in shown
    assert "VL-72B-" in words(shown)                     # no break before a digit
    assert least_width([shown]) < 120 < least_width([model.replace("-", "")])
    assert breakable("<i>Crowd</i>") == "<i>Crowd</i>"    # short words as they are
