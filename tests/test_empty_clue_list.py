"""A structured reply with "clues": [] said it has no clue: the judge was asked to extract
clues from its text anyway (the empty list read as a missing field). Now the empty list is
the model's answer: no extraction request, rigorous wrong, "its clue list is empty"."""
from domain.extract.structured import states_clue_list
from scoring.score_run import score_run
from tests.scoring_helpers import add_items, make_run
from tests.test_scoring import ITEMS, JUDGE, chats, server  # noqa: F401 (fixture)


def test_an_explicit_empty_clue_list_is_not_extracted_by_the_judge(store, server):  # noqa: F811
    add_items(store, ITEMS)
    make_run(store, "r1", {"t/5": '{"answer": "the French capital", "clues": []}'})
    store.add_endpoint("j", server.url, "gpt-4o-mini")
    server.configure(replies=JUDGE)
    before = len(chats(server))
    score_run(store, "r1", protocol="rigorous", judges=["j"], use_cache=False)
    sent = chats(server)[before:]
    assert not [r for r in sent if "Ground-truth clues" in str(r) or "xtract" in str(r)]
    [row] = [r for r in store.run_scores("r1", "rigorous", "llm:j", full=True)]
    assert row["value"] == "wrong" and "clue list is empty" in row["rationale"]


def test_states_clue_list():
    assert states_clue_list('{"answer": "A", "clues": []}')
    assert not states_clue_list('{"answer": "A"}') and not states_clue_list("Answer: A")
