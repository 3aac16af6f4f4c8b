"""Scoring a run rigorous with an LLM judge whose replies are unreadable: two unscored
responses (an open answer, 2 repeats, whose general judge reply was unreadable) had no reason
anywhere, and the request line "3 requests: … 3 failed (3 replies unreadable)" counted
requests beside notes counting responses in the same words. Now every unscored verdict has a
named reason, adding up to the unscored count, and the request line says how many responses
its failed requests cover. Real HTTP to the fake judge server, real scoring."""
from scoring.judge_client import counts_text
from scoring.score_run import score_run
from tests.openai_server import start_server
from tests.scoring_helpers import add_items, make_run

GT = [{"text": "the timetable board", "reasoning": "", "boxes": []}]
ITEMS = [{"id": f"t/{i}", "answer_type": "multiple_choice", "answer": "A", "domain": "D",
          "subtask": "s", "clues": GT} for i in range(2)] + [
    {"id": "t/open", "answer_type": "open", "answer": "Winter", "domain": "D", "subtask": "s",
     "clues": GT}]


def test_every_unscored_verdict_has_a_reason_and_the_request_line_its_unit(store):
    add_items(store, ITEMS)
    make_run(store, "r", {"t/0": ["I saw a zebra crossing there.\nAnswer: A"] * 2,
                          "t/1": ["A zebra stripe on the wall.\nAnswer: A"] * 2,
                          "t/open": ["It looks warm.\nAnswer: summer"] * 2}, repeats=2)
    with start_server(default_reply="I cannot say.") as judge:
        store.add_endpoint("j", judge.url, "gpt-4o-mini")
        result = score_run(store, "r", protocol="rigorous", judges=["j"])
    unscored = result["values"]["rigorous llm:j"]["unscored"]
    assert unscored == 6
    note = next(n for n in result["notes"] if "unscored, by reason" in n)
    assert note.startswith(f"rigorous llm:j: {unscored} responses unscored, by reason: ")
    assert "4 replies unreadable" in note and \
        "2 answer unscored: the judge's reply unreadable on the answer" in note
    line = counts_text(result["judges"][0], result["responses"])
    assert "3 requests: 0 answered, 0 from the cache, 3 failed (3 replies unreadable" in line
    assert ", covering 6 responses" in line
    right = next(n for n in result["notes"] if "right responses" in n)
    assert "no verdict on the clues of 4 of the 4 right responses it was asked about (of 2 " \
           "items, each repeat and sample a response; 4 replies unreadable)" in right
