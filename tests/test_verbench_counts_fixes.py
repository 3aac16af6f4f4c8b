"""VER-Bench's counts on real runs scored through the real judge path (a real store, the fake
OpenAI server in its own process as the judge, the real CLI):

- a run of several samples and repeats: its table read "Unparsed 14" for 14 items of which 8
  had no answer read (the samples' vote of VER-Bench verdicts, which keep no answer, was "no
  answer" for every item); a single-draw run of the same replies read 8;
- an answer the rules read as wrong (a letter, yes/no) was "correct" when the judge gave it
  AC >= 5, and its AC counted: it is wrong, AC 0, as an unparsed reply is unparsed, AC 0.
"""
from __future__ import annotations

import csv
import io
import json

import pytest

from tests.openai_server import start_server
from tests.scoring_helpers import add_items, cli, make_run

MC = "multiple_choice"
GRADES = '{"AC": 8, "CC": 6, "RQ": 4, "ER": 10}'


@pytest.fixture(scope="module")
def judge():
    with start_server(replies={"AC (answer correctness)": GRADES}) as handle:
        yield handle


def _table(store, run_id: str, fmt: str) -> str:
    code, out, err = cli("table", "--db", store.path, "--kind", "verbench", "--runs", run_id,
                         "--format", fmt)
    assert code == 0, err
    return out


def _markdown_row(out: str) -> dict:
    lines = [line for line in out.splitlines() if line.startswith("|")]
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    return dict(zip(head, (c.strip() for c in lines[2].strip("|").split("|"))))


@pytest.mark.parametrize("samples, repeats", [(3, 2), (1, 1)])
def test_the_unparsed_count_is_the_items_with_no_answer_read_whatever_the_draws(
        store, judge, samples, repeats):
    items = [{"id": f"v/{i}", "answer_type": MC, "answer": "A", "domain": "D",
              "subtask": "s"} for i in range(14)]
    add_items(store, items)
    replies = {f"v/{i}": "I cannot tell from the picture." if i < 8 else "Answer: A"
               for i in range(14)}
    make_run(store, "r1", replies, samples=samples, repeats=repeats)
    store.add_endpoint("vb", judge.url, "gpt-4o-mini")
    code, out, err = cli("score", "--db", store.path, "--run", "r1", "--judge", "vb",
                         "--protocol", "verbench")
    assert code == 0, err
    draws = samples * repeats
    assert (f"{14 * draws} responses: correct {6 * draws}, wrong 0, unparsed {8 * draws}, "
            "error 0, unscored 0") in out
    row = _markdown_row(_table(store, "r1", "md"))
    assert (row["n"], row["Unparsed"], row["Unscored"]) == ("14", "8", "0")
    assert row["AC"] == "34.3"                  # 6 items of AC 8, 8 of AC 0: 48 / 14
    [csv_row] = list(csv.DictReader(io.StringIO(_table(store, "r1", "csv"))))
    assert {k.lower(): v for k, v in csv_row.items()}["unparsed"] == "8"
    latex = [line for line in _table(store, "r1", "latex").splitlines() if "&" in line]
    assert [c.strip(" \\") for c in latex[-1].split("&")][-3:-1] == ["8", "0"]
    [json_row] = json.loads(_table(store, "r1", "json"))["rows"]
    assert json_row["unparsed"] == 8 and json_row["n"] == 14


RULED = [{"id": "w/mc", "answer_type": MC, "answer": "A", "domain": "D", "subtask": "s"},
         {"id": "w/yn", "answer_type": "yes_no", "answer": "Yes", "domain": "D", "subtask": "s"},
         {"id": "w/ok", "answer_type": MC, "answer": "A", "domain": "D", "subtask": "s"},
         {"id": "w/open", "answer_type": "open", "answer": "Paris", "domain": "D",
          "subtask": "s"}]
RULED_REPLIES = {"w/mc": "The sign is French.\nAnswer: B", "w/yn": "Answer: No",
                 "w/ok": "Answer: A", "w/open": "Answer: the French capital"}


def test_an_answer_the_rules_read_wrong_is_wrong_with_ac_zero_whatever_the_judge_gave(
        store, judge):
    add_items(store, RULED)
    make_run(store, "r1", RULED_REPLIES)
    store.add_endpoint("vb", judge.url, "gpt-4o-mini")
    code, out, err = cli("score", "--db", store.path, "--run", "r1", "--judge", "vb",
                         "--protocol", "verbench")
    assert code == 0, err
    assert "4 responses: correct 2, wrong 2, unparsed 0, error 0, unscored 0" in out
    rows = {r["item_id"]: r for r in store.run_scores("r1", "verbench", "llm:vb", full=True)}
    for wrong, rule in (("w/mc", "rule:multiple_choice"), ("w/yn", "rule:yes_no")):
        assert rows[wrong]["value"] == "wrong"
        assert rows[wrong]["subscores"] == {"AC": 0, "CC": 6, "RQ": 4, "ER": 10}
        assert rows[wrong]["rationale"].startswith(
            f"wrong: the rules read the answer as wrong ({rule}:")
        assert "AC counts 0 whatever the judge gave (it gave 8)" in rows[wrong]["rationale"]
        assert rows[wrong]["decided_by"] == rule       # not the judge's own (agreement)
    # the answers the rules read right or left to the judge keep the judge's AC
    assert rows["w/ok"]["value"] == rows["w/open"]["value"] == "correct"
    assert rows["w/open"]["subscores"]["AC"] == 8
    row = _markdown_row(_table(store, "r1", "md"))
    assert (row["AC"], row["n"], row["Unparsed"]) == ("40.0", "4", "0")   # (8 + 8) / 4


def test_a_panel_says_the_rule_decided_an_answer_read_wrong(store, judge):
    add_items(store, RULED[:1])
    make_run(store, "r1", {"w/mc": "Answer: B"})
    store.add_endpoint("j1", judge.url, "gpt-4o-mini")
    store.add_endpoint("j2", judge.url, "fake-vlm")
    code, out, err = cli("score", "--db", store.path, "--run", "r1", "--judge", "j1",
                         "--judge", "j2", "--protocol", "verbench")
    assert code == 0, err
    [row] = store.run_scores("r1", "verbench", "panel:j1+j2", full=True)
    assert row["value"] == "wrong" and row["subscores"]["AC"] == 0
    assert row["rationale"].startswith("wrong: decided by the rule rule:multiple_choice")
