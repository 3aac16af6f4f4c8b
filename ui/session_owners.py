"""A session of Gradio's queue, and every event in it, belongs to the account that opened it.

Why: Gradio hands an event's messages to whoever asks for its session (GET /gradio_api/
queue/data?session_hash=…) or its id (GET /gradio_api/call/<api>/<event id>), whoever is
logged in, and the first to ask takes them. A participant who learnt an annotator's event id
read the item it loaded (gold answer, aliases, clues, where its image lies on the server),
and the annotator's page never got it (an attacker's review). Gradio likewise keeps a
session's state and ends it when its heartbeat stream ends, for whoever opened that stream.

Session ids are made by the browser (a page load) or, for a call that names none, are the
event's id. The first account to use one (its heartbeat, its first event, a read of its
messages) owns it; every other account is refused wherever a session or an event is named:
the heartbeat, the message stream, an event's result, media streams, a cancel (403, fixed
body, by ui/gradio_hooks.RouteAccess) and joining the queue in it (400 with a message, by
`bind_sessions`). Under no login (local mode) there is one user and nothing to check.
tests/test_session_owners.py fails if Gradio renames what this reads.
Listed in ui/workarounds.py (GRADIO_SESSIONS_OF_ANYONE).
"""
from __future__ import annotations

import json
import logging
from collections import OrderedDict
from typing import Callable
from urllib.parse import parse_qs

log = logging.getLogger("cluelab.access")

MAX_SESSIONS = 100_000
"""Owners kept before the oldest sessions Gradio no longer holds are forgotten (a few MB)."""
ANOTHER_ACCOUNTS = "That session belongs to another account; reload the page to start your own."


class SessionOwners:
    """Who owns each session id; `live(session)`: does Gradio still hold it (its messages or
    its state)? A session still held is never forgotten."""

    def __init__(self, live: Callable[[str], bool], limit: int = MAX_SESSIONS):
        self.live = live
        self.limit = limit
        self.owners: OrderedDict[str, str] = OrderedDict()

    def claim(self, session: str, user: str) -> bool:
        """May `user` use `session`: theirs, or nobody's yet (then it becomes theirs)."""
        owner = self.owners.get(session)
        if owner is None:
            self.owners[session] = user
            self._forget_old()
            return True
        self.owners.move_to_end(session)
        return owner == user

    def _forget_old(self) -> None:
        if len(self.owners) <= self.limit:
            return
        for session in list(self.owners)[:len(self.owners) - self.limit * 9 // 10]:
            if not self.live(session):
                del self.owners[session]


def owners_of(blocks) -> SessionOwners | None:
    """The owners of `blocks`' sessions (made once per app); None for no Blocks."""
    if blocks is None:
        return None
    owners = blocks.__dict__.get("session_owners")
    if owners is None:
        queue = blocks._queue

        def live(session: str) -> bool:
            return (session in queue.pending_messages_per_session
                    or session in getattr(blocks, "state_holder", ()))
        owners = blocks.__dict__.setdefault("session_owners", SessionOwners(live))
    return owners


def event_session(queue, event_id: str) -> str:
    """The session of an event, as Gradio's GET /call/<api>/<event id> finds it: the event's,
    while it is held; the session still waiting for its completion; else the id itself."""
    event = queue.event_ids_to_events.get(event_id)
    if event is not None:
        return event.session_hash
    return next((s for s, ids in list(queue.pending_event_ids_session.items())
                 if event_id in ids), event_id)


def named_sessions(scope, body: bytes = b"") -> list[str]:
    """The sessions a request names (Gradio's routes that read, stream, end or cancel one)."""
    parts = scope["path"].split("/")[1:]
    method = scope.get("method", "GET")
    queue = _queue(scope)
    if queue is None or parts[:1] != ["gradio_api"]:
        return []
    route = parts[1:]
    if route[:1] == ["heartbeat"] and len(route) == 2:
        return [route[1]]
    if route == ["queue", "data"]:
        # every value: Gradio reads the last of `?session_hash=mine&session_hash=theirs`
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        return query.get("session_hash", [])
    if route[:1] == ["call"] and method == "GET" and len(route) in (3, 4):
        return [event_session(queue, route[-1])]
    if route[:1] == ["stream"] and len(route) >= 4:
        return [route[1]]
    if route == ["cancel"]:
        try:
            wanted = json.loads(body)
            session, event_id = str(wanted["session_hash"]), str(wanted["event_id"])
        except (ValueError, KeyError, TypeError):
            return []               # Gradio answers a body it cannot read with a 422
        ids = set(queue.pending_event_ids_session.get(session, ())) | {event_id}
        return [session, *{event_session(queue, i) for i in ids}]
    return []


def foreign(scope, user: str, body: bytes = b"") -> bool:
    """Does the request name a session of another account than `user`?"""
    owners = owners_of(_blocks(scope))
    return owners is not None and not all(
        owners.claim(session, user) for session in named_sessions(scope, body))


def _blocks(scope):
    app = scope.get("app")
    try:
        return app.get_blocks()
    except Exception:  # noqa: BLE001 - no Gradio app behind yet: no session is named
        return None


def _queue(scope):
    blocks = _blocks(scope)
    return getattr(blocks, "_queue", None)


def bind_sessions(demo) -> None:
    """Wrap the queue's push (/queue/join, POST /call/<api>): an event joins a session of
    its own account, or is refused; a session made for it (no session named) is its
    account's. A push that names no event this app has is refused with a message (Gradio
    failed with a KeyError, a 500)."""
    queue = demo._queue
    owners = owners_of(demo)
    push = queue.push

    async def bound_push(body, request, username):
        if username is not None and body.session_hash is not None \
                and not owners.claim(str(body.session_hash), username):
            log.warning("refused an event of %s in another account's session", username)
            return False, ANOTHER_ACCOUNTS, "error"
        try:
            answer = await push(body, request, username)
        except KeyError:           # Gradio's lookup of the event (route_utils.get_fn)
            return False, f"This app has no event number {body.fn_index}.", "error"
        if username is not None and answer[0] and body.session_hash is not None:
            owners.claim(str(body.session_hash), username)
        return answer

    queue.push = bound_push
