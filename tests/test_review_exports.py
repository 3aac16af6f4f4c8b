"""What a researcher read wrong in the exports and messages (a context-free review):

- the LaTeX of a table kept its notes as `%` comments (or dropped them): a compiled injection
  table said "14 items" over cells of n 13 and 12, with a ‡ nobody explained; the CSV did not
  say which protocol its numbers are under;
- `compare` named the runs by their ids in its counts, where every table names them by label;
- `score` said "9 failed (8 replies unreadable …)", the 9th failure's reason unsaid;
- the plan warned that items a clue source has no clues for "are recorded as errors", while
  the run counts them apart, as "no source clue".
Real SQLite, the fake OpenAI server, real scoring and the real CLI.
"""
from __future__ import annotations

import io
import json

import pandas as pd
import pytest

from judges.latex_table import REQUIRES
from judges.tables import Column, Table
from runner.config import Execution, RunConfig
from runner.engine import execute
from runner.planning import create_run, plan_run
from runner.totals import counts_text as run_counts_text, status_counts
from scoring.judge_client import JudgeClient, counts_text
from scoring.score_run import score_run
from tests.scoring_helpers import add_items, cli, make_run
from tests.test_source_clues import CLUED, server  # noqa: F401 (the fake server's fixture)


def launch(store, ids, **config):
    """(the plan's warnings, the run's outcome) of a run of the fake endpoint."""
    plan = plan_run(store, RunConfig(endpoint="fake", ids=ids, **config),
                    Execution(retry_base_delay=0.05, batch_interval=0.1))
    return plan.warnings, execute(store, create_run(store, plan), items=plan.items)


@pytest.fixture
def injected(store, server, make_item):
    """Four items; a structured source run listing clues for three of them; a No Clue run
    and a run injecting the source's clues (one item not asked), all scored offline."""
    store.add_endpoint("fake", server.url, "fake-vlm", concurrency=4)
    items = [make_item(f"demo/Q_{i}") for i in range(4)]
    for item in items:
        store.create_item(item, "t")
    ids = [item["id"] for item in items]
    server.configure(reset=True, replies={f"demo/Q_{i}": CLUED for i in range(3)},
                     default_reply="Answer: B")
    _, source = launch(store, ids, setting="structured")
    server.configure(replies={"1. snow on the roof": "Answer: A"}, default_reply="Answer: B")
    _, nocue = launch(store, ids, setting="cot")
    warnings, outcome = launch(store, ids, setting="cot", clues=f"run:{source.run_id}")
    for run in (source, nocue, outcome):
        score_run(store, run.run_id, protocol="general")
    return {"ids": ids, "source": source.run_id, "nocue": nocue.run_id,
            "injected": outcome.run_id, "warnings": warnings}


def notes_block(latex: str) -> str:
    """What a compiled table prints under its tabular: the paragraph inside the float."""
    assert latex.index("\\end{tabular}") < latex.index("\\par\\smallskip") < \
        latex.index("\\end{table}")
    return latex[latex.index("\\par\\smallskip"):latex.index("\\end{table}")]


def test_latex_prints_the_notes_and_mark_footnotes_under_the_table(store, injected):
    code, latex, err = cli("table", "--db", store.path, "--kind", "injection", "--runs",
                           f"{injected['nocue']},{injected['injected']}", "--format", "latex")
    assert code == 0, err
    block = notes_block(latex)
    assert "{\\footnotesize" in block
    # the mark in the cell and the footnote explaining it, visibly, alike
    assert "$^\\ddagger$\\textsubscript" in latex
    assert "$^\\ddagger$ No source clue:" in block and "not counted as errors" in block
    # why the caption's items and the cells' n differ, and the items compared
    assert "A cell's accuracy is over its run's scored items (n)" in block
    assert "Runs compared on the 4 items both share" in block
    assert "\\texttt{table}" in block                  # `table` typeset, not two left quotes
    # no note is a comment only
    assert [line for line in latex.splitlines() if line.startswith("%")] == [REQUIRES]


def test_latex_says_what_was_left_out_and_escapes_the_notes():
    table = Table([Column("model", "Model", numeric=False), Column("overall", "Overall")],
                  [{"model": "a_b", "overall": 50.0, "_flags": {"overall": "†"}}],
                  caption="c", notes="n = 2 & 100% sure. † Biased low for a_b.",
                  left_out="Not in the table: run x_y (no general scores).",
                  footnotes=["† Biased low for a_b."])
    block = notes_block(table.to_latex())
    assert "Not in the table: run x\\_y (no general scores).\\par" in block
    assert "$^\\dagger$ Biased low for a\\_b.\\par" in block
    assert "n = 2 \\& 100\\% sure.\\par" in block       # the footnote said once, apart
    assert block.count("Biased low") == 1


