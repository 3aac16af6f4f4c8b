"""The drop table reads each row with one judge across its protocols. It read the general
column with the runs' common judge and the rigorous one with each run's own when they had
none in common: a row was 'general offline, rigorous llm:strict', a drop subtracting two
judges' accuracies (a researcher's review). Now a row's protocols are read with the judge
of its general column; a protocol that judge did not score is "–" with the note saying so."""
from scoring import tables
from scoring.score_run import score_run
from tests.scoring_helpers import add_items, make_run

CLUE = [{"text": "snow on the roof", "reasoning": "", "boxes": []}]


def _strict_rigorous(store, run):
    """Re-label the run's rigorous verdicts as an LLM judge's (all wrong), dropping the
    offline ones: its rigorous protocol was scored by llm:strict only."""
    rows = store.run_scores(run, "rigorous", "offline")
    store.upsert_scores([{"run_id": run, "protocol": "rigorous", "judge": "llm:strict",
                          "work_id": r["work_id"], "value": "wrong", "answer": r["answer"]}
                         for r in rows])
    store.delete_scores(run, "rigorous", "offline")


def test_a_row_is_read_with_one_judge_in_all_its_protocols(store):
    ids = add_items(store, [{"id": f"t/{i}", "answer_type": "yes_no", "answer": "Yes",
                             "domain": "D", "subtask": "s", "clues": CLUE} for i in range(4)])
    for run, model in (("a", "m"), ("b", "m2")):
        make_run(store, run, {i: "Clue 1: snow on the roof\nAnswer: Yes" for i in ids},
                 model=model)
        score_run(store, run, protocol="all")
    _strict_rigorous(store, "b")
    table = tables.drop_table(store, ["a", "b"])
    judges = {r["model"]: r["judge"] for r in table.rows}
    assert judges == {"m · CoT": "offline", "m2 · CoT": "offline"}, judges
    row = next(r for r in table.rows if r["model"] == "m2 · CoT")
    assert row["general"] == 100 and row["rigorous"] is None and row["drop"] is None
    assert "m2 · CoT has no rigorous scores by judge offline" in table.notes
    assert tables.JUDGES_DIFFER not in table.notes
