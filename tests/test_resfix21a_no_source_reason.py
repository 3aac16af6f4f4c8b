"""A clue-injection run whose source run had no clues for some items, scored rigorous and
general (and grounded, VER-Bench) with a judge: the general note named the true reason of
the unscored responses ("not asked, not this run's error: no clues from run …"), rigorous
said "6 answer unscored: an open answer no judge decided", though the stored rationale was
right. Now every protocol's note names the reason the responses were not asked. Real
SQLite, real scoring, real HTTP to the fake judge server."""
from scoring.score_run import score_run
from tests.openai_server import start_server
from tests.scoring_helpers import add_items, make_run

GT = [{"text": "the red bus", "reasoning": "", "boxes": []}]
ITEMS = [{"id": f"n/{i}", "answer_type": "multiple_choice", "answer": "A", "domain": "D",
          "subtask": "s", "clues": GT} for i in range(8)]
NOT_ASKED = [f"n/{i}" for i in range(6)]


def test_every_protocol_names_the_missing_source_clue(store):
    add_items(store, ITEMS)
    ids = [i["id"] for i in ITEMS]
    make_run(store, "src", {i: "Clue 1: the red bus\nAnswer: A" for i in ids}, model="mx",
             setting="clue_guided")
    make_run(store, "inj", {i: None if i in NOT_ASKED else "The red bus.\nAnswer: A"
                            for i in ids}, clues="run:src")
    with store.atomic():     # as the engine records an answer not asked (runner_work)
        store.db.conn.execute("UPDATE run_responses SET reason = 'no clues from run src: "
                              "its reply listed none' WHERE run_id = 'inj' AND status = 'error'")
    with start_server(default_reply="I cannot say.") as judge:
        store.add_endpoint("judge", judge.url, "gpt-4o-mini")
        result = score_run(store, "inj", protocol=["rigorous", "general", "grounded",
                                                   "verbench"], judges=["judge"])
    notes = result["notes"]
    assert not any("open answer no judge decided" in n for n in notes), notes
    for protocol in ("general", "rigorous", "grounded", "verbench"):
        note = next((n for n in notes if n.startswith(f"{protocol} llm:judge: ")
                     and "unscored, by reason" in n), None)
        assert note is not None, (protocol, notes)
        assert ("6 not asked, not this run's error: no clues from run src: its reply listed "
                "none") in note, note
