"""Without a judge named, every row of a table is read with the same judge: the one all the
compared runs were scored with (a panel, then an LLM judge, then offline; by name among
equals, never by when they scored). Before, each run was read with its own latest scoring: one run by llm:judge-model,
the others offline, and best/second marked across them. When the runs have no judge in
common, each row says its judge and nothing is marked best. The same rule for the CLI's
leaderboard, table, report and compare and for the Results page and its downloads. Real
SQLite, real scoring, the real CLI."""
from __future__ import annotations

import html
import io
import json
import time
from pathlib import Path

import pandas as pd
import pytest

from scoring import tables
from scoring.results import preferred_judge
from scoring.score_run import score_run
from scoring.table_marks import JUDGES_DIFFER
from store import Store
from tests.scoring_helpers import add_items, cli, make_run
from ui import results_handlers as h

ITEMS = [{"id": f"demo/{i}", "answer_type": "multiple_choice", "answer": "A", "domain": "d",
          "subtask": "s"} for i in range(4)]
LLM = "llm:judge-model"


def llm_scores(store, run: str, value: str = "wrong") -> None:
    """The run scored by the LLM judge too, every verdict `value` (its latest scoring)."""
    store.upsert_scores([{"run_id": run, "protocol": "general", "judge": LLM,
                          "work_id": r["work_id"], "value": value, "answer": r["answer"]}
                         for r in store.run_scores(run, "general", "offline")])


@pytest.fixture
def store(tmp_path):
    """a: all 4 right offline, all wrong by the LLM judge (its latest scoring); b: 3 of 4
    right; c: 2 of 4 right; b and c scored offline only."""
    store = Store.open(tmp_path / "j.db")
    add_items(store, ITEMS)
    ids = [i["id"] for i in ITEMS]
    make_run(store, "a", {i: "Answer: A" for i in ids}, model="ma")
    make_run(store, "b", {i: "Answer: A" if i != "demo/3" else "Answer: B" for i in ids},
             model="mb")
    make_run(store, "c", {i: "Answer: A" if i < "demo/2" else "Answer: B" for i in ids},
             model="mc")
    for run in "abc":
        score_run(store, run)
    llm_scores(store, "a")
    yield store
    store.close()


def test_the_preferred_judge_is_a_panel_then_llm_then_offline_then_by_name():
    def scoring(judge, latest):
        return {"judge": judge, "latest": latest}

    later_offline = [scoring(LLM, "2026-01-01T00:00:00Z"),
                     scoring("offline", "2026-02-01T00:00:00Z")]
    assert preferred_judge(later_offline) == LLM          # not the offline re-scoring
    assert preferred_judge([scoring("llm:a", "2026-01-01T00:00:00Z"),
                            scoring("llm:b", "2026-03-01T00:00:00Z"),
                            scoring("offline", "2026-04-01T00:00:00Z")]) == "llm:a"
    assert preferred_judge([scoring("panel:llm:x+llm:y", "2026-01-01T00:00:00Z"),
                            scoring("llm:x", "2026-05-01T00:00:00Z")]) == "panel:llm:x+llm:y"
    assert preferred_judge([]) is None


def test_every_row_is_read_with_the_judge_all_runs_share(store):
    table = tables.main_table(store, ["a", "b", "c"])
    assert {r["run_id"]: (r["judge"], r["overall"]) for r in table.rows} == {
        "a": ("offline", 100.0), "b": ("offline", 75.0), "c": ("offline", 50.0)}
    assert JUDGES_DIFFER not in table.notes
    best = {table.rows[i]["run_id"] for (i, key), mark in table.marks().items()
            if key == "overall" and mark == "best"}
    assert best == {"a"}
    code, out, err = cli("leaderboard", "--db", store.path, "--format", "json")
    assert code == 0, err
    assert {r["run_id"]: r["judge"] for r in json.loads(out)["rows"]} == {
        "a": "offline", "b": "offline", "c": "offline"}
    code, out, err = cli("table", "--db", store.path, "--kind", "main", "--format", "csv")
    assert code == 0, err
    frame = pd.read_csv(io.StringIO(out))
    assert set(frame["judge"]) == {"offline"}
    code, out, err = cli("compare", "--db", store.path, "a", "b", "--json")
    assert code == 0, err
    assert (json.loads(out)["judge_a"], json.loads(out)["judge_b"]) == ("offline", "offline")


def test_when_every_run_has_the_llm_judge_it_is_the_one_read(store):
    for run in "bc":
        llm_scores(store, run, "correct")
    time.sleep(1.1)                # scorings are stamped to the second
    score_run(store, "b")          # a later offline re-scoring of b does not change that
    table = tables.main_table(store, ["a", "b", "c"])
    assert {r["run_id"]: (r["judge"], r["overall"]) for r in table.rows} == {
        "a": (LLM, 0.0), "b": (LLM, 100.0), "c": (LLM, 100.0)}
    code, out, err = cli("report", "--db", store.path, "--run", "b")
    assert code == 0 and f"judge {LLM}" in out, err


