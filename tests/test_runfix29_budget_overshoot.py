"""Reviewer round 29: a run went over its budget without saying so. Resumed with $0.004 it
stopped at $0.004786, a reply in flight longer than every one before, and its status said
"budget of $0.004 reached ... spent $0.0048 in all", never that the budget was exceeded. It
says by how much now. Real SQLite, real HTTP to tests/openai_server.py."""
from runner.dispatch import over_budget_text
from tests.test_runner_engine import chats, fake, items, launch, server  # noqa: F401


def test_a_run_stopped_over_its_budget_says_by_how_much(store, fake, items):
    ids = items(1)
    store.set_price("fake-vlm", 0.0, 1000.0)            # $0.001 per completion token
    # short replies, then one far longer than all of them, sent while the budget allowed it
    fake.configure(reply_queue=["Answer: A"] * 3 + ["Answer: A. " + "word " * 60])
    outcome = launch(store, ids, setting="direct", samples=10, execution={
        "budget": 0.05, "concurrency": 1})
    assert outcome.status == "stopped" and "budget" in outcome.message, outcome.message
    spent = outcome.totals["cost"]
    assert spent > 0.05, outcome.totals                 # the long reply took it over
    assert (f"spent ${spent:.4f} in all, ${spent - 0.05:.4f} over the budget (replies in "
            "flight when it was reached)") in outcome.message, outcome.message


def test_the_overshoot_is_said_only_when_there_is_one():
    assert over_budget_text(0.004, 0.004) == over_budget_text(0.0039, 0.004) == ""
    assert over_budget_text(None, 0.004) == over_budget_text(0.005, None) == ""
    assert over_budget_text(0.004786, 0.004) == (
        ", $0.0008 over the budget (replies in flight when it was reached)")
