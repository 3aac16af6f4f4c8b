"""Review round 29, after No-CoT rigorous became n/a: `score` said a No-CoT run's rigorous
was n/a because "the run asked for no boxes"; Inspect listed its rigorous verdicts and its
Rigorous filter matched them; the drop table's Unscored rigorous read 0 beside its "–"; the
drop note counted right answers by response beside Unscored counting items; the leaderboard
caption named a run that limits nothing, in a second wording, and the n of a run that had
answers never scored was not its row's; `score`'s notes named a clue source run by its id;
the Results "Shown" line read "majority vote. over 3 repeats". Real SQLite, real scoring, the
real CLI and page handlers (a fake judge server over HTTP)."""
from __future__ import annotations

import io

import pandas as pd
import pytest

from judges.pairing import shared_items
from scoring.score_run import score_run
from scoring.tables import drop_table, leaderboard_table
from store import Store
from tests.openai_server import start_server
from tests.scoring_helpers import add_items, cli, make_run
from ui import inspect_browser as browser

CLUE = [{"text": "a red sign above the door", "reasoning": "", "boxes": []}]
REPLY = "Clue 1: a red sign above the door\nAnswer: A"
ITEMS = [{"id": f"demo/{i}", "answer_type": "multiple_choice", "answer": "A", "domain": "d",
          "subtask": "s", "clues": CLUE} for i in range(4)]


@pytest.fixture
def store(tmp_path):
    found = Store.open(tmp_path / "r29.db")
    ids = add_items(found, ITEMS)
    make_run(found, "cot", dict.fromkeys(ids, REPLY), model="mc", setting="cot")
    make_run(found, "nocot", dict.fromkeys(ids, REPLY), model="mx", setting="direct")
    for run in ("cot", "nocot"):
        score_run(found, run, protocol="all")
    yield found
    found.close()


def test_score_says_a_no_cot_run_asked_for_no_clues(store):
    code, out, err = cli("score", "--db", store.path, "--run", "nocot", "--protocol", "all")
    assert code == 0, err
    line = next(line for line in out.splitlines() if line.strip().startswith("rigorous"))
    assert "asked for no clues" in line and "boxes" not in line, line
    grounded = next(line for line in out.splitlines() if line.strip().startswith("grounded"))
    assert "asked for no boxes" in grounded, grounded
    from ui.score_summary import summary_md
    shown = summary_md([("mx", score_run(store, "nocot", protocol="all"))])
    row = next(line for line in shown.splitlines() if "rigorous offline" in line)
    assert "asked for no clues" in row and "boxes" not in row, row


def test_inspect_shows_no_cot_rigorous_as_a_dash_and_its_filter_does_not_apply(store):
    listed = browser.browse(store, browser.run_filters("nocot", "offline"), "run order")
    col = browser.HEADERS.index("rigorous")
    assert {row[col] for row in listed["rows"]} == {"–"}, listed["rows"]
    assert "rigorous –: not applicable, its run asked for no clues" in listed["count"]
    cot = browser.browse(store, browser.run_filters("cot", "offline"), "run order")
    assert {row[col] for row in cot["rows"]} == {"correct"}
    for run in ("nocot", None):
        filters = {**browser.run_filters(run, "offline"), "verdicts": {"rigorous": "correct"}}
        found = browser.browse(store, filters, "run order")
        assert {r[1] for r in found["rows"]} <= {"mc · CoT"}, found["rows"]
        assert "does not apply to mx · No\\-CoT" in found["count"], found["count"]
    from ui.inspect_view import response_view   # the response's verdict table
    work = listed["ids"][0]
    verdicts = {v["protocol"]: v for v in response_view(store, work)["verdicts"]}
    assert verdicts["rigorous"]["value"] == "–" and "asks for no clues" in \
        verdicts["rigorous"]["rationale"]


def test_drop_table_unscored_rigorous_is_a_dash_for_a_no_cot_run(store):
    table = drop_table(store, ["cot", "nocot"])
    rows = {row["run_id"]: row for row in table.rows}
    assert rows["nocot"]["unscored_rigorous"] is None and rows["nocot"]["unscored_grounded"] \
        is None, rows["nocot"]
    assert rows["cot"]["unscored_rigorous"] == 0
    line = next(line for line in table.to_markdown().splitlines() if "mx · No-CoT" in line)
    assert "| 4 | 0 | – | – |" in line, line          # n, Unscored general, rigorous, grounded
    cells = table.to_latex().split("No-CoT")[1].split("\\\\")[0].split("&")
    assert cells[-3].strip() == "--", cells        # Unscored rigorous: an en dash, not 0
    code, out, err = cli("table", "--db", store.path, "--kind", "drop", "--runs", "cot,nocot",
                         "--format", "csv")
    assert code == 0, err
    found = {r["run_id"]: r for r in pd.read_csv(io.StringIO(out)).to_dict("records")}
    assert pd.isna(found["nocot"]["unscored_rigorous"]), found["nocot"]
    assert found["cot"]["unscored_rigorous"] == 0


