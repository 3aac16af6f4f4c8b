"""Tables: the same rows in CSV, JSON, Markdown and LaTeX; bold best, underlined second."""
import csv
import io
import json

from judges.stats import Accuracy, summarise
from judges.paper_tables import clue_injection_table, leaderboard, results_table, \
    rigorous_drop_table, verbench_table
from judges.tables import MARK_RULE, Column, Table, latex_escape


def _runs():
    def records(correct_a, correct_b):
        return ([{"value": "correct" if i < correct_a else "wrong", "domain": "Location"}
                 for i in range(10)]
                + [{"value": "correct" if i < correct_b else "wrong", "domain": "Spatial"}
                   for i in range(10)])
    return {"Gemini_2.5 & Pro": summarise(records(8, 6), groups=("domain",)),
            "Qwen2.5-VL-72B": summarise(records(4, 9), groups=("domain",)),
            "Claude-3.7": summarise(records(6, 6), groups=("domain",)),
            "Human Baseline": summarise(records(10, 10), groups=("domain",))}


def _latex_cells(latex: str, name: str) -> list[str]:
    row = next(line for line in latex.splitlines() if line.startswith(name))
    return row.removesuffix(" \\\\").split(" & ")[1:]   # Overall, n, Location, Spatial


def test_latex_marks_best_bold_and_second_underlined_per_column():
    table = results_table(_runs(), caption="DailyClue 100% test", unranked={"Human Baseline"})
    latex = table.to_latex()
    assert "\\toprule" in latex and "\\midrule" in latex and "\\bottomrule" in latex
    assert "\\caption{DailyClue 100\\% test}" in latex
    # Overall: Gemini 70, Qwen 65, Claude 60; Location: 80, 40, 60; Spatial: 60, 90, 60 (tie)
    assert _latex_cells(latex, "Gemini\\_2.5 \\& Pro") == [
        "\\textbf{70.00}", "20", "\\textbf{80.00}", "\\underline{60.00}"]
    assert _latex_cells(latex, "Qwen2.5-VL-72B") == [
        "\\underline{65.00}", "20", "40.00", "\\textbf{90.00}"]
    assert _latex_cells(latex, "Claude-3.7") == [
        "60.00", "20", "\\underline{60.00}", "\\underline{60.00}"]
    assert _latex_cells(latex, "Human Baseline") == ["100.00", "20", "100.00", "100.00"]


def test_latex_escapes_special_characters():
    assert latex_escape("a_b & c%d $e #f {g} ~h ^i \\j") == (
        "a\\_b \\& c\\%d \\$e \\#f \\{g\\} \\textasciitilde{}h \\textasciicircum{}i "
        "\\textbackslash{}j")


def test_csv_json_and_markdown_say_the_same():
    table = results_table(_runs(), show_ci=True, unranked={"Human Baseline"})
    rows = list(csv.DictReader(io.StringIO(table.to_csv())))
    # percentages are named so, in CSV and JSON alike (#12: fraction vs percent)
    assert rows[0]["model"] == "Gemini_2.5 & Pro" and float(rows[0]["overall_pct"]) == 70.0
    assert "overall_pct_ci_low" in rows[0] and "by_domain:Location_pct" in rows[0]
    assert rows[0]["by_domain:Location_n"] == "10" and rows[0]["n"] == "20"
    data = json.loads(table.to_json())
    assert data["rows"][1]["model"] == "Qwen2.5-VL-72B" and data["rows"][1]["n"] == 20
    markdown = table.to_markdown()
    assert "| **70.00 [" in markdown and "<u>65.00 [" in markdown
    assert markdown.splitlines()[1].startswith("|:---|---:")


def test_clue_injection_table_has_deltas_against_no_clue():
    cells = {("Qwen", "Qwen"): 40.09, ("Qwen", "GT Clue"): 51.50, ("Qwen", "No Clue"): 40.84,
             ("Claude", "Qwen"): 42.49, ("Claude", "GT Clue"): 56.00, ("Claude", "No Clue"): 41.14}
    table = clue_injection_table(cells)
    assert [c.key for c in table.columns] == ["solver", "Qwen", "GT Clue", "No Clue"]
    assert round(table.rows[0]["Qwen_delta"], 2) == -0.75
    assert "40.09 (\u22120.75)" in table.to_markdown()
    assert "56.00\\textsubscript{+14.86}" in table.to_latex()


def test_rigorous_drop_verbench_and_leaderboard():
    general = {"A": Accuracy(100, 50, 0, 0, 0, 0.50), "B": Accuracy(100, 40, 0, 0, 0, 0.40)}
    rigorous = {"A": Accuracy(100, 48, 0, 0, 0, 0.48), "B": Accuracy(100, 35, 0, 0, 0, 0.35)}
    drop = rigorous_drop_table(general, rigorous)
    assert [round(r["drop"], 2) for r in drop.rows] == [2.0, 5.0]
    assert "\\textbf{2.00}" not in drop.to_latex()    # the drop is not marked (DROP_NOTE)
    assert "\\textbf{50.00}" in drop.to_latex() and "\\underline{40.00}" in drop.to_latex()
    vb = verbench_table({"m1": {"AC": 61.8, "CC": 38.2, "RQ": 45.6, "ER": 90.1,
                                "average": 58.9, "n": 374}})
    assert "61.8" in vb.to_markdown() and "Average Accuracy" in vb.to_latex()
    board = leaderboard(_runs())
    assert [r["model"] for r in board.rows][:2] == ["Human Baseline", "Gemini_2.5 & Pro"]


