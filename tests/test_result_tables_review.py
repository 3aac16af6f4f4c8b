"""A context-free researcher's review of the result tables (injection, ablation, drop,
leaderboard, the exports' file names and the Results page's notes). Real SQLite store, runs
written through the store as the engine writes them, the real CLI and the page's handlers.
"""
import json

from scoring.score_run import score_run
from tests.scoring_helpers import add_items, cli, make_run

ITEMS = [{"id": f"demo/{i}", "answer_type": "yes_no", "answer": "Yes", "domain": "Street",
          "subtask": "signs"} for i in range(4)]
YES = {i["id"]: "Answer: Yes" for i in ITEMS}


def scored(store, *run_ids, protocol="general"):
    for rid in run_ids:
        score_run(store, rid, protocol=protocol)


def test_two_clue_sources_by_one_model_have_a_column_each(store):
    """Run x injected the clues of s1 (cot-vlm, Structured), run y those of s2 (cot-vlm,
    Clue-guided CoT): both were shown under one column "cot-vlm clues", a column mixing two
    clue sources (a ‡ footnote alone named them, and only for sources lacking a clue)."""
    add_items(store, ITEMS)
    make_run(store, "s1", YES, model="cot-vlm", setting="structured")
    make_run(store, "s2", YES, model="cot-vlm", setting="clue_guided")
    make_run(store, "base", YES, model="m", setting="cot")
    make_run(store, "x", YES, model="m", setting="cot", clues="run:s1")
    make_run(store, "y", YES, model="m", setting="cot", clues="run:s2")
    scored(store, "s1", "s2", "base", "x", "y")
    code, out, err = cli("table", "--db", store.path, "--kind", "injection",
                         "--runs", "base,x,y", "--format", "json")
    assert code == 0, err
    [row] = json.loads(out)["rows"]
    assert row["clues of cot-vlm · Structured_run_id"] == "x"
    assert row["clues of cot-vlm · Clue-guided CoT_run_id"] == "y"
    assert "Several runs fit one cell" not in out        # neither source's run is hidden


def answers(right: int) -> dict:
    """Replies to ITEMS, the first `right` of them correct."""
    return {item["id"]: "Answer: Yes" if k < right else "Answer: No"
            for k, item in enumerate(ITEMS)}


def test_the_ablation_notes_name_no_made_up_model(store):
    """The notes said "('alpha-vlm · 3 samples' is a row of its own)", a model in none of the
    user's runs; now they say the rule without a name, or name a row of the table."""
    add_items(store, ITEMS)
    make_run(store, "a", answers(2), model="a-vlm")
    make_run(store, "a3", {i["id"]: ["Answer: Yes"] * 3 for i in ITEMS}, model="a-vlm",
             samples=3)
    scored(store, "a", "a3")
    for runs, example in (("a", None), ("a,a3", "a-vlm · 3 samples")):
        for fmt in ("md", "latex"):
            code, out, err = cli("table", "--db", store.path, "--kind", "ablation",
                                 "--runs", runs, "--format", fmt)
            assert code == 0, err
            assert "alpha-vlm" not in out
            assert "make a row of their own" in out
            assert (f"'{example}' here" in out) if example else " here)" not in out


def test_the_ablation_table_marks_a_best_as_the_main_table_does(store):
    """A CoT column of 25.00 / 50.00 / 50.00 (n 4 each) marked nothing, where the main table
    bolded the same numbers. Now the ties share the bold and 25.00 is underlined, as in the
    main table, and a failed run's cell is never marked (a column whose cells differ in n
    marks none: `Table.unequal_n`, tests/test_marks_equal_n.py, on each cell's n)."""
    from scoring.tables import ablation_table, main_table

    add_items(store, ITEMS)
    for model, right in (("a", 1), ("b", 2), ("c", 2)):
        make_run(store, model, answers(right), model=f"{model}-vlm")
    make_run(store, "a-direct", answers(3), model="a-vlm", setting="direct")
    make_run(store, "c-direct", answers(2), model="c-vlm", setting="direct")
    make_run(store, "b-direct", answers(4), model="b-vlm", setting="direct")
    store.finish_run("b-direct", "test", "failed", "the model server went away", {})
    runs = ["a", "b", "c", "a-direct", "b-direct", "c-direct"]
    scored(store, *runs)
    table = ablation_table(store, runs)
    marks = {(table.rows[i]["model"].split(" (")[0], key): mark
             for (i, key), mark in table.marks().items()}
    assert marks == {("a-vlm", "cot"): "second", ("b-vlm", "cot"): "best",
                     ("c-vlm", "cot"): "best", ("a-vlm", "direct"): "best",
                     ("c-vlm", "direct"): "second"}            # b's failed 100.00: none
    out = table.to_markdown()
    assert out.count("**50.00**") == 2 and "<u>25.00</u>" in out and "Bold: the highest" in out
    assert "**100.00**" not in out and "\\textbf{75.00}" in table.to_latex()
    main = main_table(store, ["a", "b", "c"])
    assert {main.rows[i]["model"]: m for (i, k), m in main.marks().items() if k == "overall"} \
        == {"b-vlm · CoT": "best", "c-vlm · CoT": "best", "a-vlm · CoT": "second"}
    assert all(row["cot_n"] == 4 for row in table.rows)    # what `Table.unequal_n` reads


