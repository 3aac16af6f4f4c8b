"""Reviewer round 28: words. A first-pass reply with one clue read "1 clues read" in the
Inspect and Experiments response lists; the Results page's score headline said "llm:ep-a:
12 of 15 requests failed" of replies that came and could not be read, where the command
line says "12 failed (12 replies unreadable: …)"."""
from runner.outcomes import from_reply
from tests.inspect_helpers import built, env  # noqa: F401 (fixtures)
from scoring.judge_client import counts_text
from ui.score_summary import summary_md


def _clue_row(clues: str) -> dict:
    reply = {"text": f"Clues:\n{clues}\nAnswer: Yes", "finish_reason": "stop",
             "prompt_tokens": 1, "completion_tokens": 1}
    return from_reply(1, reply, "yes_no", None, cache_key="k", price_cost=None,
                      phase="clues")


def test_one_clue_read_is_one_clue():
    assert _clue_row("1. a red tag")["reason"] == "1 clue read"
    assert _clue_row("1. a red tag\n2. a blue sky")["reason"] == "2 clues read"


def test_the_results_headline_says_what_failed_as_the_command_line_does():
    judge = {"judge": "llm:ep-a", "requests": 15, "answered": 3, "cached": 0, "failed": 12,
             "unreadable": 11, "failures": {"HTTP 500": 1}}
    base = {"responses": 15, "written": 3, "notes": [], "values": {}}
    headline = summary_md([("a", {**base, "judges": [judge]})]).splitlines()[0]
    said = "(11 replies unreadable, 1 HTTP 500: unscored, not cached, so the next scoring " \
           "asks again)"
    assert f"12 failed {said}" in counts_text(judge)               # the command line
    shown = headline.replace("\\", "").replace("&#58;", ":")       # as the page reads it
    assert f"llm:ep-a: 12 of 15 requests failed {said}" in shown, headline


def test_the_headline_adds_up_a_judges_failures_over_runs():
    one = {"judge": "llm:j", "requests": 2, "answered": 0, "cached": 0, "failed": 2,
           "unreadable": 1, "failures": {"timed out": 1}}
    base = {"responses": 2, "written": 0, "notes": [], "values": {}}
    shown = summary_md([("a", {**base, "judges": [one]}), ("b", {**base, "judges": [one]})]
                       ).splitlines()[0].replace("\\", "").replace("&#58;", ":")
    assert "llm:j: 4 of 4 requests failed (2 replies unreadable, 2 timed out:" in shown, shown


def test_a_tag_on_one_response_says_one_response(env):     # noqa: F811 (a fixture)
    import pytest

    from store import ValidationError
    store, ids = env
    store.set_response_tags(ids["a"]["ui/alpha"], ["missed clue"], "alice")
    with pytest.raises(ValidationError) as refused:
        store.delete_failure_tag("missed clue", "bob")
    assert "is on 1 response; remove it from that response first" in str(refused.value), refused.value
