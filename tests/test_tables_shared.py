"""Tables across runs compare them on the items they share, say that n, refuse runs that
share none, and do not depend on the order of --runs. Pure pairing rules by hand, then the
real CLI over a real SQLite store with runs written through the store; every expected
number is computed by hand in the comments."""
import itertools
import json
import time

import pytest

from judges.pairing import PairingError, scored_items, shared_items, sharing_groups
from scoring import tables
from scoring.paired import compare_runs
from scoring.results import ResultsError
from scoring.score_run import score_run
from tests.scoring_helpers import add_items, cli, make_run

DEMO = [{"id": f"demo/{i}", "answer_type": "yes_no", "answer": "Yes", "domain": "Street",
         "subtask": "signs"} for i in range(4)]
MMR = [{"id": f"mmr/{i}", "answer_type": "yes_no", "answer": "Yes", "domain": "Home",
        "subtask": "rooms"} for i in range(10)]



def answers(right: list[str], wrong: list[str]) -> dict:
    return {**{i: "Yes." for i in right}, **{i: "No." for i in wrong}}


# -- the pairing rules, pure ----------------------------------------------------------------

def test_shared_items_by_hand():
    shared = shared_items({"b": {1, 2, 3}, "a": {2, 3, 4, 5}})
    assert shared.items == {2, 3} and shared.n == 2 and shared.partial
    assert shared.counts == (("a", 4), ("b", 3))                # sorted, not as given
    assert shared.note() == ("Runs compared on the 2 items both share; n = 2: the runs "
                             "overlap on 2 of 5 items, run b having the fewest (3) (a: 4, "
                             "b: 3 items; the rest left out).")
    same = shared_items({"a": {1, 2}, "b": {2, 1}})
    assert not same.partial and same.note() == "Runs compared on the 2 items both share."
    assert scored_items([{"item_id": 1, "value": "correct"},
                         {"item_id": 2, "value": "unscored"}]) == {1}


def test_runs_that_share_no_item_are_refused_naming_each_run_and_its_count():
    with pytest.raises(PairingError) as error:
        shared_items({"gt run": set(range(14)), "none run": set(range(100, 310))})
    message = str(error.value)
    assert "gt run (14 items)" in message and "none run (210 items)" in message
    assert "shared by all: 0" in message


def test_runs_are_grouped_so_that_no_run_narrows_the_others_n():
    # a cancelled run on 94 items beside two on 10 others: two groups, the larger first
    items = {"cancelled": set(range(100, 194)), "a": set(range(10)), "b": set(range(10))}
    assert sharing_groups(items, ["a", "b", "cancelled"]) == [["a", "b"], ["cancelled"]]
    # the rule was "the table keeps at least half of its first run's items": a run cancelled
    # halfway joined two finished runs and cut both to its 50 items. It has not all of
    # their items: a group of its own, and a and b stay compared on their 100
    items = {"a": set(range(100)), "b": set(range(100)), "half": set(range(50))}
    assert sharing_groups(items, ["a", "b", "half"]) == [["a", "b"], ["half"]]
    # c covers 94 of a's 100 items: it would narrow a and b to 94, so it does not join
    items = {"a": set(range(100)), "b": set(range(100)), "c": set(range(94))}
    assert sharing_groups(items, ["a", "b", "c"]) == [["a", "b"], ["c"]]
    # d has 4 of a's 100 items: a group of its own
    items = {"a": set(range(100)), "d": set(range(4))}
    assert sharing_groups(items, ["a", "d"]) == [["a"], ["d"]]
    # e overlaps a on 50 and f on fewer: each a group of its own (e joined a before, and
    # the table compared a on half its items)
    items = {"a": set(range(100)), "e": set(range(50, 150)), "f": set(range(80, 120))}
    assert sharing_groups(items, ["a", "e", "f"]) == [["a"], ["e"], ["f"]]
    # a run with every item of a group (more, even: an unfinished one taken after it)
    # joins it, on the group's items: it narrows nobody else's n
    items = {"a": set(range(10)), "more": set(range(12)), "g": set(range(3))}
    assert sharing_groups(items, ["a", "more", "g"]) == [["a", "more"], ["g"]]
    assert sharing_groups({}, []) == []


