"""The drop table's "–" for a run scored under the general protocol only: the cells were
empty with no word under the table (read as n/a, or as a failure). The notes say which run
has no rigorous (or grounded) scores and how to score them, on the page in its own words."""
import html

from scoring import tables
from scoring.score_run import score_run
from tests.scoring_helpers import add_items, make_run

CLUE = [{"text": "snow on the roof", "reasoning": "", "boxes": []}]


def test_a_run_scored_under_general_only_is_said_under_the_drop_table(store):
    ids = add_items(store, [{"id": f"t/{i}", "answer_type": "yes_no", "answer": "Yes",
                             "domain": "D", "subtask": "s", "clues": CLUE} for i in range(4)])
    make_run(store, "full", {i: "Clue 1: snow on the roof\nAnswer: Yes" for i in ids})
    make_run(store, "bare", {i: "Answer: Yes" for i in ids}, model="m2",
             setting="structured")          # asks for boxes: its grounded-rigorous applies
    score_run(store, "full", protocol="all")
    score_run(store, "bare", protocol="general")
    table = tables.drop_table(store, ["full", "bare"])
    row = next(r for r in table.rows if r["model"] == "m2 · Structured")
    assert row["rigorous"] is None and row["drop"] is None      # shown as "–"
    assert ("Not scored: m2 · Structured has no rigorous or grounded scores (scored under general "
            "only): its Rigorous, Drop and Grounded-rigorous cells are – (to score them: "
            "python app.py score --run bare --protocol all") in table.notes
    assert "m · CoT has no" not in table.notes                   # the whole run: no word
    from ui import results_handlers as h

    chart = html.unescape(h.show_results(store, ["full", "bare"])["drop_chart"])
    assert "m2 · Structured has no rigorous or grounded scores" in chart     # under the page's chart
    assert "(to score them: choose the run under Runs, set Protocol to score to all and " \
        "press Score)" in chart


def test_runs_with_the_same_gap_share_one_sentence(store):
    """Ten runs scored under general only were ten copies of one sentence."""
    ids = add_items(store, [{"id": f"t/{i}", "answer_type": "yes_no", "answer": "Yes",
                             "domain": "D", "subtask": "s", "clues": CLUE} for i in range(2)])
    make_run(store, "full", {i: "Clue 1: snow on the roof\nAnswer: Yes" for i in ids})
    score_run(store, "full", protocol="all")
    for n in (2, 3, 4):
        make_run(store, f"bare{n}", {i: "Answer: Yes" for i in ids}, model=f"m{n}",
                 setting="structured")
        score_run(store, f"bare{n}", protocol="general")
    table = tables.drop_table(store, ["full", "bare2", "bare3", "bare4"])
    assert table.notes.count("scores (scored under general only)") == 1, table.notes
    assert ("m2 · Structured, m3 · Structured and m4 · Structured have no rigorous or grounded scores (scored "
            "under general only): their Rigorous, Drop and Grounded-rigorous cells are – "
            "(to score them: python app.py score --run bare2 --protocol all, then the same "
            "for each of the others)") in table.notes


def test_a_judge_named_by_its_endpoint_is_named_and_asked_again_in_the_note(store):
    """`table --kind drop --judge judge`: the note said "no rigorous scores by judge judge"
    and its command ("score --run X --protocol rigorous") left the judge out: it would write
    offline verdicts, and the judge's cells would stay "–"."""
    from scoring.drop_not_scored import _sentence, judge_to_name
    assert judge_to_name(store, "x", {}, "judge") == "llm:judge"
    assert judge_to_name(store, "x", {}, "offline") == "offline"
    assert judge_to_name(store, "x", {}, "panel:a+b") == "panel:a+b"
    said = _sentence(["m · CoT"], "x", False, ("rigorous",), ("general",), "llm:judge")
    assert "by judge llm:judge" in said and "--protocol rigorous --judge judge" in said
