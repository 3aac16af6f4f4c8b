"""Researcher review (resfix27): the Results page's "LLM judge(s)" picker offers every
endpoint, the run's own among them; scoring vlm-a's answers with endpoint fake-a (serving
vlm-a) showed `llm:fake-a` in the table with no word that the judge was the model judged.
The choice stays (papers do self-judge); the notes under the table, `report` and `score` now
say it, once per judge and group of runs (`scoring.self_judge`). Real SQLite, real scoring
against the fake OpenAI server in its own process, the real CLI and the page's handler."""
from __future__ import annotations

import html

import pytest

from tests.openai_server import start_server
from tests.scoring_helpers import add_items, cli, make_run

ITEMS = [{"id": f"o/{i}", "answer_type": "open", "answer": f"city {i}", "domain": "d",
          "subtask": "s"} for i in range(3)]
RIGHT = {"Model's answer:": '{"verdict": "correct", "reason": "same city"}'}
SAID = "llm:fake-a judged its own model's answers (vlm-a) for runs a-cot, nocot: a self-judge."


@pytest.fixture(scope="module")
def server():
    with start_server(models=["vlm-a", "judge-m"], replies=RIGHT) as handle:
        yield handle


def _said(text: str) -> str:
    return " ".join(html.unescape(text).replace("\\", "").split())


def test_a_judge_of_its_own_model_is_said_once_per_judge(store, server):
    from ui.results_handlers import show_results

    add_items(store, ITEMS)
    for rid, name in (("r1", "nocot"), ("r2", "a-cot")):
        make_run(store, rid, {i["id"]: f"Answer: town {n}" for n, i in enumerate(ITEMS)},
                 model="vlm-a")
        store.label_run(rid, name=name)
    make_run(store, "r3", {i["id"]: "Answer: city 1" for i in ITEMS}, model="vlm-b")
    store.add_endpoint("fake-a", server.url, "vlm-a")
    store.add_endpoint("other", server.url, "judge-m")
    for rid in ("r1", "r2", "r3"):
        code, out, err = cli("score", "--db", store.path, "--run", rid, "--judge", "fake-a")
        assert code == 0, err
        mine = "llm:fake-a judged its own model's answers (vlm-a)" in _said(err)
        assert mine == (rid != "r3"), err       # `score`'s notes, on stderr
    page = show_results(store, ["r1", "r2", "r3"])
    shown = _said(page["rules"])
    assert shown.count(SAID) == 1, shown
    code, out, err = cli("report", "--db", store.path, "--run", "r1")
    assert code == 0, err
    assert "llm:fake-a judged its own model's answers (vlm-a) for run nocot: a self-judge." \
        in _said(out), out
    # another endpoint's model judging: no such words
    cli("score", "--db", store.path, "--run", "r1", "--judge", "other")
    page = show_results(store, ["r1"], judge="llm:other")
    assert "self-judge" not in page["rules"]


def test_a_default_judge_is_independent_when_a_self_judge_scored_as_many(store, server):
    """`report` (and the page's "common judge") read vlm-a's run with llm:fake-a, the model
    judging its own answers, over llm:other, which scored as many: the name order alone
    broke the tie. Among equals an independent judge reads the runs, and the note says so."""
    from scoring.results import judge_choice
    from ui.results_handlers import show_results

    add_items(store, ITEMS)
    make_run(store, "r1", {i["id"]: f"Answer: city {n}" for n, i in enumerate(ITEMS)},
             model="vlm-a")
    store.add_endpoint("fake-a", server.url, "vlm-a")
    store.add_endpoint("other", server.url, "judge-m")
    for judge in ("fake-a", "other"):
        code, out, err = cli("score", "--db", store.path, "--run", "r1", "--judge", judge)
        assert code == 0, err
    chosen, note = judge_choice(store, ["r1"], "general")
    assert chosen == "llm:other", note
    assert "not llm:fake-a, which judged its own model's answers" in note, note
    page = show_results(store, ["r1"])
    assert "llm:other" in _said(page["rules"]) and "a self-judge" not in page["rules"]
    code, out, err = cli("report", "--db", store.path, "--run", "r1")
    assert code == 0 and "a self-judge" not in _said(out), out
