"""How one value is written into a cell of each export: LaTeX, Markdown, a spreadsheet's CSV.

Kept apart from judges/tables.py (what a table holds) because every exporter of the app
(tables, the Inspect tag export, the CLI's Markdown) must escape a cell the same way.
"""
from __future__ import annotations

import re
import unicodedata

from domain.vocabulary import counted

LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                 "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                 "^": r"\textasciicircum{}"}
# The non-ASCII characters our notes, captions and labels use (and their kin), as commands
# pdflatex knows with `LATEX_PREAMBLE`: "Drop (General − Rigorous)" stopped the drop table's
# compilation at U+2212 ("not set up for use with LaTeX").
LATEX_SYMBOLS = {"−": "$-$", "≥": r"$\geq$", "≤": r"$\leq$", "≠": r"$\neq$",
                 "≈": r"$\approx$", "→": r"$\rightarrow$", "←": r"$\leftarrow$",
                 "↔": r"$\leftrightarrow$", "×": r"$\times$", "±": r"$\pm$",
                 "…": r"\ldots{}", "†": r"\dag{}", "‡": r"\ddag{}", "–": "--", "—": "---",
                 "“": "``", "”": "''", "‘": "`", "’": "'", "•": r"\textbullet{}",
                 "€": r"\texteuro{}", "\u00a0": "~", "\u00ad": ""}
# Latin letters of U+00A0-U+017F pdflatex's utf8 input and T1 fonts cannot set
LATIN_UNSET = set("\u0126\u0127\u0138\u013f\u0140\u0149\u0166\u0167\u017f")
# what `latex_escape`'s output needs in the document's preamble
LATEX_PREAMBLE = r"\usepackage[T1]{fontenc} \usepackage[utf8]{inputenc} \usepackage{textcomp}"


def latex_escape(text) -> str:
    """Text as pdflatex sets it (with `LATEX_PREAMBLE`): LaTeX's special characters escaped,
    our own symbols (`LATEX_SYMBOLS`: − ≥ × … ‡ “ ” and the like) as commands. Names from
    data (models, runs, domains) may hold any character: Latin letters with accents
    (U+00A0-U+017F) stay as they are, utf8 input sets them; another character becomes its
    compatibility form when that is one pdflatex sets (fullwidth "ａ" → "a", "ǎ" → "a"
    without its accent), else its code point, "[U+03B1]": always compiling, never silently
    dropped. Line breaks and control characters become spaces, invisible format characters
    (zero-width space) nothing."""
    text = str(text)
    if text.isascii():
        return _ascii_escape(text)
    return "".join(_char_escape(c) for c in text)


def _ascii_escape(text: str) -> str:
    text = re.sub(r"[\\&%$#_{}~^]", lambda m: LATEX_SPECIAL[m.group()], text)
    return re.sub(r"[\x00-\x08\x0a-\x1f\x7f]", " ", text)


def _char_escape(c: str) -> str:
    if c.isascii():
        return _ascii_escape(c)
    if c in LATEX_SYMBOLS:
        return LATEX_SYMBOLS[c]
    if "\u00a0" <= c <= "\u017f" and c not in LATIN_UNSET:
        return c
    kind = unicodedata.category(c)
    if kind == "Cf" or kind.startswith("M"):        # zero-width space, a lone accent
        return ""
    if kind.startswith(("C", "Z")):                  # line/paragraph separators, controls
        return " "
    plain = "".join(p for p in unicodedata.normalize("NFKD", c) if not unicodedata.combining(p))
    if plain and plain != c:
        return latex_escape(plain)
    return f"[U+{ord(c):04X}]"


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_cell(value):
    """A CSV cell a spreadsheet shows as text: a string starting with = + - @, a tab or a
    CR would be read as a formula (OWASP's CSV injection rule), so it gets a leading `'`.
    Numbers stay numbers (a negative delta is no formula). For CSVs meant for people only:
    data files (the VLMEvalKit TSV) keep their values exact."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


_MARKDOWN_CELL = str.maketrans({"\\": "\\\\", "|": "\\|", "<": "&lt;", ">": "&gt;",
                                "&": "&amp;", "[": "\\[", "]": "\\]", "*": "\\*",
                                "_": "\\_", "`": "\\`", "!": "\\!", "\n": " ", "\r": " "})


def markdown_cell(text) -> str:
    """A table cell that Markdown shows as written: a `|` in a domain name splits no column,
    and markup or a link from an item's field or a model's name is text, not HTML."""
    return str(text).translate(_MARKDOWN_CELL)


MINUS = "\u2212"    # the minus sign: "(−23.08)", not the hyphen of "(-23.08)"


def fixed(value: float, digits: int, signed: bool = False) -> str:
    """A number as every table, chart and heatmap prints it: `digits` decimals ('+' before
    a change when `signed`), a negative one with the minus sign "−" (U+2212; a hyphen-minus
    read as a dash in a typeset table), and never "-0.00": a value that rounds to zero (a
    change of -0.001, a difference of two equal accuracies computed as -1e-15) reads 0.00
    (+0.00). Displayed text only: CSV and JSON carry the numbers themselves; LaTeX gets
    `latex_escape`'s '$-$'."""
    return f"{round(value, digits) + 0.0:{'+' if signed else ''}.{digits}f}".replace("-", MINUS)


