"""`report --json` had no judge agreement, which the Results page and `report`'s own lines
show: a script reading the JSON could not tell two judges disagreed. It has it now
("judge_agreement"), the same numbers as the page's lines, both from
`scoring.judge_agreement.agreement_figures`. Real SQLite, real scoring, the real CLI."""
from __future__ import annotations

import html
import json

import pytest

from scoring.score_run import score_run
from store import Store
from tests.scoring_helpers import add_items, cli, judge_says, make_run
from ui import results_handlers as h

ITEMS = [{"id": f"demo/{i}", "answer_type": "multiple_choice", "answer": "A", "domain": "d",
          "subtask": "s"} for i in range(4)]
LLM = "llm:judge-model"


@pytest.fixture
def store(tmp_path):
    """Run a: all 4 right offline; the LLM judge (its own verdicts) says one is wrong."""
    store = Store.open(tmp_path / "a.db")
    add_items(store, ITEMS)
    make_run(store, "a", {i["id"]: "Answer: A" for i in ITEMS})
    score_run(store, "a")
    judge_says(store, "a", LLM, lambda item: "wrong" if item == "demo/0" else "correct")
    yield store
    store.close()


def test_report_json_gives_the_judge_agreement_the_page_shows(store):
    code, out, err = cli("report", "--db", store.path, "--run", "a", "--json")
    assert code == 0, err
    [pair] = json.loads(out)["judge_agreement"]
    assert {k: pair[k] for k in ("a", "b", "n", "agreed", "agreement_pct", "not_applicable")} \
        == {"a": LLM, "b": "offline", "n": 4, "agreed": 3, "agreement_pct": 75.0,
            "not_applicable": ""}
    assert pair["basis"] == "responses both judges scored" and pair["responses"] == 4
    page = html.unescape(h.show_results(store, ["a"])["rules"]).replace("\\", "")
    # 4 responses: no kappa, the reason said in words where one was ('–', or 1.00 on n 2)
    assert pair["kappa"] is None and pair["kappa_note"].startswith(
        "no Cohen's kappa on 4 responses, which needs at least 10")
    kappa = pair["kappa_note"]
    assert (f"{LLM} vs offline agree on {pair['agreed']} of {pair['n']} {pair['basis']} "
            f"({pair['agreement_pct']:.2f}%; {kappa})") in page, page
    code, out, err = cli("report", "--db", store.path, "--run", "a")
    assert code == 0 and (f"agreement {LLM} vs offline: 75.00% of 4 responses both judges "
                          f"scored, {kappa}") in out, out


def test_report_json_says_why_a_pair_has_no_agreement(store):
    store.delete_scores("a", "general", LLM)
    store.upsert_scores([{"run_id": "a", "protocol": "general", "judge": LLM,
                          "work_id": r["work_id"], "answer": r["answer"], "value": "unscored"}
                         for r in store.run_scores("a", "general", "offline")])
    code, out, err = cli("report", "--db", store.path, "--run", "a", "--json")
    assert code == 0, err
    [pair] = json.loads(out)["judge_agreement"]
    assert pair["n"] == 0 and pair["agreement_pct"] is None and pair["kappa"] is None
    assert pair["not_applicable"] == "no response of the 4 was judged by both judges themselves"