def test_csv_and_json_say_the_protocol(store, injected):
    runs = f"{injected['nocue']},{injected['injected']}"
    code, out, err = cli("table", "--db", store.path, "--kind", "injection", "--runs", runs,
                         "--format", "csv")
    assert code == 0, err
    frame = pd.read_csv(io.StringIO(out))
    assert list(frame["protocol"]) == ["general"] and list(frame["judge"]) == ["offline"]
    code, out, err = cli("leaderboard", "--db", store.path, "--runs", runs, "--format", "csv")
    frame = pd.read_csv(io.StringIO(out))
    assert code == 0 and set(frame["protocol"]) == {"general"} and len(frame) == 2
    code, out, err = cli("table", "--db", store.path, "--kind", "injection", "--runs", runs,
                         "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["protocol"] == "general"
    assert {row["protocol"] for row in data["rows"]} == {"general"}
    assert data["footnotes"] and data["footnotes"][0].startswith("‡ No source clue")
    assert "Runs compared on the 4 items both share" in data["notes"]
    score_run(store, injected["nocue"], protocol="rigorous")
    code, out, err = cli("table", "--db", store.path, "--kind", "drop", "--runs",
                         injected["nocue"], "--format", "csv")
    assert code == 0, err
    assert list(pd.read_csv(io.StringIO(out))["protocol"]) == ["general, rigorous"]


def test_the_plan_warning_says_what_happens_to_items_without_a_source_clue(store, injected):
    [warning] = [w for w in injected["warnings"] if "has no clues" in w]
    assert "1 of these 4 items" in warning and "recorded as errors" not in warning
    assert 'counted apart from the errors as "no source clue"' in warning
    assert "unscored in every table" in warning
    run = store.get_run(injected["injected"])
    counts = status_counts(run["totals"], store.run_work_counts(run["id"]), run["status"])
    assert (counts["error"], counts["no_source_clue"]) == (0, 1)
    assert "no source clue 1" in run_counts_text(counts)


def test_the_gt_warning_still_says_errors_and_they_are(store, server, injected, make_item):
    bare = make_item("demo/bare", n_clues=0)
    store.create_item(bare, "t")
    warnings, outcome = launch(store, [injected["ids"][0], bare["id"]], setting="cot",
                               clues="gt")
    assert any("1 items have no GT clues: they are recorded as errors" in w for w in warnings)
    run = store.get_run(outcome.run_id)
    counts = status_counts(run["totals"], store.run_work_counts(run["id"]), run["status"])
    assert (counts["error"], counts.get("no_source_clue", 0)) == (1, 0)


ITEMS = [{"id": f"demo/{i}", "answer_type": "multiple_choice", "answer": "A", "domain": "d",
          "subtask": "s"} for i in range(4)]


def test_compare_names_the_runs_by_their_labels_in_its_counts(store):
    add_items(store, ITEMS)
    a, b, c = "20261206-163526-2016", "20261206-163947-ea7a", "20261206-170000-0c0c"
    make_run(store, a, {i["id"]: "Answer: A" for i in ITEMS}, setting="direct")
    make_run(store, b, {i["id"]: "Answer: A" for i in ITEMS[:3]})
    make_run(store, c, {i["id"]: "Answer: B" for i in ITEMS[:3]})
    for run in (a, b, c):
        score_run(store, run)
    code, out, err = cli("compare", "--db", store.path, a, b)
    assert code == 0, err
    headline = out.splitlines()[0]
    assert "(m · No-CoT: 4, m · CoT: 3 scored)" in headline
    assert headline.count(a) == 1 and headline.count(b) == 1    # once, beside the label
    code, out, err = cli("compare", "--db", store.path, b, c)   # one label: ids keep them apart
    headline = out.splitlines()[0]
    # the labels tell them apart by short id (resfix24b), the whole id once beside each
    assert code == 0 and "(m · CoT [ea7a]: 3, m · CoT [0c0c]: 3 scored)" in headline
    assert f'A "m · CoT [ea7a]" [{b}]: ' in headline and headline.count(b) == 1


def test_every_failed_judge_request_is_counted_by_its_reason(store, server):
    store.add_endpoint("judge", server.url, "gpt-4o-mini", concurrency=1)
    server.configure(reset=True, script=["400"], replies={"bad": "no idea"},
                     default_reply="fine")
    client = JudgeClient(store, "judge", retry_base_delay=0.01)
    client.ask_many(["one", "two bad", "three bad", "four"],
                    readable=lambda prompt, reply: reply == "fine")
    counts = client.counts()
    assert counts["failed"] == 3 == counts["unreadable"] + sum(counts["failures"].values())
    assert counts["failures"] == {"HTTP 400": 1} and counts["answered"] == 1
    text = counts_text(counts)
    assert "4 requests: 1 answered, 0 from the cache, 3 failed (2 replies unreadable, " \
        "1 HTTP 400: unscored, not cached, so the next scoring asks again)" in text
    assert server.url not in text
    # the review's counters: the 9th failure (a timeout) is said
    assert counts_text({"judge": "llm:judge-b", "requests": 23, "answered": 14, "cached": 0,
                        "failed": 9, "unreadable": 8, "failures": {"timed out": 1}}) == (
        "llm:judge-b: 23 requests: 14 answered, 0 from the cache, 9 failed (8 replies "
        "unreadable, 1 timed out: unscored, not cached, so the next scoring asks again)")