# -- the tables over a store ----------------------------------------------------------------

@pytest.fixture
def runs(store):
    """gt: clues gt on the 4 demo items, 3 right (75%). none-mmr: no clue on the 10 MMR items
    (disjoint from gt). none: no clue on demo/0, demo/1 and 6 MMR items; right on demo/0
    only of the demo items, and on all MMR items."""
    add_items(store, DEMO + MMR)
    demo, mmr = [i["id"] for i in DEMO], [i["id"] for i in MMR]
    make_run(store, "gt", answers(demo[:3], demo[3:]), clues="gt")
    make_run(store, "none-mmr", answers(mmr[:4], mmr[4:]))
    make_run(store, "none", answers(demo[:1] + mmr[:6], demo[1:2]))
    make_run(store, "direct", answers(demo[:2], demo[2:]), setting="direct")
    for run in ("gt", "none-mmr", "none", "direct"):
        score_run(store, run)
    return store


def test_injection_delta_is_computed_on_the_shared_items_and_says_n(runs):
    table = tables.injection_table(runs, ["gt", "none"])
    row = table.rows[0]
    # shared: demo/0, demo/1. gt right on both (100%), none right on demo/0 only (50%)
    assert row["solver"] == "m · CoT" and row["items"] == 2
    assert (row["GT_n"], row["No Clue_n"]) == (2, 2)      # scored items under each accuracy
    assert (row["GT_run_id"], row["No Clue_run_id"]) == ("gt", "none")
    assert row["GT"] == pytest.approx(100.0) and row["No Clue"] == pytest.approx(50.0)
    assert row["GT_delta"] == pytest.approx(50.0)
    assert "Runs compared on the 2 items both share" in table.notes
    assert "m · CoT · clues gt: 4" in table.notes and "m · CoT: 8" in table.notes


def test_injection_of_runs_on_different_items_is_refused(runs):
    with pytest.raises(ResultsError) as error:
        tables.injection_table(runs, ["gt", "none-mmr"])
    message = str(error.value)
    assert "m · CoT · clues gt (4 items)" in message and "m · CoT (10 items)" in message
    code, out, err = cli("table", "--db", runs.path, "--kind", "injection",
                         "--runs", "gt,none-mmr")
    assert code == 2 and out == "" and "share no item" in err and "(10 items)" in err


def test_of_two_runs_for_one_cell_the_newest_finished_is_shown_whatever_the_order(runs):
    """old and new are both m · CoT with No Clue on the demo items (before: refused, "a
    table cell shows one run"). old finished, new did not: old is shown; once new has
    finished too, the newer is."""
    demo = [i["id"] for i in DEMO]
    make_run(runs, "old", answers(demo, []))
    runs.finish_run("old", "test", "done", "", {})
    time.sleep(1.1)                       # runs are stamped to the second
    make_run(runs, "new", answers(demo[:1], demo[1:]))
    for run in ("old", "new"):
        score_run(runs, run)
    # (resfix17) the injection table keeps the run the rule picks in the solver's row and
    # gives the other a row of its own, labelled by its run: no run hidden
    for order in itertools.permutations(["gt", "old", "new"]):
        table = tables.injection_table(runs, list(order))
        rows = {row["solver"]: row for row in table.rows}
        # the kept run's row names it too (round 19: a plain 'm · CoT' beside 'm · CoT
        # [new]' left the reader to guess)
        assert rows["m · CoT [old]"]["No Clue_run_id"] == "old", list(rows)
        other = next(row for row in table.rows if row["No Clue_run_id"] == "new")
        assert other["solver"].startswith("m · CoT [new]"), other["solver"]
        assert ("m · CoT with clue source No Clue keeps m · CoT [old] (n 4); "
                "m · CoT [new] (n 4) in a row of its own (rows: 'm · CoT [old]'; "
                "'m · CoT [new]').") in table.notes
    runs.finish_run("new", "test", "done", "", {})
    table = tables.injection_table(runs, ["gt", "old", "new"])
    rows = {row["solver"]: row for row in table.rows}
    assert rows["m · CoT [new]"]["No Clue_run_id"] == "new"
    assert rows["m · CoT [old]"]["No Clue_run_id"] == "old"


