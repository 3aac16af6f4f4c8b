"""A judge that invents clues no longer makes a reply without reasoning rigorous-correct.
A reply of only "Answer: A" was sent for clue extraction; the judge's made-up clues matched
the GT ones and the run scored 28.57% rigorous for a model that wrote no reasoning (a
researcher's review). Now such a reply is not sent, and extracted clues the reply does not
name are dropped. Real HTTP to the fake judge server, real scoring."""
from scoring.llm_stages import NO_REASONING
from scoring.score_run import score_run
from tests.openai_server import start_server
from tests.scoring_helpers import add_items, make_run

GT = [{"text": "the timetable board", "reasoning": "", "boxes": []}]
ITEMS = [{"id": f"t/{i}", "answer_type": "multiple_choice", "answer": "A", "domain": "D",
          "subtask": "s", "clues": GT} for i in range(3)]
INVENTING = {"visual clues it relies on": '{"clues": ["the timetable board", "a red bus"]}',
             "Ground-truth clues:": '{"clues": [{"model_clue": 1, "label": "match", '
                                    '"gt_clue": 1}]}'}


def test_a_reply_without_reasoning_is_not_credited_with_invented_clues(store):
    add_items(store, ITEMS)
    make_run(store, "r", {"t/0": "Answer: A",
                          "t/1": "I read the timetable board by the platform.\nAnswer: A",
                          "t/2": "The weather is sunny and warm here.\nAnswer: A"})
    with start_server(replies=INVENTING) as judge:
        store.add_endpoint("j", judge.url, "gpt-4o-mini")
        score_run(store, "r", protocol="rigorous", judges=["j"], use_cache=False)
        sent = [r for r in judge.requests() if r["path"].endswith("/chat/completions")]
    # two extractions (t/1, t/2) and one clue match (t/1): "Answer: A" alone is not sent,
    # and t/2 has no clue of its own left to match (before: 3 extractions and 3 matches)
    assert len(sent) == 3
    rows = {r["item_id"]: r for r in store.run_scores("r", "rigorous", "llm:j", full=True)}
    assert "extract_prompt" not in rows["t/0"]["details"]
    assert rows["t/0"]["value"] == "wrong" and NO_REASONING in rows["t/0"]["rationale"]
    assert rows["t/1"]["value"] == "correct"           # its clue is its own: kept
    # named as Inspect names extracted clues (E1), not as the reply's clue list's (M1)
    assert "model clue E1 matches GT clue GT1" in rows["t/1"]["rationale"]
    # an LLM judge's match is its label: no "similarity 100 of 100, a match from 100"
    assert "similarity" not in rows["t/1"]["rationale"] and \
        "(as llm:j labelled them)" in rows["t/1"]["rationale"]
    assert rows["t/0"]["decided_by"] == "rule:no_clues"      # no request: a rule's verdict
    assert rows["t/1"]["details"]["dropped_clues"] == ["a red bus"]
    # neither invented clue is in it: the judge failed, not the model: unscored (counted
    # with the unreadable replies as biasing rigorous low), not wrong
    assert rows["t/2"]["value"] == "unscored"
    assert "none of the 2 clues the judge extracted is in the reply" in rows["t/2"]["rationale"]
    from scoring import biased
    assert biased.unread_work(store, "r", "rigorous", "llm:j") == {rows["t/2"]["work_id"]}
    # Inspect lists the clues scoring kept, numbered as the verdict numbers them: the
    # dropped one was E2 beside a rationale saying there is no clue 2
    from ui.inspect_view import response_view

    shown = [c for c in response_view(store, rows["t/1"]["work_id"])["model_clues"]
             if c["label"].startswith("E")]
    assert [(c["label"], c["text"]) for c in shown] == [("E1", "the timetable board")]
    assert shown[0]["matches"]
