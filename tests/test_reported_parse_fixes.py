"""Defects a researcher reported in reading replies and in how unread ones are shown: each
test failed before its fix ("nothing unparsed is guessed")."""
from __future__ import annotations

import json

import pytest

from domain.extract import extract
from judges.clue_match import ClueMatch, rigorous_verdict
from judges.grounding import Grounding, grounded_verdict
from judges import llm
from judges.paper_tables import verbench_table
from judges.stats import verbench_summary
from runner.outcomes import from_failure
from scoring.offline import rule_verdict
from scoring import results
from store.runner_work import NO_SOURCE_CLUE
from tests.inspect_helpers import built, env  # noqa: F401 (fixtures)
from ui import experiments_runs as xr
from ui import inspect_browser as ib
from ui import inspect_handlers as ih
from ui.inspect_view import _matches

# -- 1. an `Answer:` line ends at its newline: a clue line after it is no part of the answer -

SNOW = "Clue 1: snow on the ground"


@pytest.mark.parametrize("reply", [
    f"Answer: winter\n{SNOW}", f"Final answer: winter\n{SNOW}", f"**Answer:** winter\n{SNOW}",
    f"# Answer: winter\n{SNOW}", f"Answer:\n\nwinter\n{SNOW}", f"\\boxed{{winter}}\n{SNOW}",
    f"<answer>winter</answer>\n{SNOW}", f"{SNOW}\nAnswer: winter\nClue 2: bare trees",
    '{"answer": "winter", "clues": [{"text": "snow on the ground"}]}'])
@pytest.mark.parametrize("complete", [True, False])
def test_an_answer_line_does_not_swallow_the_clue_line_after_it(reply, complete):
    """`Answer: winter\\nClue 1: snow on the ground` (gold Winter) was stored as "winter Clue
    1: snow on the ground" and left unscored."""
    assert extract(reply + "\n", "open", complete=complete).answer == "winter"


@pytest.mark.parametrize("answer_type", ["open", "numeric"])
def test_an_empty_answer_line_never_takes_the_clue_line_below_it(answer_type):
    found = extract("Answer:\nClue 1: 12 trees in the snow\n", answer_type)
    assert found.answer is None and found.status == "unparsed"


# -- 2. a hedged numeric reply without an answer statement is unparsed ------------------------

@pytest.mark.parametrize("reply", [
    "Let me read the label. So it is about 12.5 g, or maybe 13 g.",
    "It is 12.5 g, perhaps 13 g.", "The wait is 8-10 minutes.", "Roughly 12 to 13 g.",
    "Answer: about 12.5 g, or maybe 13 g."])
def test_two_candidate_numbers_are_no_answer(reply):
    """"…about 12.5 g, or maybe 13 g." (gold 12.8) was read as 13, judged wrong: a guess."""
    found = extract(reply, "numeric")
    assert found.answer is None and "ambiguous" in found.reason


def test_the_reason_names_every_number_offered():
    """"about 12 g, or 13 g, or maybe 14 g" said "offers 13 and 14": the reader saw three."""
    found = extract("It is about 12 g, or 13 g, or maybe 14 g.", "numeric")
    assert found.answer is None and found.reason.endswith("offers 12, 13 and 14")


@pytest.mark.parametrize("reply, number", [
    ("We count 3 cars, then 4 more, so 7 cars.", "7"),
    ("The label says 12.8 g. So it is 13 g.", "13"),
    ("It is 12.8 g, or 12.8 grams.", "12.8"), ("Answer: 30 cm (110 - 80)", "30")])
def test_one_number_clearly_the_answer_is_still_read(reply, number):
    assert extract(reply, "numeric").answer == number


# -- 3. VER-Bench: an unparsed reply is not "shown as correct", and its AC counts 0 ----------

JUDGED = json.dumps({"AC": 7, "CC": 6, "RQ": 6, "ER": 7, "reason": "ok"})


def test_an_unparsed_verbench_verdict_says_so_and_its_ac_counts_zero():
    """The rationale read "unparsed … ; AC 7 >= 5, shown as correct; average 6.5", score
    0.65, and fed AC 70 into `table --kind verbench` for a run mostly unparsed."""
    verdict = llm.verbench_ruled(llm.verbench_verdict("llm:j", "P", JUDGED))
    assert verdict.value == "unparsed"
    assert "shown as correct" not in verdict.reason and "AC counts 0" in verdict.reason
    assert verdict.details["subscores"] == {"AC": 0.0, "CC": 6, "RQ": 6, "ER": 7}
    assert verdict.details["judge_AC"] == 7 and verdict.score == pytest.approx(0.475)


