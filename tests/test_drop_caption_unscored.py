"""The General vs rigorous table's caption said "on the 4 items both protocols scored" when
no run had a rigorous score at all (every Rigorous cell "not scored"; a review, round 26):
it now says the items the general protocol scored, and that rigorous scored none."""
from scoring import tables
from scoring.score_run import score_run
from tests.scoring_helpers import add_items, make_run

ITEMS = [{"id": f"demo/{i}", "answer_type": "yes_no", "answer": "Yes", "domain": "d",
          "subtask": "s"} for i in range(4)]


def test_a_drop_table_with_no_rigorous_score_does_not_claim_both_protocols(store):
    add_items(store, ITEMS)
    make_run(store, "cot", {i["id"]: "Yes." for i in ITEMS})
    score_run(store, "cot")                                     # general only
    drop = tables.drop_table(store, ["cot"])
    assert "both protocols" not in drop.caption, drop.caption
    assert ("on the 4 items the general protocol scored; no run has rigorous scores"
            in drop.caption), drop.caption
    score_run(store, "cot", protocol="rigorous")       # scored (its n is another matter)
    assert "no run has rigorous scores" not in tables.drop_table(store, ["cot"]).caption
