"""Offline scoring says why an open answer is unscored (a review: "Answer: summer" for the
gold "Winter" was "unscored 1" with no reason, and its run's n one less than the others')."""
from scoring.score_run import score_run
from store import Store
from tests.scoring_helpers import add_items, cli, make_run

ITEMS = [{"id": "t/season", "answer_type": "open", "answer": "Winter", "aliases": ["December"],
          "domain": "Daily", "subtask": "s"},
         {"id": "t/city", "answer_type": "open", "answer": "Paris", "domain": "Daily",
          "subtask": "s"}]


def test_offline_scoring_names_the_open_answers_it_left_to_an_llm_judge(tmp_path):
    store = Store.open(tmp_path / "u.db")
    add_items(store, ITEMS)
    make_run(store, "r", {"t/season": "Answer: summer", "t/city": "Answer: Paris"})
    result = score_run(store, "r")
    assert result["values"]["general offline"]["unscored"] == 1
    [note] = [n for n in result["notes"] if "open answer" in n]
    assert note.startswith("1 open answer matched neither the gold nor an alias: unscored")
    assert "--judge ENDPOINT" in note
    make_run(store, "s", {"t/season": "Answer: winter", "t/city": "Answer: Paris"})
    assert not [n for n in score_run(store, "s")["notes"] if "open answer" in n]
    store.close()
    code, _, err = cli("score", "--db", tmp_path / "u.db", "--run", "r")
    assert code == 0 and "1 open answer matched neither" in err
