"""One account cannot make everybody else wait: under a login, each user may have at most
WAITING_PER_USER events waiting in Gradio's queue; a call beyond that is refused at once
(HTTP 503, a message saying why) instead of being queued.

Why: Gradio queues every call it is sent. An annotator who sent 150 searches at once kept
them all queued and running eight at a time, and a participant's one load_item, sent a
second later, took 16.9 s (a review on a 2-core machine). A page never has more than a few
events waiting, so the cap is never met by a person using the app. Single-user mode (no
login) has no user names and no cap. The Gradio internals this relies on (Queue.push and
its per-event-group lists of waiting events) are checked by tests/test_queue_share.py."""
from __future__ import annotations

import logging
import os

from ui.quiet_log import QuietLog, shown

log = QuietLog(logging.getLogger("cluelab.access"))

WAITING_PER_USER = 32
TOO_MANY = ("Too many requests at once from your account ({limit} are waiting); "
            "try again in a moment.")


def waiting_of(queue, username: str) -> int:
    """Events of `username` waiting (not yet running) in Gradio's queue."""
    return sum(1 for group in queue.event_queue_per_concurrency_id.values()
               for event in group.queue if event.username == username)


def cap_waiting_per_user(demo, limit: int | None = None) -> None:
    """Wrap the queue's push (what /queue/join and /call/<name> use) with the cap
    (CLUELAB_WAITING_PER_USER overrides WAITING_PER_USER)."""
    limit = limit or int(os.environ.get("CLUELAB_WAITING_PER_USER") or WAITING_PER_USER)
    queue = demo._queue
    push = queue.push

    async def capped_push(body, request, username):
        if username is not None and waiting_of(queue, username) >= limit:
            log.warning(("queue full", username),
                        f"refused a call of {shown(username)}: {limit} of their events are waiting")
            return False, TOO_MANY.format(limit=limit), "queue_full"
        return await push(body, request, username)

    queue.push = capped_push