def test_the_verbench_table_counts_unparsed_items_with_ac_zero():
    stored = json.dumps({"AC": 7, "CC": 6, "RQ": 6, "ER": 7})   # as scored before the fix
    assert results.counted_subscores("unparsed", stored)["AC"] == 0.0
    assert results.counted_subscores("correct", stored)["AC"] == 7
    items = [{**results.counted_subscores("unparsed", stored), "unparsed": True},
             {"AC": 8, "CC": 6, "RQ": 6, "ER": 7, "unparsed": False}]
    summary = verbench_summary(items, ci=False)
    assert summary["AC"] == pytest.approx(40.0) and summary["n"] == 2
    assert summary["unparsed"] == 1
    table = verbench_table({"a · CoT": summary})
    assert "Unparsed" in [c.title for c in table.columns] and table.rows[0]["unparsed"] == 1


# -- 4. an item never asked is not "answer not correct" --------------------------------------

def test_a_no_source_clue_row_says_it_was_not_asked():
    item = {"answer_type": "open", "answer": "Winter", "clues": [{"text": "snow"}]}
    response = {"status": "error", "reason": NO_SOURCE_CLUE + "r1 for this item"}
    general = rule_verdict(item, response)
    match = ClueMatch("lexical", 70.0, n_gt=1)
    for verdict in (rigorous_verdict(general, match),
                    grounded_verdict(general, match, Grounding(0.5, None))):
        assert verdict.value == "unscored"
        assert verdict.reason.startswith("not asked") and "not correct" not in verdict.reason


# -- 5. a cut reply's sentences are no model clues; a clue pass shows no answer --------------

def test_a_cut_reply_offers_no_sentences_as_clues():
    """Inspect offered "S1 Let me look at the image." as the model clue of a cut reply."""
    response = {"status": "truncated", "text": "Let me look at the image. I can see several "
                "details that matter here. Answer: B, becau", "clues": []}
    assert _matches([], response, [{"text": "the image"}]) == []
    table = ih.model_table({"response": response, "model_clues": []})
    assert "cut off" in table.data.iloc[0, 1]
    whole = {**response, "status": "ok", "text": response["text"] + "se.\n"}
    assert _matches([], whole, [{"text": "the image"}])   # a complete reply's still are


def test_a_clue_pass_row_shows_no_answer():
    """A clue pass row, "ok (clue pass)", showed the answer "A" read from its clue reply."""
    assert xr._answer_of({"phase": "clues", "answer": "A"}) is None
    assert xr._answer_of({"phase": "answer", "answer": "A"}) == "A"


# -- 6. Inspect's status is "no source clue", as every counter says -------------------------

def test_the_status_filter_has_no_source_clue_apart_from_error(env):
    """Rows never asked showed "error" (the error filter found them) while the counters
    said "error 0, no source clue 2"."""
    store, _ = env
    store.create_run("run-c", "cfg-run-c", {"setting": "direct", "clues": "run:run-a"}, {},
                     "e", [("answer", i, 0, 0, None, 1) for i in ("ui/alpha", "ui/beta")])
    work = {w["item_id"]: w["id"] for w in store.pending_work("run-c")}
    store.record_run_batch("run-c", "test", [
        from_failure(work["ui/alpha"], NO_SOURCE_CLUE + "run-a for this item"),
        from_failure(work["ui/beta"], "HTTP 500 from test")], [], {})

    def found(status):
        return ib.browse(store, ib.filters_from("run-c", *[None] * 4, status,
                                                *[None] * 11), "run order")

    assert "no source clue" in ib.STATUS_CHOICES
    assert found("no source clue")["ids"] == [work["ui/alpha"]]
    assert found("error")["ids"] == [work["ui/beta"]]
    assert found(ib.STATUS_CHOICES[1])["ids"] == [work["ui/beta"]]
    assert [row[4] for row in found(ib.ALL)["rows"]] == ["no source clue", "error"]


@pytest.mark.parametrize("reply, number", [
    ("Answer: 12,8 g", "12.8"), ("Answer: 12,80 €", "12.8"), ("Answer: 1,500 m", "1500"),
    ("It weighs 12,8 g.", "12.8"), ("Answer: 1,234,567", "1234567"), ("Answer: 3,14159", None)])
def test_a_decimal_comma_in_the_answer_is_read_as_the_gold_is(reply, number):
    """"Answer: 12,8 g" (gold 12.8) was read 12 and judged wrong in every run, while the
    editor reads the gold "12,8 g" as 12.8: one rule (domain/numbers.py); a comma followed by
    neither three digits nor one or two is no number, not a guess of its first part."""
    found = extract(reply, "numeric")
    assert found.answer == number, found.reason
