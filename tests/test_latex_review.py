"""What a researcher's context-free review found compiling the tables' LaTeX with pdflatex:

- the drop table did not compile: its notes say "Drop (General − Rigorous)" (U+2212), which
  pdflatex refuses; every non-ASCII character our notes use now becomes a command, and names
  from data compile whatever they hold;
- every table was far wider than a page (the drop table by 1384 pt: its Judge cell held the
  whole panel explanation); the tabular is now scaled to the line only when wider, long
  titles break, the Judge cell is the judge's id, its full text in the notes;
- a rigorous table marked "biased low" (†) a "–" cell, a group with no accuracy;
- the injection table's LaTeX seemed to drop each cell's n: it is where the Markdown puts
  it, by one rule (`judges.group_n`), which these tests hold;
- the Experiments preview said nothing of an API key variable unset in the server's
  environment (only Start refused), and `endpoint list` said "(set)" of the CLI's shell.
Real SQLite, real scoring and the real CLI; the compile test runs only where pdflatex is.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest

from judges.cells import LATIN_UNSET, latex_escape
from judges.latex_table import REQUIRES
from judges.tables import Column, Table
from scoring.score_run import score_run
from scoring.tables import drop_table, main_table
from scoring import biased
from tests.scoring_helpers import cli
from tests.test_panel_members import panel_run, servers  # noqa: F401 (fixtures)
from tests.test_review_exports import injected, notes_block  # noqa: F401 (fixture)
from tests.test_source_clues import server  # noqa: F401 (the fake server's fixture)

ROOT = Path(__file__).resolve().parents[1]


def settable(text: str) -> bool:
    """Every character of `text` one pdflatex sets with the REQUIRES preamble: ASCII, or a
    Latin-1 / Latin Extended-A character utf8 input knows."""
    return all(c.isascii() or ("\u00a0" <= c <= "\u017f" and c not in LATIN_UNSET)
               for c in text)


def tabular(latex: str) -> str:
    return latex[latex.index("\\begin{tabular}"):latex.index("\\end{adjustbox}")]


# -- 2. escaping ------------------------------------------------------------------------------

def test_every_character_of_our_own_texts_is_escaped_to_what_pdflatex_sets():
    found = {c for folder in ("scoring", "judges") for path in (ROOT / folder).glob("*.py")
             for c in path.read_text(encoding="utf-8") if not c.isascii()}
    assert "−" in found and "‡" in found
    for c in sorted(found):
        assert settable(latex_escape(c)), (c, unicodedata.name(c, "?"), latex_escape(c))
    assert latex_escape("Drop (General − Rigorous)") == "Drop (General $-$ Rigorous)"
    assert latex_escape("a ≥ b ≤ c × d → e ← f ± g ≈ h …") == (
        "a $\\geq$ b $\\leq$ c $\\times$ d $\\rightarrow$ e $\\leftarrow$ f $\\pm$ g "
        "$\\approx$ h \\ldots{}")
    assert latex_escape("“a” ‘b’ – — ‡ †") == "``a'' `b' -- --- \\ddag{} \\dag{}"


def test_names_from_data_keep_latin_letters_and_always_compile():
    assert latex_escape("Café Müller · Łódź") == "Café Müller · Łódź"      # utf8 input sets
    assert latex_escape("ｑｗｅｎ：ǎ") == "qwen:a"                            # plain forms
    assert latex_escape("αβ 通义") == "[U+03B1][U+03B2] [U+901A][U+4E49]"      # never dropped
    assert latex_escape("a\u200bb\nc_d") == "ab c\\_d"


def test_the_drop_tables_notes_are_escaped(store, injected):
    score_run(store, injected["nocue"], protocol="rigorous")
    code, latex, err = cli("table", "--db", store.path, "--kind", "drop", "--runs",
                           injected["nocue"], "--format", "latex")
    assert code == 0, err
    assert "Drop (General $-$ Rigorous)" in latex and settable(latex)
    assert latex.splitlines()[0] == REQUIRES
    for package in ("booktabs", "adjustbox", "[T1]{fontenc}", "[utf8]{inputenc}"):
        assert package in REQUIRES


# -- 3. width --------------------------------------------------------------------------------

def test_the_latex_judge_cell_is_the_judge_and_its_full_text_is_in_the_notes(store, panel_run):
    for table in (drop_table(store, ["r1"], judge="panel:j1+j2"),
                  main_table(store, ["r1"], judge="panel:j1+j2")):
        latex = table.to_latex()
        full = table.rows[0]["judge"]
        assert "answered" in full and "answered" not in tabular(latex)
        assert " & panel:j1+j2 \\\\" in tabular(latex)
        assert f"Judge in full: m $\\cdot$ CoT: {full}." in notes_block(latex) or \
            f"Judge in full: m · CoT: {full}." in notes_block(latex)
        assert "\\begin{adjustbox}{max width=\\linewidth}" in latex
        assert full in table.to_markdown()           # Markdown and the page keep it whole


def test_long_titles_break_and_keep_their_n_whole():
    table = Table([Column("model", "Model", numeric=False),
                   Column("g", "Location Identification"),
                   Column("u", "Unscored grounded-rigorous", digits=0, percent=False)],
                  [{"model": "m", "g": 50.0, "g_n": 12, "u": 1}])
    head = tabular(table.to_latex()).splitlines()[2]
    assert "\\begin{tabular}[b]{@{}r@{}}Location\\\\Identification\\\\(n 12)\\end{tabular}" \
        in head
    assert "Unscored\\\\grounded-rigorous" in head


# -- 4. no mark on a dash -----------------------------------------------------------------------

def test_a_biased_mark_is_never_on_a_cell_without_a_value():
    """The reviewer's rigorous table: a run biased low whose domain Daily Commonsense had
    every item unscored ("–", n 0) printed "--$^\\dagger$" there."""
    table = Table([Column("model", "Model", numeric=False), Column("overall", "Overall"),
                   Column("by_domain:Daily", "Daily Commonsense")],
                  [{"model": "m · CoT", "overall": 0.0, "overall_n": 3,
                    "by_domain:Daily": None, "by_domain:Daily_n": 0}])
    biased.mark_table(table, {"m · CoT": 11}, ["overall", "by_domain:Daily"], "rigorous")
    assert table.rows[0]["_flags"] == {"overall": "†"}
    assert "–†" not in table.to_markdown() and "--$^\\dagger$" not in table.to_latex()
    assert "0.00†" in table.to_markdown() and "0.00$^\\dagger$" in table.to_latex()
    # a mark left on an empty cell by any table is not printed either
    table = Table([Column("model", "Model", numeric=False), Column("a", "A")],
                  [{"model": "m", "a": None, "_flags": {"a": "†"}}])
    assert table.rendered(latex=True) == [["m", "--"]]
    assert table.rendered(latex=False) == [["m", "–"]]


# -- 1. n in LaTeX as in Markdown -------------------------------------------------------------

def n_and_changes(text: str) -> list[str]:
    return sorted(re.findall(r"\(n \d+\)|on this cell's items|on \d+ items both runs scored|"
                             r"vs [\d.]+ without clue, on (?:these|the) \d+ items"
                             r"(?: both runs scored)?", text))


def test_latex_says_every_n_and_change_the_markdown_says(store, injected):
    runs = f"{injected['nocue']},{injected['injected']}"
    for kind in ("injection", "main", "ablation"):
        out = {fmt: cli("table", "--db", store.path, "--kind", kind, "--runs", runs,
                        "--format", fmt)[1] for fmt in ("md", "latex")}
        table = {"md": "\n".join(line for line in out["md"].splitlines()
                                  if line.startswith("|")), "latex": tabular(out["latex"])}
        assert n_and_changes(table["md"]) == n_and_changes(table["latex"]), kind
    # cells that say their n (rows differ) say it in LaTeX too
    table = Table([Column("model", "Model", numeric=False), Column("a", "A")],
                  [{"model": "x", "a": 0.0, "a_n": 1, "a_delta": 0.0, "a_delta_n": 1,
                    "_baseline_n": 4}, {"model": "y", "a": 25.0, "a_n": 4}])
    # (the cell holds the change alone; on which items it is, the injection table's notes
    # say: a sentence in a subscript was no paper's cell, a review, round 28)
    assert table.rendered(latex=True)[0][1] == "0.00\\textsubscript{+0.00} (n 1)"
    assert table.rendered(latex=True)[1][1] == "25.00 (n 4)"


# -- every table compiles and fits ----------------------------------------------------------

@pytest.mark.skipif(not shutil.which("pdflatex"), reason="pdflatex is not installed")
def test_every_table_compiles_with_pdflatex_and_fits_the_page(store, injected, tmp_path):
    score_run(store, injected["nocue"], protocol="rigorous")
    runs = f"{injected['nocue']},{injected['injected']}"
    tables = {kind: cli("table", "--db", store.path, "--kind", kind, "--runs", runs,
                        "--format", "latex")[1] for kind in ("main", "injection", "ablation")}
    tables["drop"] = cli("table", "--db", store.path, "--kind", "drop", "--runs",
                         injected["nocue"], "--format", "latex")[1]
    wide = Table([Column("model", "Model", numeric=False)]
                 + [Column(f"c{k}", f"Some long group name {k}") for k in range(12)],
                 [{"model": "Café αβ 通义 − ≥ ‡", **{f"c{k}": 12.5 for k in range(12)}}],
                 caption="− ≥ ≤ × → ← ± ≈ … ‡ † · – — “ ” ‘ ’", notes="Drop (A − B) ≥ 0.")
    tables["wide"] = wide.to_latex()
    for name, latex in tables.items():
        preamble = latex.splitlines()[0].removeprefix("% requires ")
        (tmp_path / f"{name}.tex").write_text(
            f"\\documentclass{{article}}\n{preamble}\n\\begin{{document}}\n{latex}"
            "\\end{document}\n", encoding="utf-8")
        done = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error",
                               f"{name}.tex"], cwd=tmp_path, capture_output=True, text=True,
                              timeout=120)
        log = (tmp_path / f"{name}.log").read_text(encoding="latin-1")
        assert done.returncode == 0, (name, log[-2000:])
        assert "Overfull \\hbox" not in log, (name, latex)
