"""Reviewer round 29: the requests dropped on Cancel vanished from the run's totals. A
request was counted when its reply came, so the ones sent and abandoned in flight (a real
provider bills them) were never counted: cancelled with 16 requests at the server the run
said 8, and resumed it said "28 sent, 0 of them retries" while the server had 36. They are
counted when sent now, and once their items are asked again, as retries; their cost is
unknown and said so. Real SQLite, real HTTP to tests/openai_server.py."""
import time

from cli.run_show import show_text
from runner.engine import execute
from runner.totals import status_counts
from tests.test_runner_engine import chats, fake, items, server, steered_run  # noqa: F401


def test_requests_abandoned_on_cancel_are_counted_and_retried_on_resume(store, fake, items):
    run_id = steered_run(store, fake, items, latency=1.0, samples=8, action="cancel",
                         after=1.5)
    outcome = execute(store, run_id)
    assert outcome.status == "cancelled"
    time.sleep(0.3)                                  # the abandoned ones reach its log
    sent = len(chats(fake))
    t = store.get_run(run_id)["totals"]
    abandoned = t["requests"] - t["done"]
    assert abandoned >= 1 and t["abandoned"] == abandoned, t
    assert t["requests"] == sent, (t, sent)          # every request the server was sent
    assert f"{abandoned} of them were sent and not waited for" in outcome.message
    fake.configure(latency=0)
    again = execute(store, run_id)
    assert again.status == "done"
    t = store.get_run(run_id)["totals"]
    # the abandoned requests' items were asked again: each abandoned one is a retry
    assert (t["requests"], t["retries"], t["done"]) == (len(chats(fake)), abandoned, 8), t
    assert t["abandoned"] == abandoned
    run = store.get_run(run_id)
    run["counts"] = status_counts(t, status=run["status"])
    text = show_text(run)                            # `runs --show`
    assert f"{len(chats(fake))} sent, {abandoned} of them retries; {abandoned} of them " \
        "abandoned in flight (no reply: their cost is unknown" in text, text
