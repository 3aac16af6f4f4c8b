"""One rule picks the judge a run is read with when none is named: the judge that scored the
most responses under the protocol shown (`scoring.results.common_judge`), the order of
preference (a panel, an LLM judge, offline, by name) only among equals. Runs scored rigorous
by llm:jgood (readable) and llm:jbad (every reply unreadable, so every verdict unscored):
`report` read them with llm:jbad (0.00% on n 7, 7 unscored) while `table` and `compare` read
them with llm:jgood, and Inspect opened on llm:jbad. Real SQLite and the real CLI."""
from __future__ import annotations

import html
import json

import pytest

from scoring.results import run_judges
from scoring.score_run import score_run
from store import Store
from tests.scoring_helpers import add_items, cli, make_run
from ui import inspect_browser as ib
from ui import results_handlers as h

ITEMS = [{"id": f"demo/{i}", "answer_type": "multiple_choice", "answer": "A", "domain": "d",
          "subtask": "s"} for i in range(7)]
GOOD, BAD = "llm:jgood", "llm:jbad"


@pytest.fixture
def store(tmp_path):
    store = Store.open(tmp_path / "j.db")
    add_items(store, ITEMS)
    ids = [i["id"] for i in ITEMS]
    for run, model in (("a", "ma"), ("b", "mb")):
        make_run(store, run, {i: "Answer: A" for i in ids}, model=model)
        score_run(store, run)
        rows = store.run_scores(run, "general", "offline")
        store.upsert_scores(
            [{"run_id": run, "protocol": "rigorous", "judge": GOOD, "work_id": r["work_id"],
              "answer": r["answer"], "value": "correct" if n % 2 else "wrong"}
             for n, r in enumerate(rows)] +
            [{"run_id": run, "protocol": "rigorous", "judge": BAD, "work_id": r["work_id"],
              "answer": r["answer"], "value": "unscored",
              "details": {"judge_failed": "unreadable"}} for r in rows])
    yield store
    store.close()


def rigorous_as_general(store) -> None:
    """The rigorous verdicts written as general ones too (the leaderboard reads general)."""
    for run in "ab":
        store.upsert_scores([{**r, "protocol": "general", "judge": judge,
                              "details": {"judge_failed": "unreadable"}
                              if r["value"] == "unscored" else {}}
                             for judge in (GOOD, BAD) for r in
                             [{"run_id": run, "work_id": s["work_id"], "answer": s["answer"],
                               "value": s["value"]}
                              for s in store.run_scores(run, "rigorous", judge)]])


def test_every_caller_reads_the_runs_with_the_judge_that_scored_them(store):
    db = store.path
    code, out, err = cli("report", "--db", db, "--run", "a", "--protocol", "rigorous")
    assert code == 0, err
    assert f"judge {GOOD}" in out and f"judge {BAD}" not in out
    code, out, err = cli("table", "--db", db, "--kind", "main", "--protocol", "rigorous",
                         "--format", "json")
    assert code == 0, err
    assert {r["judge"] for r in json.loads(out)["rows"]} == {GOOD}
    code, out, err = cli("compare", "--db", db, "a", "b", "--protocol", "rigorous", "--json")
    assert code == 0, err
    assert (json.loads(out)["judge_a"], json.loads(out)["judge_b"]) == (GOOD, GOOD)
    assert run_judges(store, "a", "rigorous")[0] == GOOD
    assert h.shown_judge_choices(store, ["a"], "rigorous")[1] == GOOD
    shown = h.show_results(store, ["a", "b"], "rigorous", h.COMMON_JUDGE)
    assert set(shown["table"]["Judge"]) == {GOOD}
    assert GOOD in html.unescape(shown["rules"])


def test_the_leaderboard_reads_them_with_it_too(store):
    rigorous_as_general(store)
    code, out, err = cli("leaderboard", "--db", store.path, "--format", "json")
    assert code == 0, err
    assert {r["judge"] for r in json.loads(out)["rows"]} == {GOOD}
    code, out, err = cli("report", "--db", store.path, "--run", "a")
    assert code == 0 and f"judge {GOOD}" in out, err


def test_inspect_opens_on_it_when_the_runs_were_scored_rigorous_only(store):
    for run in "ab":
        store.delete_scores(run, "general", "offline")
    for run in ("a", None):                       # one run, and (all runs)
        judges = ib.judge_choices(store, run)
        assert BAD in judges and ib.default_judge(store, run, judges) == GOOD
