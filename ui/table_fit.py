"""How wide each column of the Results table (and of the endpoints list: `fitted_widths`) is,
so that every title and cell is read whole.

Gradio's Dataframe fixes each column at the width it is given (`column_widths`) and, with
wrap=True, breaks a title or a cell at spaces only (assets/cluelab.css): a word wider than its
column is cut. Columns sharing the room equally cut "Daily Commonsense (n 5)" to "Daily
Commonsens" at 1400x900, and a breakdown by 13 subtasks left 41 px columns reading "Ast / and
/ Geo" over cells cut to "100.0". So each column is at least as wide as its longest word, in
its title or any cell (`least_width`: the page font's widths, the bolder of regular and bold
since titles and the best cells are bold); what room is left goes first to the Overall column,
each row's headline figure, to hold its widest cell on one line ("23.08 [8.18, 50.26]" read on
three lines when the domains took the room), then to what reads better on one line (a title's n
with the word before it: "Identification (n / 2)" read as two lines, a model's whole name, a
cell's value with its interval), then to every column alike.

When even the least widths do not fit the table's room at 1400 px (many groups), no title is
shortened nor column dropped: each column takes its least width in pixels, or its widest
cell's on one line ("50.00 [9.45, 90.55]" read on three lines under a subtask), and the
table scrolls sideways (its scrollbar shown, assets/cluelab.css), the Model
column pinned so that every row stays named. tests/browser/test_results_fit.py measures the titles in Chromium.
"""
from __future__ import annotations

import re

# IBM Plex Sans (the theme's font, ui/server.py) at 14 px: the width of each printable ASCII
# character, the larger of weight 400 and 700, as Chromium measures it (canvas measureText),
# rounded up.
_ASCII_WIDTHS = (
    "3.4 4.5 7.0 10.0 8.5 13.7 10.1 3.8 4.8 4.8 8.5 8.4 4.4 5.7 4.4 6.5 8.4 8.4 8.4 8.4 8.4 "
    "8.4 8.4 8.4 8.4 8.4 4.7 4.7 8.4 8.4 8.4 7.0 12.7 9.6 9.4 9.2 9.8 8.5 8.2 10.1 10.2 6.1 "
    "7.9 9.8 7.5 11.5 10.2 10.0 9.2 10.0 9.5 8.8 8.2 9.8 9.1 13.7 9.5 9.1 8.5 4.7 6.5 4.7 8.4 "
    "8.0 8.4 8.0 8.6 7.3 8.6 7.9 5.1 7.8 8.4 4.1 4.1 8.1 4.3 12.6 8.4 7.9 8.6 8.6 5.7 7.1 5.4 "
    "8.4 7.6 11.8 7.9 7.5 7.3 5.3 5.7 5.3 8.4")
CHAR_WIDTH = {chr(32 + k): float(w) for k, w in enumerate(_ASCII_WIDTHS.split())}
NBSP = "\u00a0"       # a space no line breaks at: as wide as a space
CHAR_WIDTH[NBSP] = CHAR_WIDTH[" "]
OTHER_WIDTH = 15.0   # any other character (an accent, a CJK glyph): as wide as the widest
PAD = 18             # a cell's padding (8 px each side) and a little for rounding (the
                     # widths above are rounded up already)
ROOM = 1200          # px the table has at 1400x900 (its box is 1216 px wide)
MODEL_MIN = 180      # the model column, when the table scrolls: names on a line or two
ONE_LINE_MAX = 320   # no column asks for more than this to hold a cell on one line
HEADLINE = "Overall"  # the figure a reader looks for first: on one line when there is room


def text_width(text: str) -> float:
    """The width of `text` on one line, in px."""
    return sum(CHAR_WIDTH.get(c, OTHER_WIDTH) for c in str(text))


def words(text) -> list[str]:
    """The words a line may break between: split at ordinary spaces and zero-width ones
    (`breakable`), after a hyphen not before a digit (where Chromium breaks a line: "VL-72B"
    is one word, "72B-Instruct" two), not at NBSP ("(n 4)" is one word in a title,
    `unbroken_n`)."""
    return [word for word in re.split(r"[ \t\n\u200b]+|(?<=-)(?=[^\d\s])", str(text))
            if word]


ZWSP = "\u200b"


def breakable(text) -> str:
    """A long model id (a word of 17 characters or more) that may break after its `/` and `_`
    (a zero-width space after each):
    "Qwen/Qwen2.5-VL-72B-Instruct-AWQ" was one word, and its column took a third of the
    table; a cell of the page only (downloads and the command line print the id as it is)."""
    return re.sub(r"\S{17,}", lambda word: re.sub(r"([/_])(?=\S)", rf"\1{ZWSP}",
                                                   word.group()), str(text))


def least_width(texts) -> float:
    """The width a column needs so that none of `texts` (its title and cells) has a word cut:
    its longest word, and the cell's padding."""
    return max((text_width(word) for text in texts for word in words(text)),
               default=0.0) + PAD


