"""A `judges.tables.Table` as LaTeX: booktabs, its notes printed under the tabular inside
the float (they were `%` comments: a compiled table said "14 items" over cells of n 13 and
a ‡ nobody explained), cell marks as superscripts in cells and notes alike."""
from __future__ import annotations

import re

from judges.cells import latex_escape


def render(table) -> str:
    """The table (a `judges.tables.Table`) as a LaTeX float."""
    spec = "".join("r" if c.numeric else "l" for c in table.columns)
    lines = ["% requires \\usepackage{booktabs}", "\\begin{table}[t]", "\\centering"]
    if table.caption:
        lines.append(f"\\caption{{{latex_escape(table.caption)}}}")
    if table.label:
        lines.append(f"\\label{{{table.label}}}")
    lines += [f"\\begin{{tabular}}{{{spec}}}", "\\toprule",
              " & ".join(latex_escape(table.title(c)) for c in table.columns) + " \\\\",
              "\\midrule"]
    lines += [" & ".join(cells) + " \\\\" for cells in table.rendered(latex=True)]
    lines += ["\\bottomrule", "\\end{tabular}"]
    notes = table.notes
    for note in table.footnotes:        # said once, as a paragraph of its own below
        notes = notes.replace(note, "")
    paragraphs = [p for p in (table.left_out, *table.footnotes, " ".join(notes.split())) if p]
    if paragraphs:
        lines += ["\\par\\smallskip", "{\\footnotesize\\raggedright"]
        lines += [f"{latex_prose(p)}\\par" for p in paragraphs]
        lines.append("}")
    lines.append("\\end{table}")
    return "\n".join(lines) + "\n"


def latex_marks(text: str) -> str:
    """The footnote marks of cells (`scoring.biased` †, `scoring.source_clues` ‡) as LaTeX
    superscripts, the same in a cell and in the footnote that explains it."""
    return text.replace("†", "$^\\dagger$").replace("‡", "$^\\ddagger$")


def latex_prose(text: str) -> str:
    """A note as LaTeX text: escaped, its marks as in the cells, `code` in typewriter."""
    return re.sub(r"`([^`]*)`", r"\\texttt{\1}", latex_marks(latex_escape(text)))
