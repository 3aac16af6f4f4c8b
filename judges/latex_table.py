"""A `judges.tables.Table` as LaTeX: booktabs, its notes printed under the tabular inside
the float (they were `%` comments: a compiled table said "14 items" over cells of n 13 and
a ‡ nobody explained), cell marks as superscripts in cells and notes alike.

It fits a page: the tabular is scaled down to the line's width only when wider (adjustbox's
`max width`; a drop table was 1384 pt too wide), long column titles break over lines (their
"(n 12)" kept whole), and a column with a short form (`Column.latex_key`: the Judge column
prints the judge's id) prints it, the full text said once in the notes ("Judge in full:"),
where a panel's explanation belongs.

Text is escaped by `judges.cells.latex_escape`: our own symbols (− ≥ × … ‡ “ ” ·) become
commands; names from data (models, runs, domains) keep their accented Latin letters, which
utf8 input sets, and another character (Greek, CJK, an emoji) becomes its plain compatibility
form or its code point ("[U+03B1]"), so that the table always compiles with pdflatex and the
packages of its "% requires" line (`REQUIRES`).
"""
from __future__ import annotations

import re

from judges.cells import LATEX_PREAMBLE, latex_escape

REQUIRES = f"% requires \\usepackage{{booktabs}} \\usepackage{{adjustbox}} {LATEX_PREAMBLE}"
TITLE_LINE = 16      # characters: a longer column title breaks over lines at its spaces


def render(table) -> str:
    """The table (a `judges.tables.Table`) as a LaTeX float."""
    spec = "".join("r" if c.numeric else "l" for c in table.columns)
    lines = [REQUIRES, "\\begin{table}[t]", "\\centering"]
    if table.shown_caption():        # with the samples rule
        lines.append(f"\\caption{{{latex_escape(table.shown_caption())}}}")
    if table.label:
        lines.append(f"\\label{{{table.label}}}")
    lines += ["\\begin{adjustbox}{max width=\\linewidth}",
              f"\\begin{{tabular}}{{{spec}}}", "\\toprule",
              " & ".join(title_cell(table.title(c), "r" if c.numeric else "l")
                         for c in table.columns) + " \\\\",
              "\\midrule"]
    lines += [" & ".join(cells) + " \\\\" for cells in table.rendered(latex=True)]
    lines += ["\\bottomrule", "\\end{tabular}", "\\end{adjustbox}"]
    notes = table.notes
    for note in table.footnotes:        # said once, as a paragraph of its own below
        notes = notes.replace(note, "")
    paragraphs = [p for p in (table.left_out, *table.footnotes, " ".join(notes.split()),
                              *in_full(table)) if p]
    if paragraphs:
        lines += ["\\par\\smallskip", "{\\footnotesize\\raggedright"]
        lines += [f"{latex_prose(p)}\\par" for p in paragraphs]
        lines.append("}")
    lines.append("\\end{table}")
    return "\n".join(lines) + "\n"


def title_cell(title: str, align: str) -> str:
    """A column title, escaped, over several lines when longer than `TITLE_LINE` (a nested
    tabular: no package), its "(n 12)" never split."""
    rows = title_lines(re.findall(r"\(n [^)]*\)|\S+", title))
    if len(rows) < 2:
        return latex_escape(title)
    return (f"\\begin{{tabular}}[b]{{@{{}}{align}@{{}}}}"
            + "\\\\".join(latex_escape(r) for r in rows) + "\\end{tabular}")


def title_lines(words: list[str]) -> list[str]:
    """The words of a title as lines: one when it is short, else two of lengths as even as
    can be ("Location" over "Identification (n 1)"), else lines of `TITLE_LINE` at most."""
    if len(" ".join(words)) <= TITLE_LINE:
        return [" ".join(words)]
    two = min(([" ".join(words[:k]), " ".join(words[k:])] for k in range(len(words) - 1, 0, -1)),
              key=lambda pair: max(map(len, pair)), default=[])
    if two and max(map(len, two)) <= TITLE_LINE * 5 // 4:
        return two
    rows = []
    for word in words:
        if rows and len(rows[-1]) + 1 + len(word) <= TITLE_LINE:
            rows[-1] += " " + word
        else:
            rows.append(word)
    return rows


def in_full(table) -> list[str]:
    """A note per column whose LaTeX cells are a short form (`Column.latex_key`), giving
    each row's full text where it differs: "Judge in full: m · CoT: panel:a+b (1 of 2
    answered)."."""
    found = []
    for col in (c for c in table.columns if c.latex_key):
        full = [(row.get(table.columns[0].key), row.get(col.key)) for row in table.rows
                if row.get(col.key) and row.get(col.key) != row.get(col.latex_key)]
        if full:
            found.append(f"{col.title} in full: " + "; ".join(f"{name}: {text}"
                                                             for name, text in full) + ".")
    return found


def latex_marks(text: str) -> str:
    """Text (not yet escaped) as LaTeX, the footnote marks of cells (`scoring.biased` †,
    `scoring.source_clues` ‡) as superscripts, the same in a cell and in the footnote that
    explains it; the rest `latex_escape`d."""
    parts = re.split(r"([†‡])", str(text))
    return "".join(MARKS.get(p) or latex_escape(p) for p in parts)


MARKS = {"†": "$^\\dagger$", "‡": "$^\\ddagger$"}


def latex_prose(text: str) -> str:
    """A note as LaTeX text: escaped, its marks as in the cells, `code` in typewriter (found
    before escaping, which writes a ‘ as a backtick)."""
    parts = re.split(r"`([^`]*)`", text)         # odd places: the code
    return "".join(f"\\texttt{{{latex_escape(p)}}}" if k % 2 else latex_marks(p)
                   for k, p in enumerate(parts))