def test_ties_share_the_mark_and_missing_values_print_a_dash():
    table = Table([Column("m", "Model", numeric=False), Column("x", "X")],
                  [{"m": "a", "x": 0.5}, {"m": "b", "x": 0.5}, {"m": "c", "x": 0.1},
                   {"m": "d", "x": None}])
    latex = table.to_latex()
    assert latex.count("\\textbf{0.50}") == 2 and "\\underline{0.10}" in latex
    assert "d & --" in latex and "| d | – |" in table.to_markdown()


def test_zero_is_never_marked_best_nor_second():
    """Three runs at 50, 0 and 0: 50 is best, neither 0.00 is underlined "second best"; in
    LaTeX, Markdown and the marks the Results page reads."""
    table = Table([Column("m", "Model", numeric=False), Column("x", "X")],
                  [{"m": "a", "x": 50.0}, {"m": "b", "x": 0.0}, {"m": "c", "x": 0.0}])
    assert table.marks() == {(0, "x"): "best"}
    assert "\\underline{0.00}" not in table.to_latex() and "<u>0.00" not in table.to_markdown()
    assert "0.00 is never marked" in MARK_RULE


def test_markdown_shows_names_from_items_and_models_as_text():
    from judges.tables import Column, Table
    table = Table(columns=[Column("model", "model", numeric=False),
                           Column("d", "geo | <img src=x> [a](b)")],
                  rows=[{"model": "m|<form>*x*", "d": 50.0}], caption="on `x` | y")
    lines = table.to_markdown().splitlines()
    head, body = lines[2], lines[4]
    assert head.count(" | ") == body.count(" | ") == 1     # one border, no extra column
    assert "<img" not in head and "&lt;img src=x&gt;" in head and "\\[a\\](b)" in head
    assert "<form>" not in body and "\\*x\\*" in body


def test_a_column_of_equal_values_marks_no_best():
    zero = summarise([{"value": "wrong", "domain": "D"}] * 3, groups=("domain",))
    table = results_table({"a": zero, "b": zero, "c": summarise(
        [{"value": "wrong", "domain": "D"}] * 3, groups=("domain",))})
    assert table.marks() == {} and "**" not in table.to_markdown()
    tied = results_table({"a": summarise([{"value": "correct", "domain": "D"}]),
                          "b": summarise([{"value": "correct", "domain": "D"}]),
                          "c": summarise([{"value": "wrong", "domain": "D"}])},
                         group="by_domain")
    assert {k for k, v in tied.marks().items() if v == "best"} == {(0, "overall"), (1, "overall"),
                                                                  (0, "by_domain:D"),
                                                                  (1, "by_domain:D")}


def test_exports_round_to_the_printed_digits_and_groups_state_their_n():
    runs = {"a": summarise([{"value": "correct" if i % 3 == 0 else "wrong", "domain": "D"}
                            for i in range(3)] + [{"value": "correct", "domain": "E"}],
                           groups=("domain",))}
    table = results_table(runs, show_ci=True)
    row = json.loads(table.to_json())["rows"][0]
    assert row["by_domain:D_pct"] == 33.33 and row["overall_pct_ci_low"] == round(
        row["overall_pct_ci_low"], 2)
    assert (row["by_domain:D_n"], row["by_domain:E_n"]) == (3, 1)
    head = table.to_markdown().splitlines()[0]
    assert "| D (n 3) | E (n 1) |" in head


def test_no_number_is_printed_as_minus_zero():
    """A change of -0.001 points (or a difference of two equal accuracies computed as
    -1e-15) printed "-0.00" in the tables and "(-0.00)" in the injection heatmap: a zero
    reads 0.00, a zero change +0.00, everywhere the number is printed."""
    from scoring import figures

    table = Table([Column("model", "Model", numeric=False), Column("drop", "Drop"),
                   Column("GT", "GT")],
                  [{"model": "m", "drop": -1e-15, "GT": 50.0, "GT_delta": -0.001}])
    assert Table.delta_text(table.rows[0], "GT") == "+0.00"
    assert "| m | 0.00 | 50.00 (+0.00) |" in table.to_markdown()
    assert "-0.0" not in table.to_csv() + table.to_json() + table.to_latex()
    heatmap = figures.heatmap_html(["m"], ["GT"], [[-0.001]], deltas=[[-0.004]])
    assert ">0.00 (+0.00)</td>" in heatmap and "-0.00" not in heatmap


def test_a_run_whose_every_answer_failed_marks_no_best():
    """Its general and rigorous are 0 (every call an error), so its "drop" of 0 would be the
    smallest; it is printed, never marked best, in the drop table and in the results table."""
    general = {"A": Accuracy(100, 50, 0, 0, 0, 0.50), "B": Accuracy(100, 40, 0, 0, 0, 0.40),
               "failed": Accuracy(14, 0, 0, 14, 0, 0.0)}
    rigorous = {"A": Accuracy(100, 48, 0, 0, 0, 0.48), "B": Accuracy(100, 35, 0, 0, 0, 0.35),
                "failed": Accuracy(14, 0, 0, 14, 0, 0.0)}
    drop = rigorous_drop_table(general, rigorous)
    assert [round(r["drop"], 2) for r in drop.rows] == [2.0, 5.0, 0.0]
    marks = drop.marks()
    assert marks[(0, "general")] == "best" and not [i for i, _ in marks if i == 2]
    assert "\\textbf{0.00}" not in drop.to_latex()
    nothing = {"overall": Accuracy(0, 0, 0, 0, 3, None)}
    runs = {"A": {"overall": general["A"]}, "B": {"overall": general["B"]},
            "failed": {"overall": general["failed"]}, "unscored": nothing}
    table = results_table(runs)
    assert {i for i, _ in table.marks()} == {0, 1}