def test_without_a_common_judge_each_row_says_its_own_and_none_is_marked_best(store):
    store.delete_scores("a", "general", "offline")          # a: the LLM judge only
    table = tables.main_table(store, ["a", "b", "c"])
    assert {r["run_id"]: r["judge"] for r in table.rows} == {
        "a": LLM, "b": "offline", "c": "offline"}
    assert table.marks() == {} and JUDGES_DIFFER in table.notes
    assert "Bold: the highest" not in table.notes              # the marking rule is not said
    markdown = table.to_markdown()
    assert "**" not in markdown.split("\n\n")[1] and "<u>" not in markdown
    code, out, err = cli("leaderboard", "--db", store.path)
    assert code == 0, err
    body = [line for line in out.splitlines() if line.startswith("| ")]
    assert not any("**" in line or "<u>" in line for line in body[1:])
    assert "no best or second is marked" in out and "in name order, not ranked" in out
    # a: 0.00 by its LLM judge, b 75.00 and c 50.00 offline: not sorted as if comparable
    assert [line.split(" | ")[0] for line in body[1:]] == ["| ma · CoT", "| mb · CoT",
                                                           "| mc · CoT"]
    code, out, err = cli("compare", "--db", store.path, "a", "b")
    assert code == 0 and f"judge {LLM}" in out and "no judge scored both runs" in err
    shown = h.show_results(store, ["a", "b", "c"])
    assert not any(shown["marked"]._compute().ctx.values())   # the page's table marks none
    assert "no best or second is marked" in html.unescape(shown["rules"])
    path = Path(h.export_table(store, ["a", "b", "c"], "general", "main", "md"))
    assert "**" not in path.read_text().split("\n\n")[1]


def test_the_results_page_reads_every_run_with_the_common_judge(store):
    assert h.shown_judge_choices(store, ["a", "b"])[0] == h.COMMON_JUDGE
    shown = h.show_results(store, ["a", "b", "c"], "general", h.COMMON_JUDGE)
    assert list(shown["table"]["Judge"]) == ["offline"] * 3
    assert dict(zip(shown["table"]["Model"], shown["table"]["Overall"]))["ma · CoT"] \
        .startswith("100.00")
    styles = shown["marked"]._compute().ctx
    assert any(("font-weight", "700") in style for style in styles.values())
    for kind in ("main", "leaderboard"):
        path = Path(h.export_table(store, ["a", "b", "c"], "general", kind, "json",
                                   h.COMMON_JUDGE))
        assert {r["judge"] for r in json.loads(path.read_text())["rows"]} == {"offline"}


def test_a_common_judge_that_failed_on_every_item_is_passed_over_for_one_that_scored_them(
        store):
    """The LLM judge scored every run last, but its replies were all unreadable (every
    verdict unscored): read by it, "(common judge)" showed a table with nothing scored. The
    default is the judge that scored the shared items, and the notes say which and why."""
    for run in "abc":
        llm_scores(store, run, "unscored")
    table = tables.main_table(store, ["a", "b", "c"])
    assert {r["run_id"]: (r["judge"], r["overall"]) for r in table.rows} == {
        "a": ("offline", 100.0), "b": ("offline", 75.0), "c": ("offline", 50.0)}
    assert ("No judge chosen: read with offline, of the judges every run was scored with the "
            "one that scored the most responses on the 4 items the runs share (offline 12, "
            f"{LLM} 0), not {LLM}") in table.notes
    shown = h.show_results(store, ["a", "b", "c"], "general", h.COMMON_JUDGE)
    assert list(shown["table"]["Judge"]) == ["offline"] * 3
    assert "read with offline" in html.unescape(shown["rules"])
    code, out, err = cli("compare", "--db", store.path, "a", "b", "--json")
    assert code == 0 and json.loads(out)["judge_a"] == "offline", err


def test_the_verbench_table_says_which_judge_reads_it_and_why(store):
    """A review: `table --kind verbench` read the runs with llm:j1 and passed over llm:j2,
    whose every VER-Bench reply was unreadable, without a word (the main table says it)."""
    grades = {"AC": 8, "CC": 6, "RQ": 4, "ER": 10}
    for run in "ab":
        rows = store.run_scores(run, "general", "offline")
        store.upsert_scores(
            [{"run_id": run, "protocol": "verbench", "judge": "llm:j1", "work_id": r["work_id"],
              "value": "correct", "answer": r["answer"], "details": {"subscores": grades}}
             for r in rows] +
            [{"run_id": run, "protocol": "verbench", "judge": "llm:j2", "work_id": r["work_id"],
              "value": "unscored", "answer": r["answer"],
              "details": {"judge_failed": "unreadable"}} for r in rows])
    table = tables.verbench_results(store, ["a", "b"])
    assert "No judge chosen: read with llm:j1" in table.notes
    assert "(llm:j1 8, llm:j2 0)" in table.notes