def test_an_export_file_name_counts_the_runs_its_table_shows(store):
    """'cluelab-leaderboard-general-demo-5-runs-….tex' held a 3-run table: two of the five
    scored runs have no general scores and the leaderboard leaves them out. The name
    counted the runs asked for (here every scored run); now it counts those in the table."""
    from pathlib import Path

    from ui import results_handlers as h

    add_items(store, ITEMS)
    for run in ("a", "b", "c", "d", "e"):
        make_run(store, run, answers(2), model=f"{run}-vlm")
    scored(store, "a", "b", "c")
    scored(store, "d", "e", protocol="rigorous")
    path = Path(h.export_table(store, [], "general", "leaderboard", "latex"))
    assert "-3-runs-" in path.name and "-5-runs-" not in path.name
    text = path.read_text()
    assert "Left out:" in text and "d-vlm" in text          # said under the table
    path = Path(h.export_table(store, ["a", "d"], "general", "main", "md"))
    assert "-a-" in path.name and "runs" not in path.name    # the one run it shows
    injected = make_run(store, "x", answers(3), model="a-vlm", clues="run:b")
    scored(store, injected)
    path = Path(h.export_table(store, ["a", "x", "d"], "general", "injection", "csv"))
    assert "-2-runs-" in path.name                            # the cells' runs


def test_each_drop_row_names_its_own_protocols_and_why_grounded_is_na(store):
    """The drop table's CSV: a No-CoT row scored under general only had an empty
    `grounded_not_applicable` (direct asks for no boxes; only the CoT row said so) and
    `protocol` "general, rigorous, grounded" though it has no rigorous score. Its notes sent
    it to be scored under grounded too, which would still show "–"."""
    import csv
    import io

    add_items(store, [{**item, "clues": [{"text": "a sign", "reasoning": "it says so",
                                          "boxes": []}]} for item in ITEMS])
    make_run(store, "st", YES, setting="structured", model="s")
    make_run(store, "co", YES, setting="cot", model="c")
    make_run(store, "di", YES, setting="direct", model="d")
    scored(store, "st", "co", "di")
    scored(store, "st", "co", protocol="all")
    code, out, err = cli("table", "--db", store.path, "--kind", "drop", "--format", "csv")
    assert code == 0, err
    rows = {r["run_id"]: r for r in csv.DictReader(io.StringIO(out.lstrip("\ufeff")))}
    assert rows["di"]["protocol"] == "general"
    assert "setting direct asks for no boxes" in rows["di"]["grounded_not_applicable"]
    assert rows["co"]["protocol"] == "general, rigorous"         # its grounded is n/a
    assert "setting cot asks for no boxes" in rows["co"]["grounded_not_applicable"]
    assert (rows["st"]["protocol"], rows["st"]["grounded_not_applicable"]) == (
        "general, rigorous, grounded", "")
    code, out, err = cli("table", "--db", store.path, "--kind", "drop")
    assert "d · No-CoT has no rigorous scores (scored under general only): its Rigorous " \
           "and Drop cells are –" in out


def test_a_failed_runs_note_says_what_it_has_not_run_or_errors(store):
    """A leaderboard row of a run that ended "failed" (its model server killed during a
    resume: error 0, the rest not run) carried "its errors count as wrong answers"."""
    from tests.scoring_helpers import NOT_RUN

    add_items(store, ITEMS)
    make_run(store, "good", answers(2), model="g")
    make_run(store, "died", {**{i["id"]: NOT_RUN for i in ITEMS}, "demo/0": "Answer: Yes"},
             model="k")
    store.finish_run("died", "test", "failed", "cannot connect to the endpoint",
                     {"answer_total": 4, "total": 4, "ok": 1, "error": 0})
    make_run(store, "broke", {**answers(1), "demo/1": None, "demo/2": None}, model="b")
    store.finish_run("broke", "test", "failed", "too many errors", {})
    scored(store, "good", "died", "broke")
    code, out, err = cli("leaderboard", "--db", store.path, "--runs", "good,died,broke")
    assert code == 0, err
    assert "k · CoT (failed): its 3 answers not run are outside its numbers" in out
    assert "k · CoT (failed): its" in out and "k · CoT (failed): its 0 errors" not in out
    assert "b · CoT (failed): its 2 errors count as wrong answers" in out
    assert "errors count as wrong answers and it is never marked best" not in out


def test_the_note_under_the_pages_chart_speaks_of_its_bars(store):
    """The Results page's note under the General-vs-rigorous chart said "their Rigorous, Drop
    and Grounded-rigorous cells are –", cells the page never shows (the drop table exists only
    as a download). It speaks of the chart's bars now; the table's own notes of its cells."""
    import html
    import re

    from scoring.tables import drop_table
    from ui import results_handlers as h

    add_items(store, [{**item, "clues": [{"text": "a sign", "reasoning": "", "boxes": []}]}
                      for item in ITEMS])
    make_run(store, "st", YES, setting="structured", model="s")
    make_run(store, "bare", YES, setting="structured", model="b")
    scored(store, "st", protocol="all")
    scored(store, "bare")
    chart = h.show_results(store, ["st", "bare"])["drop_chart"]
    notes = " ".join(html.unescape(n) for n in
                     re.findall(r'<p class="cluelab-chart-note">(.*?)</p>', chart))
    assert "cells are –" not in notes and "Drop" not in notes          # no Drop bar either
    assert ('b · Structured has no rigorous or grounded scores (scored under general only): '
            'its Rigorous and Grounded-rigorous bars read "not scored"') in notes
    assert "its Rigorous, Drop and Grounded-rigorous cells are –" in \
        drop_table(store, ["st", "bare"]).notes                       # the table's notes
