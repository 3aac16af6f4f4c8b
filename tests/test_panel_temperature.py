"""A panel of two endpoints on one model and URL, one with {"temperature": 0.7}, is one
judge, refused: but the message said "with the same parameters", which is false. The true
reason is that a judge is always asked at temperature 0. Real store, the real CLI and
Results page, the fake OpenAI server in its own process (nothing is sent to it)."""
from __future__ import annotations

import pytest

from tests.openai_server import start_server
from tests.scoring_helpers import add_items, cli, make_run


@pytest.fixture(scope="module")
def judge():
    with start_server(models=["judge-m"]) as handle:
        yield handle


def test_endpoints_differing_only_in_temperature_are_refused_for_the_true_reason(store, judge):
    from ui.results_handlers import ResultsUiError, score_runs

    add_items(store, [{"id": "p/1", "answer_type": "open", "answer": "Paris", "domain": "d",
                       "subtask": "s"}])
    make_run(store, "r1", {"p/1": "Answer: the French capital"})
    store.add_endpoint("judgeA", judge.url, "judge-m")
    store.add_endpoint("judgeD", judge.url, "judge-m", params={"temperature": 0.7})
    judge.reset_log()
    code, _, err = cli("score", "--db", store.path, "--run", "r1", "--judge", "judgeA",
                       "--judge", "judgeD")
    said = " ".join(err.split())
    assert code == 2 and "judges llm:judgeA and llm:judgeD are one judge" in said
    assert "with the same parameters" not in said
    assert ("whose parameters differ only in temperature (llm:judgeA temperature not set; "
            "llm:judgeD temperature 0.7), which does not make them differ: a judge is always "
            "asked at temperature 0") in said
    assert "parameters (other than temperature)" in said
    with pytest.raises(ResultsUiError, match="a judge is always asked at temperature 0"):
        score_runs(store, ["r1"], ["judgeA", "judgeD"], "general")
    assert [r for r in judge.requests() if r["path"].endswith("/chat/completions")] == []
    store.add_endpoint("judgeE", judge.url, "judge-m")          # truly the same parameters
    code, _, err = cli("score", "--db", store.path, "--run", "r1", "--judge", "judgeA",
                       "--judge", "judgeE")
    assert code == 2 and "at the same URL with the same parameters" in " ".join(err.split())
