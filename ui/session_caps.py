"""One account may have at most MAX_LIVE_SESSIONS sessions of Gradio's queue held by the
server at once; a new one beyond them is refused (429, TOO_MANY) once the account's idle
ones were released.

Why: Gradio keeps a session's state (~0.95 MB: its copy of the pages' component configs and
gr.State values, domain/limits.py) for every session_hash an event is pushed with, and keeps
it after the session's heartbeat ended (an hour for its gr.State values, and the session
itself until 10,000 others came after it). Any signed-in account that POSTed
/gradio_api/queue/join with a fresh session_hash each time, and never opened a heartbeat,
grew the server by ~1 MB per request, up to ~10 GB (a security review).

How: `bind_sessions` (ui/session_owners.py) hands every push (/queue/join, POST
/gradio_api/call/<api>) to `SessionCaps.pushed`. A push into a session Gradio holds goes on
as before; one that starts a session (a session hash Gradio does not hold, or none: the
call's own) is counted. At the cap, the account's sessions that are idle are released first:
no heartbeat open (RouteAccess counts them: `heartbeat_counted`), no event queued or running,
and either every result read and SESSION_GRACE_S since its last use (a closed or reloaded
tab, a script's finished call; a session a call made at once: nothing uses it again) or
SESSION_IDLE_S since (a client that never reads its results). Counting closed tabs for
SESSION_IDLE_S locked a user out after ~30 page loads in 3 minutes (a review). Releasing deletes the session's state as
Gradio's own expiry does (StateHolder.delete_state runs each gr.State's delete callback) and
drops the session from Gradio's state holder and queue (`GradioSessions.release`); a page
that comes back to a released session starts afresh, as after Gradio's own expiry. If the
account is still at the cap, the push is refused, and nothing of it is kept.

Without a login (local mode) every session is the one local user's (LOCAL): the cap guards
the server's memory against a runaway script, and a person's tabs, each holding its
heartbeat, never meet it. CLUELAB_MAX_LIVE_SESSIONS and CLUELAB_SESSION_IDLE_S override the
limits. Listed in ui/workarounds.py (GRADIO_SESSIONS_UNBOUNDED).
"""
from __future__ import annotations

import logging
import os
import time
from collections import Counter
from dataclasses import dataclass

from fastapi import HTTPException
from gradio import caching

from domain.limits import MAX_LIVE_SESSIONS, SESSION_GRACE_S, SESSION_IDLE_S
from ui.quiet_log import QuietLog, shown

log = QuietLog(logging.getLogger("cluelab.access"))

LOCAL = ""
"""The account of every session without a login (local mode: one user)."""
TOO_MANY = ("Too many open sessions for your account: the server holds at most {limit} at "
            "once (each open tab or window of this app, or script, holds one). Close some of "
            "this app's other tabs or windows, or wait a few minutes, then reload the page.")


def blocks_of(scope):
    """The Gradio Blocks behind a request; None before the app is there."""
    try:
        return scope["app"].get_blocks()
    except Exception:  # noqa: BLE001 - no Gradio app behind yet: no session is named
        return None


class GradioSessions:
    """What Gradio keeps of a session (its Blocks' state holder and queue), asked and freed."""

    def __init__(self, blocks):
        self.blocks = blocks

    def held(self, session: str) -> bool:
        """Does Gradio hold the session (its messages or its state)?"""
        return (session in self.blocks._queue.pending_messages_per_session
                or session in getattr(self.blocks, "state_holder", ()))

    def running(self, session: str) -> bool:
        """Is an event of the session queued or running?"""
        queue = self.blocks._queue
        return any(event_id in queue.event_ids_to_events
                   for event_id in list(queue.pending_event_ids_session.get(session, ())))

    def unread(self, session: str) -> bool:
        """Has an event of the session a result nobody has read yet?"""
        return bool(self.blocks._queue.pending_event_ids_session.get(session))

    def release(self, session: str) -> None:
        """Its gr.State values deleted as Gradio's expiry deletes them, then the session
        dropped from the state holder and the queue (ui/workarounds.py,
        GRADIO_SESSIONS_UNBOUNDED)."""
        holder = getattr(self.blocks, "state_holder", None)
        if holder is not None:
            holder.delete_state(session)
            with holder.lock:
                holder.session_data.pop(session, None)
                holder.time_last_used.pop(session, None)
        queue = self.blocks._queue
        queue.pending_event_ids_session.pop(session, None)
        queue.pending_messages_per_session.pop(session, None)
        caching.clear_session_caches(session)