@pytest.mark.parametrize("kind", ["main", "subtask", "drop", "injection", "ablation"])
def test_every_order_of_runs_prints_the_same_table(runs, kind):
    chosen = ["gt", "none", "direct"]
    outputs = set()
    for order in itertools.permutations(chosen):
        code, out, err = cli("table", "--db", runs.path, "--kind", kind, "--runs",
                             ",".join(order), "--format", "json")
        assert code == 0, err
        outputs.add(out)
    assert len(outputs) == 1
    assert json.loads(outputs.pop())["rows"]


def test_main_table_and_leaderboard_use_the_shared_items(runs):
    table = tables.main_table(runs, ["gt", "none", "direct"])
    overall = {row["model"]: (row["overall"], row["n"]) for row in table.rows}
    # shared by all three: demo/0, demo/1. gt 2/2, none 1/2, direct 2/2
    assert overall == {"m · CoT · clues gt": (100.0, 2), "m · CoT": (50.0, 2),
                       "m · No-CoT": (100.0, 2)}
    assert table.caption.endswith("n = 2: the runs overlap on 2 of 10 items, runs "
                                  "m · CoT · clues gt and m · No-CoT having the fewest (4)")
    code, out, _ = cli("leaderboard", "--db", runs.path, "--runs", "none,gt",
                       "--format", "md")
    assert code == 0 and "2 items" in out and "(m · CoT: 8, m · CoT · clues gt: 4" in out


def test_ablation_and_drop_compare_on_shared_items(runs):
    ablation = tables.ablation_table(runs, ["none", "direct", "gt"])
    # gt has clues: not an ablation run. none and direct share demo/0, demo/1
    [row] = ablation.rows
    assert {k: row[k] for k in ("model", "direct", "cot", "items")} == {
        "model": "m", "direct": 100.0, "cot": 50.0, "items": 2}
    assert "clue_guided" not in row     # no run has it: no empty column
    assert (row["direct_run_id"], row["cot_run_id"], row["direct_n"]) == ("direct", "none", 2)
    assert row["judge"] == "offline"
    drop = tables.drop_table(runs, ["none", "gt"])
    assert [(r["model"], r["general"]) for r in drop.rows] == [
        ("m · CoT", 50.0), ("m · CoT · clues gt", 100.0)]
    # scored under general alone: said (round 26: "both protocols scored" claimed more)
    assert drop.caption.endswith("on the 2 items the general protocol scored (the runs overlap"
                                 " on 2 of 10 items, run m · CoT · clues gt having the fewest "
                                 "(4)); no run has rigorous scores")


def test_paired_comparison_reports_accuracies_on_the_shared_items(runs):
    result = compare_runs(runs, "gt", "none")
    assert (result["n_items"], result["items_a"], result["items_b"]) == (2, 4, 8)
    assert result["accuracy_a"] == 1.0 and result["accuracy_b"] == 0.5
    with pytest.raises(ResultsError, match="share no item"):
        compare_runs(runs, "gt", "none-mmr")
    code, out, _ = cli("compare", "--db", runs.path, "gt", "none")
    assert code == 0 and "on the 2 items both scored (m · CoT · clues gt: 4, m · CoT: 8 scored)" in out
    code, out, err = cli("compare", "--db", runs.path, "gt", "none", "--protocol", "verbench")
    assert code == 2 and out == "" and "four sub-scores" in err and "--kind verbench" in err


