"""Under the samples rule MMR-Life self-consistency a tie (samples C, C, A, A, B) goes to the
earliest of the tied answers, the paper's rule, but silently: the item counted correct with no
note, while majority vote's note says the tie picked none. Now the Results page and `report`
say how many items a tie decided that way (only when one did), and the Samples dropdown's
info says how each rule treats a tie. Real SQLite, real offline scoring, the real CLI and
the page's handler."""
from scoring import tables
from scoring.score_run import score_run
from tests.scoring_helpers import add_items, cli, make_run
from ui import results_handlers as h

OPTIONS = [{"label": L, "text": f"option {L}", "image": None} for L in "ABCDE"]
MC = {"answer_type": "multiple_choice", "answer": "C", "options": OPTIONS, "domain": "D",
      "subtask": "s"}
ITEMS = [{"id": "t/1", **MC}, {"id": "t/2", **MC}]
TIE = ["Answer: C", "Answer: C", "Answer: A", "Answer: A", "Answer: B"]
NOTE = ("1 item whose samples tied was decided by the earliest of the tied answers (the "
        "paper's self-consistency).")


def test_a_tie_self_consistency_breaks_is_named(store):
    add_items(store, ITEMS)
    make_run(store, "s", {"t/1": TIE, "t/2": ["Answer: C"] * 5}, samples=5)
    score_run(store, "s")
    table = tables.main_table(store, ["s"], samples_rule="mmr_life_sc")
    assert NOTE in table.notes, table.notes
    assert "majority vote picks none" not in table.notes
    majority = tables.main_table(store, ["s"]).notes
    assert "earliest of the tied" not in majority and "majority vote picks none" in majority
    shown = h.show_results(store, ["s"], samples_rule="mmr_life_sc")["rules"]
    assert NOTE in shown.replace("\\", ""), shown
    code, out, err = cli("report", "--db", store.path, "--run", "s",
                         "--samples-rule", "mmr_life_sc")
    assert code == 0, err
    assert NOTE in " ".join(out.split()), out


def test_no_tie_no_note(store):
    add_items(store, ITEMS)
    make_run(store, "u", {"t/1": ["Answer: C"] * 3 + ["Answer: A"] * 2,
                          "t/2": ["Answer: C"] * 5}, samples=5)
    score_run(store, "u")
    assert "tied" not in tables.main_table(store, ["u"], samples_rule="mmr_life_sc").notes


def test_the_samples_dropdown_says_how_each_rule_treats_a_tie():
    info = h.SAMPLE_RULE_INFO
    assert "a tie picks none" in info
    assert "a tie goes to the earliest of the tied answers" in info
