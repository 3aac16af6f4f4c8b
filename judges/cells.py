"""How one value is written into a cell of each export: LaTeX, Markdown, a spreadsheet's CSV.

Kept apart from judges/tables.py (what a table holds) because every exporter of the app
(tables, the Inspect tag export, the CLI's Markdown) must escape a cell the same way.
"""
from __future__ import annotations

import re

LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                 "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                 "^": r"\textasciicircum{}"}


def latex_escape(text) -> str:
    return re.sub(r"[\\&%$#_{}~^]", lambda m: LATEX_SPECIAL[m.group()], str(text))


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


def fixed(value: float, digits: int, signed: bool = False) -> str:
    """A number as every table, chart and heatmap prints it: `digits` decimals ('+' before
    a change when `signed`), and never "-0.00": a value that rounds to zero (a change of
    -0.001, a difference of two equal accuracies computed as -1e-15) reads 0.00 (+0.00)."""
    return f"{round(value, digits) + 0.0:{'+' if signed else ''}.{digits}f}"
