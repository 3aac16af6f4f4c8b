"""The notes under a results table say what Unparsed and Unscored hold beyond their
definition: items counted unparsed because their samples tied under majority vote, and
the unscored responses of a run with samples beside the unscored items the column counts.
Real SQLite store, runs written through the store, real offline scoring, the real CLI."""
from judges.stats import COUNTING_RULES
from scoring import tables
from scoring.score_run import score_run
from tests.scoring_helpers import add_items, cli, make_run

OPTIONS = [{"label": L, "text": f"option {L}", "image": None} for L in "ABCDE"]
MC = {"answer_type": "multiple_choice", "answer": "A", "options": OPTIONS, "domain": "D",
      "subtask": "s"}
ITEMS = [{"id": "m/1", **MC}, {"id": "m/2", **MC},
         {"id": "o/1", "answer_type": "open", "answer": "Paris", "domain": "O", "subtask": "o"}]
TIE = ["Answer: B", "Answer: A", "Answer: B", "Answer: A", "I cannot tell."]
REPLIES = {"m/1": TIE,                                       # a tie: counted unparsed
           "m/2": ["Answer: A"] * 5,                         # correct
           "o/1": ["Answer: Lyon"] * 3 + ["Answer: Paris"] * 2}  # 3 unscored, majority: unscored


def _notes(store, run_id):
    return tables.main_table(store, [run_id]).notes


def test_a_tie_is_named_in_the_unparsed_note_and_unscored_responses_beside_items(store):
    add_items(store, ITEMS)
    make_run(store, "s", REPLIES, samples=5)
    score_run(store, "s")
    notes = _notes(store, "s")
    assert "run m · CoT · 5 samples: Unparsed includes 1 item whose samples tied (majority vote picks " \
           "none)." in notes, notes
    assert "run m · CoT · 5 samples: Unscored counts 1 item; 3 of its responses were unscored" in notes
    code, out, err = cli("report", "--db", store.path, "--run", "s")
    assert code == 0, err
    text = " ".join(out.split())
    assert "Unparsed includes 1 item whose samples tied (majority vote picks none)." in text
    assert "Unscored counts 1 item; 3 of its responses were unscored" in text


def test_the_counting_rule_says_unscored_counts_items_and_single_samples_add_nothing(store):
    assert "unscored items" in COUNTING_RULES and "unscored responses" not in COUNTING_RULES
    add_items(store, ITEMS)
    make_run(store, "one", {"m/1": "Answer: B", "m/2": "I cannot tell.", "o/1": "Lyon"})
    score_run(store, "one")
    notes = _notes(store, "one")
    assert "tied" not in notes and "Unscored counts" not in notes