def test_results_page_refuses_disjoint_runs_and_keeps_other_figures(runs):
    from ui import results_handlers as h

    with pytest.raises(h.ResultsUiError, match=r"share no item.*\(4 items\)"):
        h.show_results(runs, ["gt", "none-mmr"])
    # none and none-mmr share mmr/0..5 (none right on all 6, none-mmr on mmr/0..3): shown;
    # neither has injected clues, so the injection heatmap says why it is not drawn
    shown = h.show_results(runs, ["none-mmr", "none"])
    assert shown["caption"].endswith("n = 6: the runs overlap on 6 of 12 items, run "
                                     "m · CoT [none] having the fewest (8)")
    assert dict(zip(shown["table"]["Model"], shown["table"]["Overall"])) == {
        "m · CoT [none]": "100.00 [60.97, 100.00]",          # Wilson: honest at n 6
        "m · CoT [none-mmr]": "66.67 [30.00, 90.32]"}
    # the page's table marks the best as the downloads do (it marked nothing)
    styles = shown["marked"]._compute().ctx
    best = list(shown["table"]["Model"]).index("m · CoT [none]")
    overall = list(shown["table"].columns).index("Overall")
    assert ("font-weight", "700") in styles[(best, overall)]
    assert ("text-decoration", "underline") in styles[(1 - best, overall)]
    assert "Clue injection not shown: none of the runs has injected clues" \
        in shown["injection"]
    assert "rect class=\"bar\"" in shown["group_chart"]


# -- the injection table on the Results page is on the main table's items ----------------------

def heatmap_rows(html: str) -> dict:
    """{row name: [cell texts]} of a heatmap (each cell's value, without its n:
    `heatmap_ns`)."""
    import re

    return {name: re.findall(r'<td[^>]*>([^<]*)(?:<br><span class="cell-n">[^<]*</span>)?'
                             r"</td>", cells)
            for name, cells in re.findall(r"<tr><th>([^<]+)</th>(.*?)</tr>", html)}


def heatmap_ns(html: str) -> dict:
    """{row name: [each cell's n as written under its value, or None]} of a heatmap."""
    import re

    return {name: [found or None for found in re.findall(
                r'<td[^>]*>[^<]*(?:<br><span class="cell-n">([^<]*)</span>)?</td>', cells)]
            for name, cells in re.findall(r"<tr><th>([^<]+)</th>(.*?)</tr>", html)}


def test_results_page_injection_rows_are_on_the_main_tables_items(runs):
    from ui import results_handlers as h

    shown = h.show_results(runs, ["gt", "none", "direct"])
    # main: demo/0, demo/1 shared by all three; direct (m · No-CoT) right on both: 100%.
    # Before, the injection row of direct was on its own 4 demo items: 2/4 = 50% (n 4).
    assert dict(zip(shown["table"]["Model"], shown["table"]["n"]))["m · No-CoT"] == "2"
    rows = heatmap_rows(shown["injection"])
    # columns GT, No Clue. m · CoT: gt 2/2 = 100, none 1/2 = 50 (+50); m · No-CoT: 2/2
    assert rows == {"m · CoT (2 items)": ["100.00 (+50.00)", "50.00"],
                    "m · No-CoT (2 items)": ["–", "100.00"]}


def test_the_injection_heatmap_prints_each_number_as_its_table_does(runs):
    """The heatmap printed one decimal ("15.4 (-7.7)") beside the page's tables and every
    download printing two ("15.38 (-7.69)"), so the same accuracy read two ways: each cell
    is now its table's cell, value and change with the table's digits."""
    from scoring.page_tables import page_table
    from ui import results_handlers as h

    chosen = ["gt", "none", "direct"]
    shown = h.show_results(runs, chosen)
    table = page_table(runs, chosen, "injection", "general", h.reading(runs))
    frame = h.table_frame(table)
    sources = [k for k, c in enumerate(table.columns) if c.numeric and c.key != "items"]
    printed = {f"{row['solver']} ({row['items']} items)": [frame.iat[i, k] for k in sources]
               for i, row in enumerate(table.rows)}
    assert heatmap_rows(shown["injection"]) == printed
    assert printed["m · CoT (2 items)"] == ["100.00 (+50.00)", "50.00"]


