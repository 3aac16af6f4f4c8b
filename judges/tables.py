"""Result tables: aggregated results as rows, rendered as CSV, JSON, Markdown and LaTeX.

A `Table` is columns plus rows of plain values, so every export says the same thing. Numbers are
printed as the papers print them: percentages with two decimals, best value per column in bold
and second best underlined (DailyClue Table 2, VER-Bench Table 1). Ties share the mark, a
column whose values are all equal (all 0.00, say) marks nothing: no value there is best, and
0.00 is never marked (no accuracy of 0 is "second best"); rows
flagged `"_unranked": True` (a human baseline, a run with nothing scored or whose every answer
failed: `unrankable`) are printed but not ranked (cells named in a row's `"_unranked_cells"`
neither: a table whose cells are runs), a column whose cells rest on different n
(accuracies on other items) marks nothing and the notes say so (`unequal_n_note`), and a
table whose rows cannot be ranked against each other (`ranked` False: read by different
judges) marks nothing. A cell may carry an
interval (`<key>_ci_low`/`<key>_ci_high`, shown when `show_ci`), a delta (`<key>_delta`,
DailyClue Table 3's change against "No Clue", with `<key>_delta_n`, the items both sides
scored, said beside it when it is not the n of both cells: "on this cell's items", or "on 12
items both scored", never as a second "n") and the n it was computed on (`<key>_n`: a
group's n; one rule for the whole table, `judges.group_n`: in the column titles when every
column's rows have one n, else in every cell, and `Table.n_rule` says which). LaTeX uses
booktabs and escapes names.

CSV and JSON carry the same values: rounded to the digits the table prints, percentages named
`<key>_pct` (never a fraction in one export and a percent in the other). When rows are runs,
each starts with `run_id`, `run_name` (the run's own name, empty when it has none),
`run_label` (the name the run is shown by: the row's label) and
`model` (the endpoint's model id, `<row>["endpoint_model"]`; empty for a row that is no run,
such as a human baseline): a spreadsheet groups runs by the model they asked.

The tables the papers print, built from results, are in `judges.paper_tables`.
"""
from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field

from judges import group_n, latex_table
from judges.latex_table import latex_marks
from judges.samples import rule_caption
from judges.group_n import N_IN_CELLS, N_IN_CELLS_BOTH, N_IN_CELLS_HUMAN, \
    N_IN_TITLES  # noqa: F401 (API)
from judges.cells import (FORMULA_STARTS, LATEX_SPECIAL, delta_text, fixed,  # noqa: F401
                          latex_escape, markdown_cell, spreadsheet_cell)

MARK_RULE = ("Bold: the highest value of its column; underlined: the second highest (ties "
             "share the mark; a column of equal values marks none, and 0.00 is never marked).")

@dataclass
class Column:
    key: str
    title: str
    numeric: bool = True
    digits: int = 2
    higher_is_better: bool = True
    rank: bool = True            # bold/underline the best two values
    percent: bool = True         # numeric values are percentages (exported as <key>_pct);
                                 # counts (digits 0) never are
    latex_key: str = ""          # a short form's row key, LaTeX's cell (`latex_table.in_full`)

    def export_key(self, suffix: str = "") -> str:
        """The CSV/JSON name of the column (or of its `_ci_low`, `_delta`, ... companion)."""
        unit = "_pct" if self.numeric and self.percent and self.digits else ""
        return f"{self.key}{unit}{suffix}"