def unbroken_n(title: str) -> str:
    """A column title with its n kept on one line: "Home and Daily Life (n 2)" read
    "... Life (n" over "2)" in a narrow column; the space inside "(n 2)" is an NBSP (the
    page's title only: downloads and the command line print plain spaces)."""
    return re.sub(r"\(n (\d+)\)$", rf"(n{NBSP}\1)", title)


def one_line_width(texts) -> float:
    """The width that shows each of `texts` on one line (at most ONE_LINE_MAX)."""
    return min(ONE_LINE_MAX, max((text_width(t) for t in texts), default=0.0) + PAD)


def title_tail(title: str) -> float:
    """The width of a title's last word with its n ("Identification (n 2)"), kept on one
    line when there is room (0 for a title without an n)."""
    found = re.search(r"[^\s]+ \(n[ \u00a0]\d+\)$", title)
    return text_width(found.group()) + PAD if found else 0.0


def column_widths(frame) -> tuple[list[str], bool]:
    """(the Dataframe's column_widths for `frame`, True when the table scrolls sideways).

    Within the room, percentages (of the table's width, so a wider window widens every
    column alike); beyond it, each column's least width in pixels (the Model column at least
    MODEL_MIN)."""
    columns = [str(c) for c in frame.columns]
    cells = [[str(v) for v in frame[c]] for c in frame.columns]
    least = [least_width([title, *values]) for title, values in zip(columns, cells)]
    # the model column: its names on a line or two (a long id breaks after its / and _,
    # `breakable`, and stood as a column of nine short lines in 90 px)
    least[0] = max(least[0], min(one_line_width(cells[0]), MODEL_MIN))
    headline = [max(low, one_line_width(values)) if title == HEADLINE else low
                for low, title, values in zip(least, columns, cells)]
    if sum(least) > ROOM:
        # it scrolls anyway: each cell on one line ("50.00 [9.45, 90.55]" of a subtask
        # read on three lines at its longest word's width)
        one_line = one_line_width(cells[0])
        widths = [max(least[0], min(one_line, MODEL_MIN)),
                  *(max(low, one_line_width(values))
                    for low, values in zip(headline[1:], cells[1:]))]
        return [f"{round(w)}px" for w in widths], True
    titled = [max(low, title_tail(title)) for low, title in zip(headline, columns)]
    named = [max(titled[0], min(one_line_width(cells[0]), MODEL_MIN)), *titled[1:]]
    wanted = [max(low, one_line_width(values)) for low, values in zip(named, cells)]
    widths = least
    for goal in (headline, titled, named, wanted):
        widths = _toward(widths, goal, ROOM - sum(widths))
    return _percentages(widths, ROOM), False


def fitted_widths(headers, rows, room: float, font_px: float = 14,
                  one_line=()) -> list[str]:
    """column_widths for a small table of plain cells (the Experiments page's endpoints):
    each column at least as wide as its longest word, title or cell, in its font (`font_px`;
    the widths above are at 14 px), except the columns `one_line` (indexes: a name, a URL, a
    model id, which the page keeps on one line and cuts with an ellipsis), whose least is
    their title's words; then the room left holds first those columns' cells on one line,
    then every cell and title on one line (_toward shares a short room). Percentages of
    `room`, or pixel widths when even the least widths do not fit (the table scrolls)."""
    scale = font_px / 14
    columns = [[str(h), *(str(row[k]) for row in rows)] for k, h in enumerate(headers)]
    least = [(least_width(texts if k not in one_line else texts[:1]) - PAD) * scale
             + PAD for k, texts in enumerate(columns)]
    if sum(least) > room:
        return [f"{round(w)}px" for w in least]

    def on_one_line(texts) -> float:
        return (one_line_width(texts) - PAD) * scale + PAD

    cells_on_one_line = [max(low, on_one_line(texts[1:])) if k in one_line else low
                         for k, (low, texts) in enumerate(zip(least, columns))]
    whole = [max(low, on_one_line(texts)) for low, texts in zip(cells_on_one_line, columns)]
    widths = least
    for goal in (cells_on_one_line, whole):
        widths = _toward(widths, goal, room - sum(widths))
    return _percentages(widths, room)


def _percentages(widths: list[float], room: float) -> list[str]:
    """`widths` (px) as percentages of `room`, what is left of it shared alike (a wider
    window widens every column alike)."""
    left = (room - sum(widths)) / len(widths)
    return [f"{100 * (w + left) / room:.2f}%" for w in widths]


def _toward(widths: list[float], goal: list[float], extra: float) -> list[float]:
    """`widths` grown by at most `extra` px in all toward `goal`: each by what it lacks or,
    when the room is short, the smaller lacks met first and the rest shared alike among the
    others (one long model id is cut, not every column beside it)."""
    lacking = [max(0.0, want - width) for width, want in zip(widths, goal)]
    level, left, open_count = float("inf"), max(0.0, extra), sum(1 for lack in lacking if lack)
    for lack in sorted(lack for lack in lacking if lack):
        if lack * open_count > left:
            level = left / open_count
            break
        left -= lack
        open_count -= 1
    return [width + min(lack, level) for width, lack in zip(widths, lacking)]