@dataclass
class Use:
    last: float
    """When an event was last pushed into it or its heartbeat last ended (monotonic)."""
    call: bool
    """Made for one call (POST /gradio_api/call/<api>): no other use follows its result."""


class SessionCaps:
    """The sessions each account started that Gradio still holds, and their heartbeats."""

    def __init__(self, gradio: GradioSessions, limit: int | None = None,
                 idle_s: float | None = None, clock=time.monotonic):
        self.gradio = gradio
        self.limit = limit or int(os.environ.get("CLUELAB_MAX_LIVE_SESSIONS")
                                  or MAX_LIVE_SESSIONS)
        self.idle_s = idle_s if idle_s is not None else float(
            os.environ.get("CLUELAB_SESSION_IDLE_S") or SESSION_IDLE_S)
        self.clock = clock
        self.uses: dict[str, dict[str, Use]] = {}
        self.starting: Counter = Counter()      # pushes under way that start a session
        self.heartbeats: Counter = Counter()    # open heartbeat streams per session

    async def pushed(self, account: str, body, push):
        """`await push()` (Gradio's push of `body`), counted: refused with a 429 when it
        would start a session beyond the account's cap."""
        session = body.session_hash
        if session is not None and self.gradio.held(session):
            self._seen(account, session)
            return await push()
        if self.live(account) >= self.limit:
            self.release_idle(account)
            if self.live(account) >= self.limit:
                log.warning(("sessions", account), f"refused a new session of "
                            f"{shown(account or 'the local user')}: {self.limit} are held")
                raise HTTPException(status_code=429,
                                    detail=TOO_MANY.format(limit=self.limit))
        self.starting[account] += 1
        try:
            return await push()
        finally:
            self.starting[account] -= 1
            if not self.starting[account]:
                del self.starting[account]
            if body.session_hash is not None and self.gradio.held(body.session_hash):
                self.uses.setdefault(account, {})[body.session_hash] = Use(
                    self.clock(), call=session is None)

    def live(self, account: str) -> int:
        """The account's sessions Gradio holds, and those being started; the others are
        forgotten."""
        uses = self.uses.get(account, {})
        for session in [s for s in uses if not self.gradio.held(s)]:
            del uses[session]
        if not uses:
            self.uses.pop(account, None)
        return len(uses) + self.starting[account]

    def release_idle(self, account: str) -> None:
        """Release the account's sessions no page or script uses (see the module's text)."""
        uses, now = self.uses.get(account, {}), self.clock()
        for session, use in list(uses.items()):
            if self.heartbeats[session] or self.gradio.running(session):
                continue
            read = not self.gradio.unread(session)
            if read and (use.call or now - use.last >= SESSION_GRACE_S) \
                    or now - use.last >= self.idle_s:
                self.gradio.release(session)
                del uses[session]

    def _seen(self, account: str, session: str) -> None:
        use = self.uses.get(account, {}).get(session)
        if use is not None:
            use.last = self.clock()

    def heartbeat_counted(self, session: str, answer):
        """`answer` (the heartbeat stream of `session`), counted open while it runs."""
        async def counted():
            self.heartbeats[session] += 1
            try:
                await answer()
            finally:
                self.heartbeats[session] -= 1
                if not self.heartbeats[session]:
                    del self.heartbeats[session]
                for uses in self.uses.values():
                    if session in uses:
                        uses[session].last = self.clock()
        return counted


def caps_of(blocks) -> SessionCaps | None:
    """The caps of `blocks`' sessions (made once per app); None for no Blocks."""
    if blocks is None:
        return None
    caps = blocks.__dict__.get("session_caps")
    if caps is None:
        caps = blocks.__dict__.setdefault("session_caps", SessionCaps(GradioSessions(blocks)))
    return caps


def heartbeat_counted(scope, answer):
    """`answer` for a request: a heartbeat's (GET /gradio_api/heartbeat/<session>) counted
    open while it runs, any other as it is."""
    parts = scope["path"].split("/")
    caps = caps_of(blocks_of(scope)) if parts[1:3] == ["gradio_api", "heartbeat"] \
        and len(parts) == 4 else None
    return answer if caps is None else caps.heartbeat_counted(parts[3], answer)