@dataclass
class Table:
    columns: list[Column]
    rows: list[dict] = field(default_factory=list)
    caption: str = ""
    label: str = ""
    show_ci: bool = False
    notes: str = ""              # the counting rules, printed under the table
    left_out: str = ""           # the runs asked for that the table does not show, and why:
                                 # a line of its own right under the table, before the notes
    exported: list[str] = field(default_factory=list)  # row keys only CSV and JSON carry
                                                        # (each cell's run, say)
    ranked: bool = True          # False: no value is marked best (rows read by different
                                 # judges are not comparable)
    blank: str = ""              # why a chart of the table has no bar for some cells
                                 # (`notes` says it of the cells "–"), under the chart
    footnotes: list[str] = field(default_factory=list)  # what a mark in a cell means (also
                                                         # in `notes`): a chart repeats them
    protocol: str = ""           # the protocol the numbers are under (CSV/JSON `protocol`:
                                 # a CSV alone says it, as its `judge` column says the judge)
    samples_rule: str = ""       # the rule that decided each item from its samples (CSV
                                 # column and JSON field `samples_rule`): two exports of one
                                 # table under two rules were told apart by nothing

    def shown_caption(self) -> str:
        """The caption Markdown and LaTeX print, naming the samples rule (`rule_caption`)."""
        return rule_caption(self.caption, self.samples_rule)

    # -- ranking ---------------------------------------------------------------------------
    def marks(self) -> dict[tuple[int, str], str]:
        """{(row index, column key): "best" | "second"} per ranked numeric column ({} when
        the table is not `ranked`)."""
        found = {}
        if not self.ranked:
            return found
        for col in (c for c in self.columns if c.numeric and c.rank):
            ranked = [(i, round(r[col.key], col.digits)) for i, r in enumerate(self.rows)
                      if group_n.ranked_cell(r, col.key)]
            if col in self.unequal_n():   # other items: no cell is better than another
                continue
            distinct = sorted({v for _, v in ranked}, reverse=col.higher_is_better)
            if len(distinct) < 2:      # one row, or all equal: nothing is best
                continue
            markable = [v for v in distinct if v != 0]   # 0.00 is never best nor second
            for i, v in ranked:
                if markable and v == markable[0]:
                    found[(i, col.key)] = "best"
                elif len(markable) > 1 and v == markable[1]:
                    found[(i, col.key)] = "second"
        return found

    def unequal_n(self) -> list[Column]:
        """The ranked columns whose ranked cells rest on different n (the cell's `<key>_n`,
        else its row's `n`): an injection table bolded 30.00 (n 10) over 27.27 (n 11),
        accuracies on different items. `marks` marks none there; `unequal_n_note` says so."""
        found = []
        for col in (c for c in self.columns if c.numeric and c.rank):
            sizes = {r.get(f"{col.key}_n", r.get("n")) for r in self.rows
                     if group_n.ranked_cell(r, col.key)}
            if len(sizes) > 1:
                found.append(col)
        return found

    def unequal_n_note(self) -> str:
        """The note naming the columns `marks` leaves unmarked for their n ('' when none)."""
        cols = self.unequal_n()
        if not cols or not self.ranked:
            return ""
        names = ", ".join(c.title for c in cols)
        return (f"No best or second is marked in {names}: "
                f"{'its' if len(cols) == 1 else 'their'} cells rest on different numbers of "
                "items (n), and a higher accuracy on other items is no better score.")

    # -- plain exports ---------------------------------------------------------------------
    def titles_n(self) -> dict[str, int]:
        """{column key: n} of the columns whose titles say their n ({}: every cell says its
        own): `judges.group_n.titles_n`."""
        return group_n.titles_n(self.rows, self.columns)

    def group_n(self, col: Column) -> int | None:
        """The n `col`'s title shows (None: none, each cell says its own: `titles_n`)."""
        return self.titles_n().get(col.key)

    def n_rule(self) -> str:
        """The note saying where the groups' n is ('' when no cell carries one)."""
        return group_n.n_rule(self.rows, self.columns)

    def flat_rows(self) -> list[dict]:
        """The rows as exported: run id, name and model first (when rows are runs), each column
        rounded to its digits, then its interval, delta and n."""
        runs = any("run_id" in r for r in self.rows)
        out = []
        for row in self.rows:
            flat = {"run_id": row.get("run_id"), "run_name": row.get("run_name") or "",
                    "run_label": row.get("run_label", row.get("model")),
                    "model": row.get("endpoint_model"),
                    "run_status": row.get("run_status")} if runs else {}
            if self.protocol:      # a row's own when its protocols differ (a drop table's)
                flat["protocol"] = row.get("_protocol", self.protocol)
            if self.samples_rule:
                flat["samples_rule"] = self.samples_rule
            flat.update((k, row.get(k)) for k in self.exported)
            for col in self.columns:
                if not (runs and col.key == "model"):    # the label: run_name above
                    flat[col.export_key()] = _rounded(row.get(col.key), col)
            for col in self.columns:
                for part in ("ci_low", "ci_high", "ci_note", "delta", "delta_n", "delta_base",
                             "n"):
                    if any(f"{col.key}_{part}" in r for r in self.rows):
                        value = row.get(f"{col.key}_{part}")
                        count = part.endswith("n") and part != "delta"
                        flat[f"{col.key}_{part}" if count else col.export_key(f"_{part}")] = \
                            value if count else _rounded(value, col)
            out.append(flat)
        return out

    def to_csv(self) -> str:
        """A CSV for spreadsheets: every cell (the header too: some tables' columns are model
        names) goes through spreadsheet_cell, as the model id and the baseline label lead
        each row. Lines end in CRLF (RFC 4180), so that the csv module quotes a cell that
        holds a lone CR, which readers would otherwise take for the end of the row."""
        rows = self.flat_rows()
        keys = self.export_keys(rows)
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")
        for cells in [keys] + [[row.get(k) for k in keys] for row in rows]:
            writer.writerow([spreadsheet_cell(v) for v in cells])
        return out.getvalue()

    def export_keys(self, rows: list[dict]) -> list[str]:
        """The CSV header and JSON "columns": the keys of the exported rows, in order."""
        return list(rows[0]) if rows else [c.export_key() for c in self.columns]

    def to_json(self) -> str:
        """{"caption", "protocol", "samples_rule", "columns", "rows", "notes", "footnotes",
        "left_out"} ("samples_rule" also a column of the rows, as in the CSV):
        `pd.DataFrame(d["rows"], columns=d["columns"])` is the table (the columns are the
        rows' keys); "footnotes" are the notes' sentences that explain a mark in a cell."""
        rows = self.flat_rows()
        return json.dumps({"caption": self.caption, "protocol": self.protocol,
                           "samples_rule": self.samples_rule or None,
                           "columns": self.export_keys(rows), "rows": rows,
                           "notes": self.notes, "footnotes": self.footnotes,
                           "left_out": self.left_out}, indent=2)

    # -- rendered exports ------------------------------------------------------------------
    def _cell(self, row: dict, col: Column, latex: bool, markdown: bool = False,
              titles: dict | None = None) -> str:
        """One cell as printed (`titles`: `titles_n()`, computed once per table by callers
        that print many cells)."""
        value = row.get(col.key)
        if not col.numeric:
            value = row.get(col.latex_key, value) if latex and col.latex_key else value
            text = value if value is not None else ""
            # Plain (neither LaTeX nor Markdown): a page's table cell, shown as written.
            return latex_escape(text) if latex else markdown_cell(text) if markdown else \
                str(text)
        n = row.get(f"{col.key}_n")
        common = (self.titles_n() if titles is None else titles).get(col.key)
        flag = (row.get("_flags") or {}).get(col.key) or ""   # a footnote mark
        if flag and latex:                      # (`scoring.biased`, `scoring.source_clues`)
            flag = latex_marks(flag)
        if value is None:     # nothing scored: its n (0) still said where the cells say n;
            dash = "--" if latex else "–"   # no mark: a mark qualifies a value, and there is none
            why = (row.get("_why_empty") or {}).get(col.key) or ""   # but one may say why
            dash += latex_marks(why) if why and latex else why       # it is empty (‡)
            return f"{dash} (n {n})" if n is not None and common is None else dash
        text = (latex_escape if latex else str)(fixed(value, col.digits)) + flag
        delta, low = row.get(f"{col.key}_delta"), row.get(f"{col.key}_ci_low")
        if delta is not None:
            sign = self.delta_text(row, col.key, col.digits)
            text += f"\\textsubscript{{{latex_escape(sign)}}}" if latex else f" ({sign})"
        interval = None
        if self.show_ci and low is not None:
            high = row[f"{col.key}_ci_high"]
            interval = f"[{fixed(low, col.digits)}, {fixed(high, col.digits)}]"
        elif self.show_ci and row.get(f"{col.key}_ci_note"):    # no interval, and why
            interval = f"[–: {row[f'{col.key}_ci_note']}]"
        n_text = f" (n {n})" if n is not None and common is None else ""
        if interval is None or not latex:
            return text + n_text if interval is None else f"{text} {interval}{n_text}"
        # LaTeX: the interval on a line of its own under the value, the column narrower
        return (f"\\begin{{tabular}}[t]{{@{{}}r@{{}}}}{text}{n_text}\\\\"
                f"{{\\scriptsize {latex_escape(interval)}}}\\end{{tabular}}")

    @staticmethod
    def delta_text(row: dict, key: str, digits: int = 2) -> str | None:
        """A cell's change as printed (`judges.cells.delta_text`)."""
        return delta_text(row, key, digits)

    def title(self, col: Column) -> str:
        """The column's title, with its n when every row's cell has the same one."""
        n = self.group_n(col)
        return col.title if n is None else f"{col.title} (n {n})"

    def rendered(self, latex: bool, markdown: bool = False) -> list[list[str]]:
        marks, titles = self.marks(), self.titles_n()
        bold, under = (r"\textbf{%s}", r"\underline{%s}") if latex else ("**%s**", "<u>%s</u>")
        lines = []
        for i, row in enumerate(self.rows):
            cells = []
            for col in self.columns:
                text = self._cell(row, col, latex, markdown, titles)
                mark = marks.get((i, col.key))
                cells.append(bold % text if mark == "best" else
                             under % text if mark == "second" else text)
            lines.append(cells)
        return lines

    def to_markdown(self) -> str:
        head = "| " + " | ".join(markdown_cell(self.title(c)) for c in self.columns) + " |"
        rule = "|" + "|".join("---:" if c.numeric else ":---" for c in self.columns) + "|"
        body = ["| " + " | ".join(cells) + " |"
                for cells in self.rendered(latex=False, markdown=True)]
        text = "\n".join([head, rule, *body])
        shown = self.shown_caption()
        caption = f"**{markdown_cell(shown)}**\n\n" if shown else ""
        return caption + text + (f"\n\n{self.left_out}" if self.left_out
                                 else "") + (f"\n\n{self.notes}" if self.notes else "") + "\n"

    def to_latex(self) -> str:
        """A booktabs table whose notes are printed under the tabular, inside the float, in
        \\footnotesize: what was left out, the footnotes of the marks in cells (each its own
        paragraph) and the rest of the notes (the items compared, where the n is, the
        counting rules). They were `%` comments before: a compiled table said "14 items" over
        cells of n 13 and a ‡ nobody explained."""
        return latex_table.render(self)


def _rounded(value, col: Column):
    """A numeric cell as printed (col.digits decimals; an int when digits is 0)."""
    if not col.numeric or not isinstance(value, float):
        return value
    return int(round(value)) if col.digits == 0 else round(value, col.digits) + 0.0
