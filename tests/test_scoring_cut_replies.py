"""Scoring replies cut off by max_tokens: a real run against the fake OpenAI server with its
truncate fault (every reply cut in half, finish_reason length), scored offline.

A cut reply gets a verdict only from a whole explicit answer statement; its last, cut clue is
no clue. Each reply below is built so that the cut falls where the fallbacks once read an
answer (and its clue fragment matched a GT clue with score 100).
"""
import pytest

from runner.config import Execution, RunConfig
from runner.engine import execute
from runner.planning import create_run, plan_run
from scoring.score_run import score_run
from tests.openai_server import start_server

ALCOVE = [{"label": "A", "text": "The sofa", "image": None},
          {"label": "B", "text": "The desk", "image": None},
          {"label": "C", "text": "The bookcase", "image": None},
          {"label": "D", "text": "The lamp", "image": None}]


def cut_at(kept: str) -> str:
    """A reply the fake server's truncate fault cuts to exactly `kept` (it keeps half)."""
    return kept + "x" * len(kept)


REPLIES = {
    # the last line names option C's text: once read as C, scored correct
    "Which piece fits the alcove?": cut_at(
        "Clues:\n1. The alcove is about 110 cm wide\n2. The bookcase "),
    # a number inside a cut clue line: once read as 25
    "When does the next bus leave?": cut_at(
        "Clues:\n1. The timetable hangs at the stop\n2. Departures at :05, :25, "),
    # a whole answer line before the cut: the answer stands, the cut clue does not count
    "Which piece stands in the corner?": cut_at(
        "Answer: C\nClues:\n1. A rug lies on the floor\n2. The bookcase is 80 cm"),
}


@pytest.fixture
def cut_run(store, make_item):
    specs = [("demo/alcove", "Which piece fits the alcove?", "multiple_choice", "C",
              ALCOVE, "The bookcase is 80 cm wide"),
             ("demo/bus", "When does the next bus leave?", "numeric", "25", [],
              "Departures at :05, :25 and :45"),
             ("demo/corner", "Which piece stands in the corner?", "multiple_choice", "C",
              ALCOVE, "The bookcase is 80 cm wide")]
    for item_id, question, answer_type, gold, options, clue in specs:
        item = make_item(item_id, question=question, answer_type=answer_type, answer=gold,
                         options=options)
        item["clues"][0]["text"] = clue
        store.create_item(item, "t")
    with start_server(replies=REPLIES, faults={"truncate": 1.0}) as server:
        store.add_endpoint("fake", server.url, "fake-vlm", concurrency=2)
        plan = plan_run(store, RunConfig(endpoint="fake", ids=[s[0] for s in specs],
                                         setting="clue_guided"),
                        Execution(retry_base_delay=0.05, batch_interval=0.1))
        run_id = create_run(store, plan)
        outcome = execute(store, run_id, items=plan.items)
    assert outcome.status == "done"
    statuses = {r["status"] for r in store.run_results(run_id)}
    assert statuses == {"truncated"}
    return run_id


def verdicts(store, run_id, protocol):
    rows = store.run_scores(run_id, protocol, "offline", full=True)
    by_work = {r["work_id"]: r for r in rows}
    items = {r["work_id"]: r["item_id"] for r in store.run_results(run_id)}
    return {items[w]: row for w, row in by_work.items()}


def test_cut_replies_are_unparsed_unless_a_whole_statement_answers(store, cut_run):
    score_run(store, cut_run, protocol="all")
    general = verdicts(store, cut_run, "general")
    assert general["demo/alcove"]["value"] == "unparsed"
    assert general["demo/bus"]["value"] == "unparsed"
    assert "cut off" in general["demo/alcove"]["rationale"]
    assert general["demo/corner"]["value"] == "correct"
    assert general["demo/corner"]["answer"] == "C"


def test_the_cut_clue_of_a_cut_reply_is_not_matched(store, cut_run):
    score_run(store, cut_run, protocol="all")
    rigorous = verdicts(store, cut_run, "rigorous")["demo/corner"]
    # its one whole clue (a rug) names no GT clue; "The bookcase is 80 cm" was cut
    assert rigorous["value"] == "wrong"
    assert rigorous["details"]["clue_match"] is False
    assert len(rigorous["details"]["clue_scores"]) == 1      # the rug: the one clue read
    assert rigorous["details"]["clue_scores"][0] < 70
    assert "cut off" in rigorous["details"]["cut_off"]


def test_inspect_reads_a_cut_replys_clues_as_scoring_does(store, cut_run):
    """Inspect's live matching (`scoring.offline.model_clues` on the stored response) leaves
    the cut clue out too; a one-paragraph cut reply keeps its whole sentences."""
    from scoring.offline import model_clues

    work = {r["item_id"]: r["work_id"] for r in store.run_results(cut_run)}
    stored = store.response_detail(work["demo/corner"])
    # recorded as scoring reads it (the runner reads a cut reply's whole lines only)
    assert [c["text"] for c in stored["clues"]] == ["A rug lies on the floor"]
    clues, source = model_clues(stored)
    assert [c["text"] for c in clues] == ["A rug lies on the floor"] and source == "clue list"
    prose = {**stored, "clues": [], "text": "The rug is red. The bookcase is 80 cm"}
    assert model_clues(prose)[0] == [{"text": "The rug is red."}]
