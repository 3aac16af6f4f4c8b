"""Two silences of the samples rule. MMR-Life's rules are made for several samples per item
(the paper draws 5), yet read over a 1-sample run they decided each item by its one sample
with no word. And a cancelled 5-sample run whose last items got only 2 samples had those
items decided on 2 samples (majority of 2, MMR-Life's 'more than 2 of the first 5' out of
reach) with nothing saying so. The table's notes now say both, with the count of items.
Real SQLite, real offline scoring, the real CLI and the Results page's handler."""
from scoring import tables
from scoring.score_run import score_run
from tests.scoring_helpers import NOT_RUN, add_items, cli, make_run, page_text
from ui import results_handlers as h

ITEMS = [{"id": f"t/{i}", "answer_type": "yes_no", "answer": "Yes", "domain": "D",
          "subtask": "s"} for i in range(4)]
ONE = "made for several samples per item (the paper's 5); this run has 1"
FEWER = ("2 items were decided on fewer samples than the 5 asked (2; the run stopped before "
         "drawing them all).")


def test_mmr_life_over_one_sample_is_said(store):
    add_items(store, ITEMS)
    make_run(store, "one", {f"t/{i}": "Yes." for i in range(4)})
    score_run(store, "one")
    for rule in ("mmr_life", "mmr_life_sc"):
        assert ONE in tables.main_table(store, ["one"], samples_rule=rule).notes, rule
    assert ONE not in tables.main_table(store, ["one"]).notes     # majority: nothing to say
    shown = page_text(h.show_results(store, ["one"], samples_rule="mmr_life")["rules"])
    assert "MMR-Life (more than 2 of the first 5 samples correct) is " + ONE in shown
    code, out, err = cli("report", "--db", store.path, "--run", "one",
                         "--samples-rule", "mmr_life")
    assert code == 0, err
    assert ONE in " ".join(out.split())


def test_items_with_fewer_samples_than_asked_are_counted(store):
    add_items(store, ITEMS)
    full, cut = ["Yes."] * 5, ["Yes.", "No."] + [NOT_RUN] * 3
    make_run(store, "cut", {"t/0": full, "t/1": full, "t/2": cut, "t/3": cut}, samples=5)
    store.finish_run("cut", "test", "cancelled", "", {})
    score_run(store, "cut")
    for rule in ("majority", "mmr_life", "mmr_life_sc"):
        notes = " ".join(tables.main_table(store, ["cut"], samples_rule=rule).notes.split())
        assert FEWER in notes, (rule, notes)
    assert "fewer samples" not in tables.main_table(store, ["cut"], samples_rule="first").notes
    code, out, err = cli("table", "--db", store.path, "--runs", "cut", "--samples-rule",
                         "mmr_life")
    assert code == 0, err
    assert FEWER in " ".join(out.split())


def test_a_full_run_says_nothing(store):
    add_items(store, ITEMS)
    make_run(store, "full", {f"t/{i}": ["Yes."] * 5 for i in range(4)}, samples=5)
    score_run(store, "full")
    notes = tables.main_table(store, ["full"], samples_rule="mmr_life").notes
    assert "fewer samples" not in notes and ONE not in notes