def test_the_injection_heatmap_says_each_cells_n(runs):
    """Each row said its shared items, but not the n each cell rests on (a run's scored
    items there): every cell now says it under its value, as its table's `<source>_n`;
    the cell with no run says none."""
    from scoring.page_tables import page_table
    from ui import results_handlers as h

    chosen = ["gt", "none", "direct"]
    shown = h.show_results(runs, chosen)["injection"]
    table = page_table(runs, chosen, "injection", "general", h.reading(runs))
    sources = [c.key for c in table.columns if c.numeric and c.key != "items"]
    expected = {f"{row['solver']} ({row['items']} items)":
                [None if row.get(f"{s}_n") is None else f"n {row[f'{s}_n']}" for s in sources]
                for row in table.rows}
    assert heatmap_ns(shown) == expected
    assert expected["m · CoT (2 items)"] == ["n 2", "n 2"]
    assert expected["m · No-CoT (2 items)"] == [None, "n 2"]
    import html
    assert "each cell's n: the items its accuracy is over" in html.unescape(shown)


def test_the_results_pages_injection_download_holds_what_the_page_shows(runs):
    """The heatmap was on the main table's 2 items while its CSV download was on each row's
    own items (direct: 2/4, 50%, n 4): the file is the table the page draws."""
    import pandas as pd
    from ui import results_handlers as h

    path, _ = h.exported_tables(runs, ["gt", "none", "direct"], "general", "injection", "csv")
    frame = pd.read_csv(path, encoding="utf-8-sig")
    assert dict(zip(frame["solver"], frame["items"])) == {"m · CoT": 2, "m · No-CoT": 2}
    assert dict(zip(frame["solver"], frame["No Clue_pct"])) == {"m · CoT": 50.0,
                                                                "m · No-CoT": 100.0}


def test_cli_injection_table_is_the_pages(runs):
    """`table --kind injection` put each row on its own runs' items (direct alone: 2/4 = 50%,
    n 4) while the page compared every run on the items all share (2/2 = 100%, n 2): a CoT
    change's sign could differ between the two. One rule now: all runs on their shared items."""
    code, out, err = cli("table", "--db", runs.path, "--kind", "injection",
                         "--runs", "gt,none,direct", "--format", "json")
    assert code == 0, err
    table = json.loads(out)
    assert [(r["solver"], r["No Clue_pct"], r["items"]) for r in table["rows"]] == [
        ("m · CoT", 50.0, 2), ("m · No-CoT", 100.0, 2)]
    assert "ompared on the 2 items all 3 runs share" in table["notes"]
    assert "Rows are on different items" not in table["notes"]


def test_injection_table_is_not_shown_without_injected_clues(runs):
    from ui import results_handlers as h

    shown = h.show_results(runs, ["none", "direct"])
    assert shown["injection"].count("<p") == 1 and "Clue injection not shown: none of the " \
        "runs has injected clues" in shown["injection"]
    code, out, err = cli("table", "--db", runs.path, "--kind", "injection",
                         "--runs", "none,direct")
    assert code == 2 and out == "" and "none of the runs has injected clues" in err


# -- the ablation table names every run it leaves out --------------------------------------------

def test_ablation_has_a_structured_column_and_names_runs_left_out(runs):
    demo = [i["id"] for i in DEMO]
    make_run(runs, "structured", {i: '{"answer": "Yes"}' if i != "demo/1" else
                                  '{"answer": "No"}' for i in demo}, setting="structured")
    score_run(runs, "structured")
    table = tables.ablation_table(runs, ["none", "direct", "structured", "gt"])
    # shared by none, direct, structured: demo/0, demo/1. none 1/2, direct 2/2, structured
    # right on demo/0 only: 1/2
    assert [c.title for c in table.columns] == ["Model", "No-CoT", "CoT", "Structured",
                                                "Items", "Judge"]
    assert [{k: r[k] for k in ("model", "direct", "cot", "structured", "items")}
            for r in table.rows] == [{"model": "m", "direct": 100.0, "cot": 50.0,
                                      "structured": 50.0, "items": 2}]
    assert ("No run of this table has the setting Clue-guided CoT: its column is left "
            "out.") in table.notes
    assert table.left_out == "Left out: m · CoT · clues gt (injected clues)."  # under the table
    assert "  " not in table.notes          # the notes' sentences are joined by one space


