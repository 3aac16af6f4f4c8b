"""`score`'s note named every judge failure "reply unreadable": 4 unreadable replies and 8
readable, cached extractions whose clues are not in the reply read "the judge failed on 12
responses (12 replies unreadable) … scoring again asks the judge again" beside a request
line saying "4 replies unreadable", and re-scoring took the 8 from the cache again. Now each
reason is counted under its own name, agreeing with the request line, and the advice says
what scoring again does for each. Real HTTP to the fake judge server, real scoring."""
from scoring.judge_client import counts_text
from scoring.score_run import score_run
from tests.openai_server import start_server
from tests.scoring_helpers import add_items, make_run

GT = [{"text": "the timetable board", "reasoning": "", "boxes": []}]
ITEMS = [{"id": f"t/{i}", "answer_type": "multiple_choice", "answer": "A", "domain": "D",
          "subtask": "s", "clues": GT} for i in range(4)]
REPLIES = {"zebra": "I cannot say.",                              # extraction unreadable
           "visual clues it relies on": '{"clues": ["a red bus", "a tall tower"]}'}  # invented
NOT_IN = "extracted clues not in the reply"


def scored(store, judge_url):
    store.add_endpoint("j", judge_url, "gpt-4o-mini") if not store.list_endpoints() else None
    return score_run(store, "r", protocol="rigorous", judges=["j"])


def test_each_failure_is_named_by_its_reason_and_the_advice_fits_it(store):
    add_items(store, ITEMS)
    make_run(store, "r", {"t/0": "I saw a zebra crossing there.\nAnswer: A",
                          "t/1": "I saw a zebra stripe on it.\nAnswer: A",
                          "t/2": "The weather is sunny and warm.\nAnswer: A",
                          "t/3": "The street looks quiet today.\nAnswer: A"})
    with start_server(replies=REPLIES) as judge:
        first = scored(store, judge.url)
        again = scored(store, judge.url)
    for result in (first, again):
        assert result["judge_failures"]["rigorous llm:j"]["by_reason"] == {
            "reply unreadable": 2, NOT_IN: 2}
        note = next(n for n in result["notes"] if n.startswith("rigorous llm:j: the judge "
                                                               "failed"))
        assert "(2 extracted clues not in the reply, 2 replies unreadable)" in note
        assert "scoring again asks the judge again about the 2 whose replies were not " \
               "cached; the 2 whose extracted clues are not in the reply had readable " \
               "replies, cached, so scoring again reads them again: score --no-cache" in note
        right = next(n for n in result["notes"] if "right responses it was asked" in n)
        assert "could not be read" not in right and \
            "4 right responses it was asked about (of 4 items, each repeat and sample a " \
            "response; 2 extracted clues not in the reply, 2 " \
            "replies unreadable)" in right
    # the request lines agree: 2 unreadable each time; the 2 readable ones cached the 2nd time
    assert "2 replies unreadable" in counts_text(first["judges"][0])
    assert again["judges"][0]["cached"] == 2 and again["judges"][0]["unreadable"] == 2
