"""Score's answer reads as a summary line and a table (researcher review: 'a wall of text'):
real runs scored in a real SQLite store through the page's handler."""
from tests.scoring_helpers import add_items, make_run
from ui import results_handlers as h


def test_score_says_its_totals_in_one_line_then_a_row_per_run_and_protocol(store):
    add_items(store, [{"id": f"s/{i}", "answer_type": "multiple_choice", "answer": "A",
                       "domain": "D", "subtask": "s"} for i in range(3)])
    make_run(store, "a", {"s/0": "Answer: A", "s/1": "Answer: B", "s/2": "no idea"})
    make_run(store, "b", {f"s/{i}": "Answer: A" for i in range(3)})
    store.label_run("b", name="Named run")
    lines = h.score_runs(store, ["a", "b"], [], "general").splitlines()
    assert lines[0] == "**Scored 2 runs**: 6 responses, 6 verdicts written."
    assert lines[2].startswith("| Run | Protocol · judge | Correct | Wrong | Unparsed |")
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in lines[4:6]]
    assert rows[0][0] == "m · CoT" and rows[0][2:7] == ["1", "1", "1", "0", "0"]
    assert rows[1][0] == "Named run" and rows[1][2:7] == ["3", "0", "0", "0", "0"]
    assert all("responses:" not in line for line in lines)     # no sentence of counts


def test_many_runs_scored_fold_their_table_under_the_headline(store):
    """Twelve runs x protocols x judges made 180 rows above the results: past a few rows the
    table and notes fold under the headline, which says how many rows they are."""
    add_items(store, [{"id": "s/0", "answer_type": "multiple_choice", "answer": "A",
                       "domain": "D", "subtask": "s"}])
    names = [f"r{i}" for i in range(10)]
    for name in names:
        make_run(store, name, {"s/0": "Answer: A"})
    text = h.score_runs(store, names, [], "general")
    head, _, rest = text.partition("\n")
    assert head == "**Scored 10 runs**: 10 responses, 10 verdicts written."
    assert "<details><summary>Each run's verdicts by protocol and judge (10 rows" in rest
    assert rest.rstrip().endswith("</details>") and rest.count("| m · CoT \\[r") == 10


def test_the_other_column_shows_only_when_a_row_has_another_value(store):
    """Every row's Other cell was empty, and the column stood there empty all the same. It
    shows when some row has a value outside the five counts (a split panel's 'split')."""
    from ui.score_summary import summary_md

    add_items(store, [{"id": "s/0", "answer_type": "multiple_choice", "answer": "A",
                       "domain": "D", "subtask": "s"}])
    make_run(store, "a", {"s/0": "Answer: A"})
    lines = h.score_runs(store, ["a"], [], "general").splitlines()
    assert lines[2] == "| Run | Protocol · judge | Correct | Wrong | Unparsed | Error | Unscored |"
    assert lines[3] == "|---|---|---|---|---|---|---|"
    assert lines[4] == "| m · CoT | general offline | 1 | 0 | 0 | 0 | 0 |"
    base = {"responses": 2, "written": 2, "judges": [], "notes": []}
    text = summary_md([("a", {**base, "values": {"verbench panel:x+y": {"correct": 1,
                                                                       "split": 1}}}),
                       ("b", {**base, "values": {}})])
    assert "| Unscored | Other |" in text and "| 1 | 0 | 0 | 0 | 0 | split 1 |" in text
    assert "| b | nothing scored | | | | | | |" in text


def test_a_judges_failed_requests_are_said_in_the_headline():
    """"Scored 3 runs: 42 responses, 84 verdicts written." after a judge whose every reply
    was unreadable: its failures were in the folded detail only (a review, round 19)."""
    from ui.score_summary import summary_md
    bad = {"judge": "llm:judge-bad", "requests": 1, "answered": 0, "cached": 0, "failed": 1,
           "unreadable": 1}
    good = {**bad, "judge": "llm:judge-good", "answered": 1, "failed": 0, "unreadable": 0}
    base = {"responses": 14, "written": 28, "notes": [], "values": {}}
    text = summary_md([("a", {**base, "judges": [bad, good]}), ("b", {**base, "judges": [bad]})])
    assert text.splitlines()[0] == (
        "**Scored 2 runs**: 28 responses, 56 verdicts written; llm&#58;judge\\-bad: 2 of 2 "
        "requests failed \\(2 replies unreadable&#58; unscored, not cached, so the next "
        "scoring asks again\\); each run's verdicts are below.")
    assert "judge-good" not in text.splitlines()[0]