# -- a run the judge named did not score is named under every kind of table --------------------

def judged_by_strict(store, run_ids):
    """A second judge, llm:strict, for these runs' general verdicts (wrong on everything)."""
    store.upsert_scores([{"run_id": rid, "protocol": "general", "judge": "llm:strict",
                          "work_id": r["work_id"], "value": "wrong", "answer": r["answer"]}
                         for rid in run_ids
                         for r in store.run_scores(rid, "general", "offline")])


@pytest.mark.parametrize("kind", ["main", "subtask", "drop", "injection", "ablation"])
def test_every_table_names_the_runs_the_judge_did_not_score_right_under_it(runs, kind):
    """`table --kind main --judge X` dropped the runs X had not scored without a word but one
    deep in the notes (drop, injection and ablation said nothing, or 'judge judge'): each
    kind names them on a line of its own right under the table, with the judge's name as the
    scores have it; JSON carries it as left_out, LaTeX on the first line under its tabular,
    CSV on stderr."""
    judged_by_strict(runs, ["gt", "none"])
    line = "m · No-CoT (no general scores by judge llm:strict)"   # (ablation: gt's too)
    code, out, err = cli("table", "--db", runs.path, "--kind", kind, "--runs",
                         "gt,none,direct", "--judge", "strict")
    assert code == 0, err
    below = out.split("\n\n")
    table_at = next(i for i, part in enumerate(below) if part.startswith("| "))
    under = below[table_at + 1]                          # the first line under the table
    assert under.startswith("Left out: ") and line in under and "\n" not in under
    assert "judge judge" not in out and out.count("m · No-CoT (no general") == 1
    code, out, err = cli("table", "--db", runs.path, "--kind", kind, "--runs",
                         "gt,none,direct", "--judge", "llm:strict", "--format", "json")
    assert code == 0 and line in json.loads(out)["left_out"]
    code, out, err = cli("table", "--db", runs.path, "--kind", kind, "--runs",
                         "gt,none,direct", "--judge", "llm:strict", "--format", "latex")
    under = out.split("{\\footnotesize\\raggedright\n")[1].splitlines()[0]   # printed, no comment
    assert under.startswith("Left out: ") and under.endswith("\\par") and line in under
    code, out, err = cli("table", "--db", runs.path, "--kind", kind, "--runs",
                         "gt,none,direct", "--judge", "llm:strict", "--format", "csv")
    assert code == 0 and "m · No-CoT" not in out and line in err


def test_the_results_page_names_the_runs_the_judge_did_not_score_first(runs):
    from ui import results_handlers as h

    judged_by_strict(runs, ["gt", "none"])
    shown = h.show_results(runs, ["gt", "none", "direct"], judge="llm:strict")
    first = shown["rules"].split("\n")[0]               # escaped Markdown
    assert first.startswith("**Left out") and "No\\-CoT \\(no general scores by judge " \
        "llm&#58;strict\\)" in first
    assert "Left out: m · No-CoT (no general scores by judge llm:strict)." in shown["drop_chart"]
    assert "Left out: m · No-CoT (no general scores by judge llm:strict)." in shown["injection"]
    path, remarks = h.exported_tables(runs, ["gt", "none", "direct"], "general", "main", "csv",
                                      judge="llm:strict")
    assert remarks == ["Left out: m · No-CoT (no general scores by judge llm:strict)."]


