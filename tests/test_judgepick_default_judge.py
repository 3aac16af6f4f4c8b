"""A review: with no judge named, the default judge of a tie was picked by the order of
preference alone (a panel, an LLM judge, offline, by name), so llm:ja, the very model a run
was answered by, read that run over llm:jc, an independent judge that scored as many. Among
equals an independent judge now comes first (a self-judge only reads the runs when it
scored strictly more, or is all there is), the note says so, and the Results page, `report`
and the CLI tables read the same runs with the same judge: one rule,
`scoring.results.judge_choice`, whose pure part (`scoring.judge_choice`) is tested first.

The db: run ra answered by model a, rb by model b, each scored offline, by llm:ja (an
endpoint serving model a: a self-judge of ra only) and by llm:jc (serving model c), every
judge scoring every response. Real SQLite, the real CLI and the page's handler."""
from __future__ import annotations

import html
import json

import pytest

from scoring.judge_choice import best_scoring, choice_note
from scoring.score_run import score_run
from tests.scoring_helpers import add_items, cli, make_run
from ui import results_handlers as h

ORDERED = ["llm:ja", "llm:jc", "offline"]          # the order of preference
OWN = "not llm:ja, which judged its own model's answers"


def test_a_tie_goes_to_an_independent_judge_before_a_self_judge():
    even = {"llm:ja": 4, "llm:jc": 4, "offline": 4}
    assert best_scoring(ORDERED, even) == "llm:ja"                      # by name alone
    assert best_scoring(ORDERED, even, {"llm:ja"}) == "llm:jc"
    assert best_scoring(ORDERED, even, {"llm:ja", "llm:jc"}) == "offline"


def test_a_self_judge_is_chosen_when_it_scored_more_or_is_all_there_is():
    assert best_scoring(ORDERED, {"llm:ja": 4, "llm:jc": 3, "offline": 3},
                        {"llm:ja"}) == "llm:ja"
    assert best_scoring(["llm:ja"], {"llm:ja": 0}, {"llm:ja"}) == "llm:ja"
    assert best_scoring(["llm:ja", "llm:jb"], {"llm:ja": 2, "llm:jb": 2},
                        {"llm:ja", "llm:jb"}) == "llm:ja"               # both: by name
    assert best_scoring([], {}, {"llm:ja"}) is None


def test_the_note_says_an_independent_judge_was_preferred_over_a_self_judge():
    even = {"llm:ja": 4, "llm:jc": 4, "offline": 4}
    note = choice_note("llm:jc", ORDERED, even, 2, {"llm:ja"})
    assert note.startswith("No judge chosen: read with llm:jc"), note
    assert f"llm:ja, llm:jc, offline scored as many: llm:jc, {OWN}" in note, note
    # no self-judge among the tied: the order of preference broke the tie, and says so
    plain = choice_note("llm:ja", ORDERED, even, 2)
    assert "its own model" not in plain and "by the order among equals" in plain, plain
    # a self-judge that scored more is chosen: the others scored fewer, no tie to explain
    more = choice_note("llm:ja", ORDERED, {"llm:ja": 4, "llm:jc": 3, "offline": 3}, 2,
                       {"llm:ja"})
    assert "its own model" not in more, more
    assert choice_note("llm:ja", ["llm:ja"], {"llm:ja": 4}, 2, {"llm:ja"}) == ""


ITEMS = [{"id": f"demo/{i}", "answer_type": "multiple_choice", "answer": "A", "domain": "d",
          "subtask": "s"} for i in range(4)]


@pytest.fixture
def db(store):
    """ra (model a) all right, rb (model b) 3 of 4; offline, llm:ja (serving a) and llm:jc
    (serving c) each scored every response of both."""
    add_items(store, ITEMS)
    ids = [i["id"] for i in ITEMS]
    make_run(store, "ra", {i: "Answer: A" for i in ids}, model="a")
    make_run(store, "rb", {i: "Answer: B" if i == "demo/3" else "Answer: A" for i in ids},
             model="b")
    store.add_endpoint("ja", "http://127.0.0.1:9/v1", "a")
    store.add_endpoint("jc", "http://127.0.0.1:9/v1", "c")
    for run in ("ra", "rb"):
        score_run(store, run)
        store.upsert_scores([{"run_id": run, "protocol": "general", "judge": judge,
                              "work_id": r["work_id"], "value": r["value"],
                              "answer": r["answer"]}
                             for judge in ("llm:ja", "llm:jc")
                             for r in store.run_scores(run, "general", "offline")])
    return store


def _page_judges(store, runs) -> tuple[list[str], str]:
    page = h.show_results(store, runs, "general", h.COMMON_JUDGE)
    return list(page["table"]["Judge"]), html.unescape(page["rules"]).replace("\\", "")


def _report(store, run) -> tuple[str, str]:
    code, out, err = cli("report", "--db", store.path, "--run", run)
    assert code == 0, err
    head = out.splitlines()[0]                   # "run ra: general protocol, judge …, …"
    return head.split("judge ")[1].split(",")[0], " ".join(out.split())


def test_the_page_and_report_read_a_run_with_the_same_default_judge(db):
    """The page showing one run and `report` of it: the same judge, and both say why. Of
    run ra, llm:ja is the model judging its own answers: llm:jc reads it."""
    judges, rules = _page_judges(db, ["ra"])
    judge, out = _report(db, "ra")
    assert judges == ["llm:jc"] and judge == "llm:jc", out
    assert OWN in " ".join(rules.split()) and OWN in out, out   # `report` said no why
    # rb's own model is b: llm:ja is independent of it, and the order reads it
    judges, rules = _page_judges(db, ["rb"])
    judge, out = _report(db, "rb")
    assert judges == ["llm:ja"] and judge == "llm:ja", out
    assert "its own model" not in out


def test_runs_compared_together_are_read_with_one_independent_judge_everywhere(db):
    """Comparing ra with rb, llm:ja judged a compared run's own model: the page, `table` and
    the leaderboard read both rows with llm:jc (rb alone, as `report --run rb` reads it, is
    read with llm:ja: the compared runs decide which judge is a self-judge)."""
    judges, rules = _page_judges(db, ["ra", "rb"])
    assert judges == ["llm:jc", "llm:jc"], rules
    for command in ("table", "leaderboard"):
        code, out, err = cli(command, "--db", db.path, "--runs", "ra,rb", "--format", "json")
        assert code == 0, err
        rows = json.loads(out)["rows"] if out.lstrip().startswith("{") else \
            [r for t in json.loads(out) for r in t["rows"]]
        assert {r["judge"] for r in rows} == {"llm:jc"}, out
