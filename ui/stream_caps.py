"""One account cannot hold the server's connections: at most MAX_OPEN_STREAMS answers that
stay open (ui/access.STREAMS: heartbeats, event messages, results read by a script, upload
progress) per account at once; one more is refused at once with a 429 saying why.

Why: Gradio streams a heartbeat for as long as the client listens, for any session hash it
is sent, and the message stream of a session likewise. A signed-in participant who opened
thousands of heartbeats of made-up sessions held a file descriptor each until the process
had none left: logins were refused for everyone, and the accept loop logged "Too many open
files" without end (an attacker's review). A page holds one heartbeat and at most one
message stream, so a person with a dozen tabs is far below the cap.

The count is per account under a login, per client address without one (local mode: one
user on loopback); a request refused before it reaches Gradio is not counted.
CLUELAB_MAX_OPEN_STREAMS overrides the limit.
"""
from __future__ import annotations

import logging
import os
from collections import Counter

from domain.limits import MAX_OPEN_STREAMS
from ui import access
from ui.quiet_log import QuietLog, shown

log = QuietLog(logging.getLogger("cluelab.access"))

TOO_MANY = ("Too many open connections from your account: {limit} streams (page heartbeats "
            "and event messages, about two per open tab) are open already. Close some of "
            "this app's tabs or scripts, then try again.")


def is_stream(scope) -> bool:
    """Is this a GET of a route whose answer may stay open?"""
    return scope.get("type") == "http" and scope.get("method") == "GET" and \
        access.route_entry(scope["path"]) in access.STREAMS


class StreamCaps:
    """Open streams per holder (an account's name, or ("address", ip))."""

    def __init__(self, limit: int | None = None):
        self.limit = limit or int(os.environ.get("CLUELAB_MAX_OPEN_STREAMS") or
                                  MAX_OPEN_STREAMS)
        self.open: Counter = Counter()

    def refusal(self, holder) -> dict | None:
        """The 429's body when `holder` has `limit` streams open, else None."""
        if self.open[holder] < self.limit:
            return None
        log.warning(("streams", holder), f"refused a stream of {shown(holder)}: "
                                         f"{self.limit} of theirs are open")
        return {"detail": TOO_MANY.format(limit=self.limit)}

    async def held(self, holder, answer) -> None:
        """Await `answer()` (the stream, until it ends) counted as one of `holder`'s."""
        self.open[holder] += 1
        try:
            await answer()
        finally:
            self.open[holder] -= 1
            if not self.open[holder]:
                del self.open[holder]


def holder_of(scope, user: str | None):
    """Whose count a request is in: its account's; without a login, its address's."""
    return user or ("address", (scope.get("client") or ("",))[0])