def test_the_drop_note_counts_items_not_responses(tmp_path):
    store = Store.open(tmp_path / "rep.db")
    ids = add_items(store, ITEMS)
    make_run(store, "rep", {i: [REPLY] * 4 for i in ids}, repeats=4)
    score_run(store, "rep", protocol=["general"])
    with start_server(default_reply="I cannot say.") as judge:     # no clue verdict
        store.add_endpoint("clue-bad", judge.url, "gpt-4o-mini")
        score_run(store, "rep", protocol=["general", "rigorous"], judges=["clue-bad"])
    table = drop_table(store, ["rep"], judge="llm:clue-bad")
    assert "4 items with a right answer have no clue verdict" in table.notes, table.notes
    assert "16" not in table.notes.split("with a right answer")[0][-20:], table.notes
    store.close()


def test_the_caption_names_only_what_limits_n_with_the_rows_n():
    shared = shared_items({"a": set(range(14)), "b": set(range(10)), "c": set(range(12))},
                          asked={"a": 14, "b": 14, "c": 14})
    said = shared.caption({"a": 10, "b": 5, "c": 10})
    assert "run b covers 10 of its 14 items" in said and "run c" not in said, said
    assert " has " not in said and "its row's n is 5" in said, said
    assert "run c" not in shared_items({"a": set(range(14)), "b": set(range(10)),
                                        "c": set(range(12))},
                                       asked={"a": 14, "b": 14, "c": 14}).caption()


def test_a_leaderboard_caption_with_a_stopped_run(store):
    make_run(store, "short", {i["id"]: REPLY for i in ITEMS[:2]}, model="ms", asked=4)
    make_run(store, "part", {i["id"]: REPLY for i in ITEMS[:3]}, model="mp", asked=4)
    for run in ("short", "part"):
        score_run(store, run, protocol="general")
    table = leaderboard_table(store, ["cot", "short", "part"])
    assert "ms · CoT covers 2 of its 4 items" in table.caption, table.caption
    assert "mp" not in table.caption, table.caption


def test_score_notes_name_a_clue_source_run_by_its_label(tmp_path):
    store = Store.open(tmp_path / "src.db")
    ids = add_items(store, ITEMS)
    src = "20261208-005015-8998"
    make_run(store, src, dict.fromkeys(ids, REPLY), model="mx", setting="direct")
    store.label_run(src, name="deadline2")
    make_run(store, "inj", {i: None if i == ids[0] else REPLY for i in ids},
             clues=f"run:{src}")
    with store.atomic():     # as the engine records an answer not asked (runner_work)
        store.db.conn.execute(f"UPDATE run_responses SET reason = 'no clues from run {src}: "
                              "its reply listed none' WHERE run_id = 'inj' AND status = 'error'")
    with start_server(default_reply="I cannot say.") as judge:
        store.add_endpoint("judge", judge.url, "gpt-4o-mini")
        notes = score_run(store, "inj", protocol=["general", "rigorous"], judges=["judge"])[
            "notes"]
    said = " ".join(notes)
    assert "no clues from run deadline2" in said and src not in said, notes
    store.close()


def test_the_shown_line_is_sentences():
    from ui.text import sentences

    assert sentences(["judge offline, samples rule majority vote",
                      "over 3 repeats (n 5): 20.00 ± 0.00"]) == \
        "judge offline, samples rule majority vote. Over 3 repeats (n 5): 20.00 ± 0.00."
    assert sentences(["judge x", "Answers read by y.", "over 2 repeats"]) == \
        "judge x. Answers read by y. Over 2 repeats."
    assert sentences(["judge x, samples rule majority vote"]) == \
        "judge x, samples rule majority vote"


def test_the_results_shown_line_of_a_run_with_repeats(store):
    from scoring import tables
    from ui.results_handlers import reading_lines

    make_run(store, "rep3", {i["id"]: [REPLY, "Answer: B", REPLY] for i in ITEMS}, model="mr",
             repeats=3)
    score_run(store, "rep3", protocol="general")
    found = tables.summaries(store, ["rep3"])
    line = reading_lines(store, found, {"rep3": "mr · CoT"})
    assert "majority vote. Over 3 repeats" in line, line
    assert ". over" not in line and ".." not in line, line


def test_inspects_grounded_filter_does_not_apply_to_runs_that_asked_for_no_boxes(store):
    """Its Grounded filter matched the stored grounded verdicts of runs that asked for no
    boxes, whose grounded every table shows n/a (left after round 29)."""
    for run in ("cot", None):
        filters = {**browser.run_filters(run, "offline"), "verdicts": {"grounded": "wrong"}}
        found = browser.browse(store, filters, "run order")
        assert found["total"] == 0, found["rows"]
        assert "the grounded filter does not apply to" in found["count"], found["count"]
        assert "mc · CoT" in found["count"]
