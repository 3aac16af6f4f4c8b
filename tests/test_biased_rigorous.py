"""Rigorous accuracy biased low by an unreadable clue judge is marked wherever it is shown:
`score` said so, but the Results tables, the report, the CSV/JSON downloads and the charts
showed the low number bare (a review saw 0.00, n 8, with the right answers unscored)."""
import json

import pytest

from scoring.score_run import score_run
from scoring.tables import drop_table, main_table
from tests.openai_server import start_server
from tests.scoring_helpers import add_items
from tests.test_scoring import ITEMS, JUDGE, REPLIES, cli, make_run


@pytest.fixture(scope="module")
def server():
    with start_server(replies={**JUDGE, "Ground-truth clues:": "no idea"}) as handle:
        yield handle


@pytest.fixture
def unread(store, server):
    # t/3 answered wrong, with GT clues: rigorous holds a value (0 of 1) beside the right
    # answer (t/5) the clue judge left unscored; with no value there is nothing to mark
    add_items(store, [{**item, "clues": [{"text": "a sign reading OPEN", "reasoning": "",
                                          "boxes": []}]} if item["id"] == "t/3" else item
                      for item in ITEMS])
    make_run(store, "r1", REPLIES)
    store.add_endpoint("clue-bad", server.url, "gpt-4o-mini")
    score_run(store, "r1", protocol="all", judges=["clue-bad"])
    return store


def test_tables_report_and_exports_mark_the_biased_rigorous_accuracy(unread):
    store = unread
    table = main_table(store, ["r1"], protocol="rigorous", judge="llm:clue-bad")
    [row] = table.rows
    assert row["unread_right_answers"] == 1
    assert "†" in table.to_markdown() and "biased low" in table.notes
    csv_head = table.to_csv().splitlines()[0]
    assert "unread_right_answers" in csv_head
    assert json.loads(table.to_json())["rows"][0]["unread_right_answers"] == 1
    assert "\\dagger" in table.to_latex()
    drop = drop_table(store, ["r1"], judge="llm:clue-bad")
    # the drop table hides a drop over the answers the judge read (inj17): "–", its own
    # footnote, and no "biased low" mark on no value
    assert drop.rows[0]["rigorous"] is None and "biased low" not in drop.notes
    assert "1 item with a right answer has no clue verdict from llm:clue-bad" in drop.notes
    code, out, _ = cli("report", "--db", store.path, "--run", "r1", "--protocol", "rigorous",
                       "--judge", "clue-bad")
    assert code == 0 and "†" in out and "biased low" in out
    code, out, _ = cli("report", "--db", store.path, "--run", "r1", "--protocol", "rigorous",
                       "--judge", "clue-bad", "--json")
    assert json.loads(out)["unread_right_answers"] == 1
    # general accuracy is not marked: no clue judge reads it
    general = main_table(store, ["r1"], protocol="general", judge="llm:clue-bad")
    assert "unread_right_answers" not in general.to_csv() and "†" not in general.to_markdown()


def test_the_results_page_charts_mark_the_biased_run(unread):
    from ui.results_handlers import show_results

    shown = show_results(unread, ["r1"], protocol="rigorous", judge="llm:clue-bad")
    assert "†" in shown["group_chart"] and "biased low" in shown["group_chart"]
    assert "biased low" not in shown["drop_chart"]           # its drop is hidden: "–"
    assert "1 item with a right answer has no clue verdict" in shown["drop_chart"]
    assert "biased low" in shown["rules"]


def test_the_footnote_says_it_plainly_with_its_numbers_agreeing(unread):
    """`table --protocol rigorous` read "1 right answer the clue judge was asked about and
    whose reply could not be read or named no clue of the reply: they are unscored"."""
    from scoring.biased import note

    code, out, err = cli("table", "--db", unread.path, "--runs", "r1", "--judge", "clue-bad",
                         "--protocol", "rigorous")
    assert code == 0, err
    assert ": 1 item with a right answer unscored: the clue judge gave no verdict on it, its reply " \
           "unreadable (never cached: scoring again asks the judge again) or every clue it " \
           "extracted missing from the reply (a readable reply, cached: score --no-cache " \
           "asks the judge afresh" in " ".join(out.split()), out
    assert "Only right answers are left out, so the accuracy is biased low." in out
    assert "1 item with a right answer unscored; b: 2 items with a right answer unscored: the clue judge " \
           "gave no verdict on each" in note({"a": 1, "b": 2}, "rigorous")
