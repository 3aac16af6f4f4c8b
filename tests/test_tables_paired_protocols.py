"""General vs rigorous (and any figure that subtracts two accuracies) on the items both
scored, with that n and each side's unscored count. Real SQLite, real scoring, the real CLI.

The run: 14 items, general 10 of 14 correct; rigorous 8 correct, 1 unparsed, 3 wrong and 2
unscored (items without GT clues). Rigorous is 8/12; on those 12 items general is 8/12 too,
so the drop is 0.00 (it once printed 66.67 beside n 14, and a drop of 10/14 - 8/12 = 4.76).
"""
from __future__ import annotations

import io

import pandas as pd
import pytest

from judges.stats import wilson_ci
from scoring.score_run import score_run
from store import Store
from tests.scoring_helpers import add_items, cli, make_run

CLUE = [{"text": "a red sign above the door", "reasoning": "", "boxes": []}]


def _items() -> list[dict]:
    items = [{"id": f"demo/{i:02}", "answer_type": "multiple_choice", "answer": "A",
              "domain": "d", "subtask": "s", "clues": CLUE} for i in range(12)]
    items += [{"id": f"demo/{i:02}", "answer_type": "multiple_choice", "answer": "A",
               "domain": "d", "subtask": "s", "clues": []} for i in (12, 13)]
    return items


def _replies() -> dict:
    replies = {f"demo/{i:02}": "Clue 1: a red sign above the door\nAnswer: A" for i in range(8)}
    replies["demo/08"] = "I cannot tell."                       # unparsed
    replies.update({f"demo/{i:02}": "Answer: B" for i in (9, 10, 11)})   # wrong
    replies.update({f"demo/{i:02}": "Answer: A" for i in (12, 13)})      # no GT clue: unscored
    return replies


@pytest.fixture
def run(tmp_path):
    store = Store.open(tmp_path / "paired.db")
    add_items(store, _items())
    make_run(store, "r", _replies())
    score_run(store, "r", protocol="all")
    yield store
    store.close()


def test_the_drop_is_on_the_items_both_protocols_scored(run):
    code, out, err = cli("table", "--db", run.path, "--kind", "drop", "--format", "csv",
                         "--runs", "r")
    assert code == 0, err
    [row] = pd.read_csv(io.StringIO(out)).to_dict("records")
    assert (row["general_pct"], row["rigorous_pct"], row["drop_pct"]) == (66.67, 66.67, 0.0)
    assert row["n"] == 12
    assert (row["unscored_general"], row["unscored_rigorous"]) == (0, 2)
    low, high = wilson_ci(8, 12)
    assert row["rigorous_pct_ci_low"] == round(low * 100, 2)
    assert row["general_pct_ci_high"] == round(high * 100, 2)
    code, out, err = cli("table", "--db", run.path, "--kind", "drop", "--runs", "r")
    # grounded does not apply (a CoT run asked for no boxes): the title says two protocols
    assert ("on the 12 items both protocols scored (of 14 items); grounded-rigorous n/a: no "
            "run asked for boxes") in out and "all three" not in out
    assert "Unscored rigorous" in out


def test_a_drop_between_accuracies_on_different_items_is_refused():
    from judges.paper_tables import rigorous_drop_table
    from judges.stats import Accuracy

    with pytest.raises(ValueError, match="different items"):
        rigorous_drop_table({"r": Accuracy(14, 10, 0, 0, 0, 10 / 14)},
                            {"r": Accuracy(12, 8, 1, 0, 2, 8 / 12)})


def test_results_page_drop_chart_states_the_paired_n(run):
    from ui import results_handlers as h

    shown = h.show_results(run, ["r"], "general")
    chart = shown["drop_chart"]
    assert ("on the 12 items both protocols scored (of 14 items); grounded-rigorous n/a"
            in chart) and "all three" not in chart
    assert ">67<" in chart and ">71<" not in chart and ">58<" not in chart
    assert "general: 66.7% of 12" in chart


def test_a_clue_injection_change_is_on_the_items_both_runs_scored(tmp_path):
    """gt: 4 of 4 yes/no right, its open answer unscored (offline cannot decide it): 100%
    of 4. none: 2 of 4 yes/no right and the open answer exactly the gold: 3 of 5, 60%. On
    the 4 items both scored none is 2 of 4: the change is +50, not 100 - 60 = +40."""
    store = Store.open(tmp_path / "inj.db")
    yes_no = [{"id": f"demo/{i}", "answer_type": "yes_no", "answer": "Yes", "domain": "d",
               "subtask": "s"} for i in range(4)]
    add_items(store, yes_no + [{"id": "demo/open", "answer_type": "open",
                                "answer": "a red kite", "domain": "d", "subtask": "s"}])
    make_run(store, "gt", {**{i["id"]: "Yes." for i in yes_no}, "demo/open": "Answer: kite"},
             clues="gt")
    make_run(store, "none", {"demo/0": "Yes.", "demo/1": "Yes.", "demo/2": "No.",
                             "demo/3": "No.", "demo/open": "Answer: a red kite"})
    for run in ("gt", "none"):
        score_run(store, run)
    code, out, err = cli("table", "--db", store.path, "--kind", "injection", "--format",
                         "json", "--runs", "gt,none")
    assert code == 0, err
    import json
    [row] = json.loads(out)["rows"]
    assert (row["GT_pct"], row["No Clue_pct"]) == (100.0, 60.0)
    assert (row["GT_pct_delta"], row["GT_delta_n"]) == (50.0, 4)
    assert (row["GT_n"], row["No Clue_n"]) == (4, 5)
    code, out, err = cli("table", "--db", store.path, "--kind", "injection", "--runs",
                         "gt,none")
    assert "100.00 (+50.00)" in out      # GT (n 4), No Clue (n 5): on which items, in the notes
    assert "GT: +50.00 vs 50.00 without clue, on these 4 items" in out
    from scoring import figures, tables
    heatmap = figures.injection_heatmap(tables.injection_table(store, ["gt", "none"]))
    assert "100.00 (+50.00)" in heatmap  # as the table prints it; on which items on hover
    assert 'title="+50.00 vs 50.00 without clue, on these 4 items"' in heatmap
    store.close()


def test_judge_agreement_is_on_the_items_the_table_compares(run):
    """A run scored by two judges on 14 items beside a run covering 5 of them: the table is
    on those 5, and so is the agreement line (it once said 'agree on 100.0% of 14')."""
    from tests.openai_server import start_server
    from ui import results_handlers as h

    make_run(run, "subset5", {f"demo/{i:02}": "Answer: A" for i in range(5)},
             setting="direct")
    score_run(run, "subset5")
    with start_server() as server:
        run.add_endpoint("judge", server.url, "gpt-4o-mini")
        score_run(run, "r", protocol="general", judges=["judge"])
    shown = h.show_results(run, ["r", "subset5"], "general", "offline")
    assert "n = 5: run m · No-CoT covers 5 of 14 items" in shown["caption"]
    # multiple-choice answers are decided by rule: the LLM judge was never asked, so no
    # agreement is claimed (it said 'judge vs offline agree on 100.0% of 5', and before the
    # table's items were its basis, 'of 14'): it says rules decided them all
    assert "agree on" not in shown["rules"]
    assert "rules decided all responses" in shown["rules"] and "(5 responses)" in \
        shown["rules"]
    from scoring.judge_agreement import agreement
    pair, = agreement(run, "r", "general", shown_items := {f"demo/{i:02}" for i in range(5)})
    assert pair["n"] == 0 and pair["agreement"] is None and len(shown_items) == 5
