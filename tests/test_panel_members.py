"""A judge panel one of whose members never answered: Results named it as a panel
('panel:j1+j2') while each of its verdicts was one judge's (Inspect: '1 of 1 judges'). The
tables, the report and the downloads now say how many members answered, and a panel only
one member answered is shown by that member's name, 'alone'."""
import html
import json

import pytest

from scoring.panel_members import count_answers, shown_judge
from scoring.score_run import score_run
from scoring.tables import drop_table, main_table
from tests.openai_server import start_server
from tests.scoring_helpers import add_items, cli, make_run

ITEMS = [{"id": "t/1", "answer_type": "multiple_choice", "answer": "A", "domain": "A",
          "subtask": "a"},
         {"id": "t/2", "answer_type": "open", "answer": "Paris", "domain": "B", "subtask": "b",
          "clues": [{"text": "Eiffel Tower", "reasoning": "", "boxes": []}]},
         {"id": "t/3", "answer_type": "open", "answer": "Rome", "domain": "B", "subtask": "b"}]
REPLIES = {"t/1": "Answer: A", "t/2": "Clue 1: the Eiffel Tower\nAnswer: the French capital",
           "t/3": "Answer: the Italian capital"}
JUDGE = {"Model's answer: the French capital": '{"verdict": "correct", "reason": "Paris"}',
         "Model's answer: the Italian capital": '{"verdict": "correct", "reason": "Rome"}',
         "Ground-truth clues:": '{"clues": [{"model_clue": 1, "label": "match", "gt_clue": 1}]}'}


@pytest.fixture(scope="module")
def servers():
    # the second judge's replies are the server's default ("Answer: A"): never readable
    with start_server(replies=JUDGE) as good, start_server() as mute:
        yield good, mute


@pytest.fixture
def panel_run(store, servers):
    good, mute = servers
    add_items(store, ITEMS)
    make_run(store, "r1", REPLIES)
    store.add_endpoint("j1", good.url, "gpt-4o-mini")
    store.add_endpoint("j2", mute.url, "fake-vlm")
    result = score_run(store, "r1", protocol="all", judges=["j1", "j2"])
    # `score` said nothing of it: the panel's counts were j1's, as if a majority decided
    assert "general panel:j1+j2: 2 of 3 verdicts rest on one member's vote (the others' " \
        "calls failed or their replies could not be read), not a majority; scoring again " \
        "asks the failed calls again" in result["notes"]
    return "r1"


def test_a_panel_one_member_answered_is_shown_as_that_member_alone(store, panel_run):
    table = main_table(store, ["r1"], judge="panel:j1+j2")
    row = table.rows[0]
    assert row["judge"] == "llm:j1 alone (panel:j1+j2: 1 of 2 answered)"
    assert row["judges_answered"] == "1 of 2"
    assert "answered: llm:j1 2, llm:j2 0" in table.notes and "not a panel majority" in table.notes
    exported = json.loads(table.to_json())
    assert exported["rows"][0]["judges_answered"] == "1 of 2"
    assert "1 of 2 answered" in table.to_csv() and "not a panel majority" in table.to_markdown()
    drop = drop_table(store, ["r1"], judge="panel:j1+j2")
    assert "llm:j1 alone (panel:j1+j2: 1 of 2 answered)" in drop.rows[0]["judge"]
    code, out, _ = cli("report", "--db", store.path, "--run", "r1")
    assert code == 0 and "judge llm:j1 alone (panel:j1+j2: 1 of 2 answered)" in out
    code, out, _ = cli("report", "--db", store.path, "--run", "r1", "--json")
    report = json.loads(out)
    assert report["judge"] == "panel:j1+j2" and report["judges_answered"] == "1 of 2"


def test_the_results_page_says_how_many_members_answered(store, panel_run):
    from ui.results_handlers import exported_tables, show_results

    shown = show_results(store, ["r1"])
    assert "llm:j1 alone (panel:j1+j2: 1 of 2 answered)" in shown["table"]["Judge"].tolist()
    rules = html.unescape(shown["rules"]).replace("\\", "")
    assert "judge llm:j1 alone (panel:j1+j2: 1 of 2 answered)" in rules
    assert "not a panel majority" in rules
    path, _ = exported_tables(store, ["r1"], "general", "main", "csv")
    assert "1 of 2" in open(path, encoding="utf-8-sig").read()


def test_counting_members_that_answered():
    members = ["llm:a", "llm:b"]
    votes = {1: {"llm:a": "correct", "llm:b": "correct"},      # rule-decided: nobody replied
             2: {"llm:a": "correct", "llm:b": "unscored"},
             3: {"llm:a": "wrong", "llm:b": "correct"}}
    replied = {("llm:a", 2), ("llm:a", 3), ("llm:b", 3)}
    answers = count_answers(members, votes, replied)
    assert answers == {"members": members, "answered": {"llm:a": 2, "llm:b": 1},
                       "judged": 2, "alone": 1}
    # response 2 rests on llm:a alone: '2 of 2 answered' by itself read as a majority
    assert shown_judge("panel:a+b", answers) == \
        "panel:a+b (2 of 2 answered; 1 of 2 verdicts rest on 1)"
    assert shown_judge("panel:a+b", {**answers, "alone": 0}) == "panel:a+b (2 of 2 answered)"
    assert shown_judge("llm:a", None) == "llm:a"


def test_a_panel_no_member_was_asked_says_rules_decided_not_that_none_answered():
    answers = {"members": ["llm:a", "llm:b"], "answered": {"llm:a": 0, "llm:b": 0},
               "judged": 0, "alone": 0, "asked": 0}
    assert shown_judge("panel:a+b", answers) == \
        "panel:a+b (no judge asked: rules decided every verdict)"
    assert shown_judge("panel:a+b", {**answers, "asked": 3}) == "panel:a+b (none of 2 answered)"


VERBENCH = '{"AC": 8, "CC": 6, "RQ": 4, "ER": 10, "reason": "close"}'


def test_a_member_whose_reply_could_not_be_read_did_not_answer(store, servers):
    """VER-Bench asks the judge about an unparsed reply too. The mute member's unreadable
    reply there was stored with the verdict 'unparsed' (no answer read) and its reply kept,
    so it counted as an answer: the Judge cell said '2 of 2 answered' while the note under
    the table said the verdicts rest on one member. A member answered only where its reply
    was read (VER-Bench: its four sub-scores)."""
    from scoring.tables import verbench_results

    good, mute = servers
    good.configure(replies={**JUDGE, "AC (answer correctness)": VERBENCH})
    try:
        add_items(store, ITEMS + [{"id": "t/4", "answer_type": "multiple_choice",
                                   "answer": "B", "domain": "A", "subtask": "a"}])
        make_run(store, "r1", {**REPLIES, "t/4": "I cannot tell from this picture."})
        store.add_endpoint("j1", good.url, "gpt-4o-mini")
        store.add_endpoint("j2", mute.url, "fake-vlm")
        score_run(store, "r1", protocol="verbench", judges=["j1", "j2"])
    finally:
        good.configure(replies=JUDGE)
    [row] = verbench_results(store, ["r1"], judge="panel:j1+j2").rows
    assert row["judge"] == "llm:j1 alone (panel:j1+j2: 1 of 2 answered)"
    assert row["judges_answered"] == "1 of 2"