@pytest.mark.parametrize("kind", ["main", "drop", "injection"])
def test_every_results_download_is_the_table_the_page_shows(runs, kind):
    """The page's main table, drop chart and injection heatmap and their downloads are one
    function's tables (`page_table`): the same items, n and numbers, with the page's
    judge, breakdown and samples rule (the injection CSV once held 14 items beside a
    heatmap of 6)."""
    import re

    import pandas as pd
    from ui import results_handlers as h

    chosen = ["gt", "none", "direct"]
    shown = h.show_results(runs, chosen, judge="offline", by="subtask", samples_rule="first")
    path, _ = h.exported_tables(runs, chosen, "general", kind, "csv", judge="offline",
                                by="subtask", samples_rule="first")
    frame = pd.read_csv(path, encoding="utf-8-sig")
    if kind == "main":
        assert list(frame["n"].astype(str)) == list(shown["table"]["n"])
        assert [f"{v:.2f}" for v in frame["overall_pct"]] == \
            [cell.split(" ")[0] for cell in shown["table"]["Overall"]]
        assert [c for c in frame.columns if c.endswith("_pct") and ":" in c] == \
            ["by_subtask:signs_pct"]                                 # the page's breakdown
    elif kind == "drop":
        # every run on demo/0 and demo/1 (the items all share); general as the chart says
        bars = re.findall(r"([^>]*?) · general: ([0-9.]+)% of (\d+)", shown["drop_chart"])
        assert sorted((name.strip(), float(acc), int(n)) for name, acc, n in bars) == sorted(
            (name, round(acc, 1), n) for name, acc, n in
            zip(frame["run_label"], frame["general_pct"], frame["n"]))
    else:
        rows = heatmap_rows(shown["injection"])
        assert sorted(rows) == sorted(f"{s} ({n} items)" for s, n in
                                      zip(frame["solver"], frame["items"]))


def test_injection_and_ablation_tables_read_the_protocol_asked_for(runs):
    """They read general whatever --protocol said, under a caption naming none. Here every
    rigorous verdict is wrong (general: gt 100%, none 50% on the shared items)."""
    for run in ("gt", "none", "direct"):
        runs.upsert_scores([{"run_id": run, "protocol": "rigorous", "judge": "offline",
                             "work_id": r["work_id"], "value": "wrong", "answer": r["answer"]}
                            for r in runs.run_scores(run, "general", "offline")])
    shared = tables.injection_table(runs, ["gt", "none"], protocol="rigorous")
    assert "rigorous protocol" in shared.caption
    assert (shared.rows[0]["GT"], shared.rows[0]["No Clue"]) == (0, 0)
    general = tables.injection_table(runs, ["gt", "none"])
    assert "general protocol" in general.caption and general.rows[0]["GT"] == 100
    ablation = tables.ablation_table(runs, ["none", "direct"], protocol="rigorous")
    assert "rigorous protocol" in ablation.caption
    assert all(row[s] in (0, None) for row in ablation.rows for s in ("direct", "cot"))
    code, out, err = cli("table", "--db", runs.path, "--kind", "injection", "--runs", "gt,none",
                         "--protocol", "rigorous", "--format", "json")
    assert code == 0 and "rigorous protocol" in json.loads(out)["caption"], err
    with pytest.raises(ResultsError, match="four sub-scores"):
        tables.injection_table(runs, ["gt", "none"], protocol="verbench")


