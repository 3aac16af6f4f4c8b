"""Two endpoints of the same model at the same URL (`endpoint add judge2` copying `judge`) are
one judge: a panel of them is refused, but `score --judge judge2` served every reply from the
cache made for llm:judge without saying whose they were, and Results and `report` printed
"llm:judge vs llm:judge2" agreement lines and a low-agreement caution built on the pair. Now
one rule (`scoring.same_judge`): such judges are never compared, the words say why, and
`score` names the judge whose replies were reused. Real store, real scoring, the fake OpenAI
server in its own process, the real CLI and Results page handlers."""
from __future__ import annotations

import html

import pytest

from tests.openai_server import start_server
from tests.scoring_helpers import add_items, cli, make_run

ITEMS = [{"id": f"o/{i}", "answer_type": "open", "answer": f"city {i}", "domain": "d",
          "subtask": "s"} for i in range(6)]
RIGHT = {"Model's answer:": '{"verdict": "correct", "reason": "same city"}'}
WRONG = {"Model's answer:": '{"verdict": "incorrect", "reason": "another city"}'}


@pytest.fixture(scope="module")
def server():
    with start_server(models=["judge-m"], replies=RIGHT) as handle:
        yield handle


def _score(store, *args) -> str:
    code, out, err = cli("score", "--db", store.path, "--run", "r1", *args)
    assert code == 0, err
    return " ".join(out.split())


def test_one_judge_under_two_names_is_named_and_never_compared(store, server):
    from scoring.tables import main_table
    from ui.results_handlers import agreement_lines

    add_items(store, ITEMS)
    make_run(store, "r1", {i["id"]: f"Answer: town {n}" for n, i in enumerate(ITEMS)})
    store.add_endpoint("judge", server.url, "judge-m")
    store.add_endpoint("judge2", server.url, "judge-m")
    server.configure(replies=RIGHT)
    out = _score(store, "--judge", "judge")
    assert "llm:judge: 6 requests: 6 answered" in out and "made for" not in out
    out = _score(store, "--judge", "judge2")
    assert "llm:judge2: 6 requests: 0 answered, 6 from the cache" in out
    assert ("of the replies from the cache, 6 made for llm:judge: one judge with llm:judge2 "
            "(the same model on the same server, asked the same way), so these verdicts are "
            "llm:judge's replies, not a second judge's") in out
    # asked afresh, the copy now reads otherwise: 0 of 6 agreement between one judge's two
    # readings was a "low agreement" caution on the run
    server.configure(replies=WRONG)
    out = _score(store, "--judge", "judge2", "--no-cache")
    assert "llm:judge2: 6 requests: 6 answered, 0 from the cache" in out
    code, out, _ = cli("report", "--db", store.path, "--run", "r1", "--judge", "llm:judge")
    said = " ".join(out.split())
    assert code == 0 and "llm:judge vs llm:judge2" not in said
    assert ("llm:judge and llm:judge2 are one judge: the same model (judge-m) on the same "
            "server, asked the same way") in said
    lines = html.unescape(agreement_lines(store, ["r1"], "general")).replace("\\", "")
    assert "vs llm:judge2" not in lines and "llm:judge and llm:judge2 are one judge" in lines
    table = main_table(store, ["r1"], judge="llm:judge")
    assert "Caution" not in table.notes, table.notes
    code, out, _ = cli("report", "--db", store.path, "--run", "r1", "--json")
    assert '"one_judge": true' in out


def test_different_models_at_one_url_are_still_compared(store, server):
    from scoring.same_judge import one_judge_why

    store.add_endpoint("ja", server.url, "judge-m")
    store.add_endpoint("jb", server.url, "other-m")
    store.add_endpoint("jc", server.url, "judge-m", params={"top_p": 0.5})
    store.add_endpoint("jd", server.url, "judge-m", params={"temperature": 0.9})
    assert one_judge_why(store, "llm:ja", "llm:jb") == ""
    assert one_judge_why(store, "llm:ja", "llm:jc") == ""
    assert one_judge_why(store, "llm:ja", "llm:jd").startswith("llm:ja and llm:jd are one judge")
    assert one_judge_why(store, "llm:ja", "offline") == ""
    assert one_judge_why(store, "llm:ja", "llm:gone") == ""


def test_an_agreement_on_one_response_says_response():
    """`report` printed "0.00% of 1 responses both judges scored"."""
    from scoring.judge_agreement import agreement_figures, agreement_text

    pair = {"a": "llm:a", "b": "offline", "n": 1, "agreement": 0.0, "kappa": None,
            "responses": 1}
    assert agreement_figures(pair, "general")["basis"] == "response both judges scored"
    assert agreement_figures(pair, "rigorous")["basis"] == \
        "response with a correct answer both judges scored"
    assert "0.0% of 1 response both judges scored" in agreement_text(pair, "general")
    assert agreement_figures({**pair, "n": 2}, "general")["basis"] == \
        "responses both judges scored"
