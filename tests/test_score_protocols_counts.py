"""`score`'s protocols and counts: several --protocol are all scored (only the last was), and
the model's unparsed replies are "unparsed" under every protocol while a judge's failure is
counted and named as the judge's, the same way under every protocol (VER-Bench counted the
model's unparsed replies whose judge reply was unreadable as unscored, and its table read a
real-looking 0.0 on the two refusals left). Real store, real fake judge server, real CLI."""
from __future__ import annotations

import json

from tests import test_scoring as base
from tests.test_scoring import cli

server, scored = base.server, base.scored     # its fixtures: the judge server, run r1


def test_several_protocols_are_all_scored(store, scored):
    code, out, err = cli("score", "--db", store.path, "--run", "r1", "--protocol", "rigorous",
                         "--protocol", "grounded", "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["protocols"] == ["rigorous", "grounded"]
    assert {"rigorous offline", "grounded offline"} <= set(result["values"])
    assert {j["protocol"] for j in store.score_judges("r1")} == {"rigorous", "grounded"}
    code, _, err = cli("score", "--db", store.path, "--run", "r1", "--protocol", "general",
                       "--protocol", "verbench")
    assert code == 2 and "needs an LLM judge" in err


def test_the_models_unparsed_and_the_judges_failures_are_counted_apart_everywhere(
        store, scored, server):
    """A judge whose VER-Bench replies cannot be read (and one open answer's reply, under
    general). r1: t/1 correct, t/2 unparsed (two final letters), t/3 wrong, t/4 the request
    failed (error: zeros by rule), t/5 and t/6 open. The unparsed reply is unparsed under
    general and verbench alike; the judge's failures are unscored and named as the judge's,
    by reason, in one form under both; the VER-Bench table counts t/2 Unparsed as `score`
    does (it read "Unparsed 0, Unscored 5§, 1 of them unparsed"), and its row marks that it
    rests on the zeros of the error and of the unparsed reply only."""
    from scoring.tables import verbench_results

    server.configure(replies={**base.JUDGE, "AC (answer correctness)": "I cannot grade this."})
    try:
        store.add_endpoint("vb-bad", server.url, "gpt-4o-mini")
        code, out, err = cli("score", "--db", store.path, "--run", "r1", "--judge", "vb-bad",
                             "--protocol", "general", "--protocol", "verbench", "--no-cache")
        as_json = json.loads(cli("score", "--db", store.path, "--run", "r1", "--judge",
                                 "vb-bad", "--protocol", "verbench", "--json")[1])
    finally:
        server.configure(replies=base.JUDGE)
    assert code == 0, err
    assert "general llm:vb-bad: 6 responses: correct 2, wrong 1, unparsed 1, error 1, " \
        "unscored 1" in out      # t/6: the judge's unreadable reply; t/5 correct by the judge
    assert "verbench llm:vb-bad: 6 responses: correct 0, wrong 0, unparsed 1, error 1, " \
        "unscored 4" in out      # t/2 stays unparsed; t/1, t/3, t/5, t/6: the judge failed
    assert "general llm:vb-bad: the judge failed on 1 response (1 reply unreadable): it is " \
        "unscored;" in err
    assert "verbench llm:vb-bad: the judge failed on 4 responses (4 replies unreadable): " \
        "they are unscored;" in err
    assert "got no sub-scores, the judge's reply unreadable" not in err     # the mixed note
    assert as_json["judge_failures"]["verbench llm:vb-bad"] == {
        "by_reason": {"reply unreadable": 4}}
    rows = {r["item_id"]: r for r in store.run_scores("r1", "verbench", "llm:vb-bad",
                                                       full=True)}
    assert rows["t/2"]["value"] == "unparsed" and rows["t/2"]["judge_prompt"] is None
    table = verbench_results(store, ["r1"], judge="llm:vb-bad")
    [row] = table.rows
    assert (row["n"], row["unparsed"], row["unscored"], row["judge_failed"]) == (2, 1, 4, 4)
    assert row["n"] + row["unscored"] == 6                  # every item, as `score`'s line
    assert row["average"] == 0.0 and row["_flags"]["average"] == "§"   # not a real zero
    assert row["_flags"]["unscored"] == "§"
    [note] = [f for f in table.footnotes if f.startswith("§")]
    assert "4 of its 6 items are unscored because the judge failed on them" in note
    assert "unparsed replies" not in note and "rest on the other 2 (n 2)" in note
    assert "| 1 | 4§ |" in table.to_markdown()
    assert "14.0§" not in table.to_markdown()


def test_a_panel_keeps_an_unparsed_reply_unparsed_and_its_failed_member_votes_nothing():
    """Under verbench a member that failed on an unparsed reply holds the model's "unparsed"
    (not unscored): it must not count as a vote or as an answer of that judge's."""
    from judges.agreement import panel_vote
    from judges.verdict import Verdict

    failed = Verdict("unparsed", judge="llm:a", prompt="p", reply="??",
                     details={"judge_failed": "reply unreadable"})
    graded = Verdict("unparsed", judge="llm:b", prompt="p", reply="{}", score=0.3,
                     details={"subscores": {"AC": 0.0, "CC": 4.0, "RQ": 4.0, "ER": 4.0}})
    both = panel_vote({"llm:a": failed, "llm:b": failed}, "panel:a+b")
    assert both.value == "unparsed" and both.details["judge_failed"] == "reply unreadable"
    one = panel_vote({"llm:a": failed, "llm:b": graded}, "panel:a+b")
    assert one.value == "unparsed" and one.details["subscores"]["CC"] == 4.0
    assert "judge_failed" not in one.details