def test_a_run_no_injection_cell_shows_limits_the_page_the_download_and_table_alike(runs):
    """A cancelled CoT/GT run with 2 repeats on 3 of the 4 demo items (a row of its own now:
    its repeats make another solver) cut the page's items to 3 (its main
    table has it) while `table --kind injection` with the same runs used all 4: GT 75.00
    against 66.67 for one run. One computation now: every run on the 3 items all share, the
    note naming the rule, n and the run that limits it."""
    from ui import results_handlers as h

    demo = [i["id"] for i in DEMO]
    make_run(runs, "cut", {i: ["Yes.", "Yes."] for i in demo[:3]}, clues="gt", repeats=2)
    runs.finish_run("cut", "test", "cancelled", "cancelled by the user", {})
    make_run(runs, "all4", answers(demo[:1], demo[1:]))
    runs.finish_run("gt", "test", "done", "", {})
    for run in ("cut", "all4"):
        score_run(runs, run)
    chosen = ["gt", "all4", "cut"]
    # on demo/0-2: gt right on all 3 (100.00), all4 on demo/0 only (33.33), n 3
    code, out, err = cli("table", "--db", runs.path, "--kind", "injection",
                         "--runs", ",".join(chosen), "--format", "json")
    assert code == 0, err
    cli_table = json.loads(out)
    assert [(r["solver"], r["GT_pct"], r["No Clue_pct"], r["items"], r["GT_n"])
            for r in cli_table["rows"]] == [
        ("m · CoT", 100.0, 33.33, 3, 3),
        # its own row: a 2-repeat mean is no like-for-like change from a single draw
        ("m · CoT · 2 repeats (GT: cancelled, n 3)", 100.0, None, 3, 3)]
    path, _ = h.exported_tables(runs, chosen, "general", "injection", "json")
    page_file = json.loads(open(path, encoding="utf-8").read())
    assert (page_file["rows"], page_file["caption"]) == (cli_table["rows"], cli_table["caption"])
    shown = h.show_results(runs, chosen)["injection"]
    assert heatmap_rows(shown) == {
        "m · CoT (3 items)": ["100.00 (+66.67)", "33.33"],
        "m · CoT · 2 repeats (GT: cancelled, n 3) (3 items)": ["100.00", "–"]}
    for notes in (cli_table["notes"], __import__("html").unescape(shown)):
        assert "every run of the table, those no cell shows included, is compared" in notes
        assert "n = 3: run m · CoT · clues gt · 2 repeats (cancelled) covers 3 of 4 items" \
            in notes
    assert "Only the" not in shown
    code, md, _ = cli("table", "--db", runs.path, "--kind", "injection", "--runs",
                      ",".join(chosen))
    assert "| GT (n 3) |" in md and "n = 3: run m · CoT · clues gt · 2 repeats (cancelled)" \
        in md.splitlines()[0]


def test_a_run_that_stopped_is_said_to_cover_n_of_its_own_items(store):
    """`leaderboard` with two 14-item runs stopped after 4 answers and a cancelled run on 12
    said "runs A and B each cover 4 of 12 items": 12 was the cancelled run's coverage (the
    items any run has), not theirs. Each run's own items are said now."""
    ids = add_items(store, [{**MMR[0], "id": f"mmr/{i}"} for i in range(14)])
    make_run(store, "budget", answers(ids[:4], []), asked=14)
    make_run(store, "deadline", answers(ids[:4], []), setting="direct", asked=14)
    make_run(store, "cut", answers(ids[:12], []), clues="gt", asked=14)
    for run in ("budget", "deadline", "cut"):
        score_run(store, run)
    code, out, err = cli("leaderboard", "--db", store.path, "--runs", "budget,deadline,cut")
    assert code == 0, err
    assert ("n = 4: runs m · CoT and m · No-CoT each cover 4 of their 14 items"
            in out.splitlines()[0])
    shared = shared_items({"A": {1, 2}, "B": {1, 2}, "C": {1, 2, 3}}, asked={"A": 14, "B": 10})
    assert shared.limit() == "n = 2: run A covers 2 of its 14 items and run B 2 of its 10"
    shared = shared_items({"A": {1, 2}, "C": {1, 2, 3}}, asked={"C": 14})   # A's not known
    assert shared.limit() == "n = 2: run A covers 2 of 3 items"


def test_a_cancelled_runs_label_in_every_download_is_the_tables(runs):
    """The main, drop and injection CSVs gave a cancelled run's `run_label` (and
    `GT_run_label`) as "m · CoT · clues gt", the tables as "… (cancelled)": the label is
    now the table's."""
    import pandas as pd
    from ui import results_handlers as h

    runs.finish_run("gt", "test", "cancelled", "cancelled by the user", {})
    for run in ("rigorous", "grounded"):
        score_run(runs, "gt", protocol=run)
        score_run(runs, "none", protocol=run)
    label = "m · CoT · clues gt (cancelled)"
    for kind, column in (("main", "run_label"), ("drop", "run_label"),
                         ("injection", "GT_run_label")):
        path, _ = h.exported_tables(runs, ["gt", "none"], "general", kind, "csv")
        frame = pd.read_csv(path, encoding="utf-8-sig")
        assert label in set(frame[column]), (kind, list(frame[column]))
    shown = h.show_results(runs, ["gt", "none"])["table"]
    assert label in set(shown["Model"])