# where a change is on other items than its two cells' (`delta_where`), with the baseline's
# own accuracy on them when known: "62.50 (+0.00)" beside a No Clue of 64.29 read as a
# contradiction. Which side is which is said: the baseline is the solver's run without clue
# (the injection table's No Clue, the only table with changes); "−7.69 vs 23.08 on 13 items"
# left a reader to guess what 23.08 was and whose 13 items they were. Said in the table's
# notes (`delta_notes`), once per cell, never in the cell: a LaTeX cell read
# "66.67\textsubscript{+0.00 vs 66.67 without clue, on these 3 items}" (review round 28)
ON_CELL_ITEMS = " vs no clue, on this cell's items"
ON_BOTH_SCORED = " vs no clue, on {items} both runs scored"
VS_ON_CELL_ITEMS = " vs {base} without clue, on these {items}"
VS_ON_BOTH_SCORED = " vs {base} without clue, on the {items} both runs scored"


def delta_text(row: dict, key: str, digits: int = 2) -> str | None:
    """A cell's change as printed in its cell: '+7.14', nothing more (None when it has
    none); on which items, when not its cells', is `delta_where`, said in the notes. Its n
    is never a second "n" beside the cell's: "0.00 (-23.08, n 13) (n 14)" gave two n one
    after the other."""
    delta = row.get(f"{key}_delta")
    return None if delta is None else fixed(delta, digits, signed=True)


def delta_where(row: dict, key: str, digits: int = 2) -> str:
    """'' when a cell's change is on the items of the cell and of its baseline
    (`_baseline_n`), else on which items (`<key>_delta_n`), with the baseline's accuracy
    there (`<key>_delta_base`) when known: ' vs 62.50 without clue, on these 8 items' (the
    cell's n: its baseline scored more), else ' vs 60.00 without clue, on the 12 items both
    runs scored' (without it: ' vs no clue, on this cell's items', ' vs no clue, on 12 items
    both runs scored')."""
    if row.get(f"{key}_delta") is None:
        return ""
    n, delta_n = row.get(f"{key}_n"), row.get(f"{key}_delta_n")
    if delta_n is None or {n, row.get("_baseline_n", n)} == {delta_n}:
        return ""
    base = row.get(f"{key}_delta_base")
    if base is not None:     # the baseline's own figure on those items: '+0.00 vs 62.50 …'
        return (VS_ON_CELL_ITEMS if delta_n == n else VS_ON_BOTH_SCORED).format(
            base=fixed(base, digits), items=counted(delta_n, "item"))
    return ON_CELL_ITEMS if delta_n == n else ON_BOTH_SCORED.format(
        items=counted(delta_n, "item"))


def delta_notes(rows: list[dict], label: str, keys: dict[str, str], digits: int = 2) -> str:
    """The sentence under a table for its changes on other items than their cells'
    (`delta_where`), each cell named once: 'Changes on other items than their cells' n: m ·
    CoT, GT: +0.00 vs 66.67 without clue, on these 3 items; …', '' when there is none.
    label: the rows' label key; keys: {column key: its title}."""
    said = [f"{row.get(label)}, {title}: {delta_text(row, key, digits)}{where}"
            for row in rows for key, title in keys.items()
            if (where := delta_where(row, key, digits))]
    return ("Changes on other items than their cells' n (said here, not in the cells): "
            + "; ".join(said) + ".") if said else ""
