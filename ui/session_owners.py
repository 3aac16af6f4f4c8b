"""A session of Gradio's queue, and every event in it, belongs to the account that opened it.

Why: Gradio hands an event's messages to whoever asks for its session (GET /gradio_api/
queue/data?session_hash=…) or its id (GET /gradio_api/call/<api>/<event id>), whoever is
logged in, and the first to ask takes them. A participant who learnt an annotator's event id
read the item it loaded (gold answer, aliases, clues, where its image lies on the server),
and the annotator's page never got it (an attacker's review). Gradio likewise keeps a
session's state and ends it when its heartbeat stream ends, for whoever opened that stream.

Session ids are made by the browser (a page load) or, for a call that names none, are the
event's id. The first account to open one (its heartbeat, its first event) owns it; every
other account is refused wherever a session or an event is named:
the heartbeat, the message stream, an event's result, media streams, a cancel (403, by
ui/gradio_hooks.RouteAccess) and joining the queue in it (403 too; `bind_sessions` checks a
push again), each
with the message ANOTHER_ACCOUNTS. Under no login (local mode) there is one user and
nothing to check.

Whatever the login, an id is what Gradio makes (GRADIO_ID) or the request is refused (400,
NOT_AN_ID) before anything keeps it: the table kept every id it was sent, 60 KB for a
60,000-character one. A GET /call/<api>/<event id> of an event the queue does not hold is
a 404 (NO_SUCH_EVENT): Gradio answered it a 200 with an error event, logged as a failure,
or, for one's own finished event, waited for good.
A read of the messages of a session Gradio does not hold (GET /gradio_api/queue/data) makes
it nobody's (it claimed the id for the reader, and its owner was then refused) and is
answered as Gradio answered it (a stream with one "session not found" error, which the page
takes for a lost connection), without Gradio: Gradio logged a failure for each one, a
flood of log lines at will; they are counted in one line a minute (`not_held`).
tests/test_session_owners.py fails if Gradio renames what this reads.
Listed in ui/workarounds.py (GRADIO_SESSIONS_OF_ANYONE). How many sessions an account
may have the server hold at once: ui/session_caps.py.
"""
from __future__ import annotations

import json
import logging
import re
from collections import OrderedDict
from typing import Callable
from urllib.parse import parse_qs

from ui.quiet_log import QuietLog, shown
from ui.session_caps import LOCAL, GradioSessions, blocks_of, caps_of

log = QuietLog(logging.getLogger("cluelab.access"))

MAX_SESSIONS = 100_000
"""Owners kept before the oldest sessions Gradio no longer holds are forgotten: each id is
at most MAX_ID characters (GRADIO_ID), so the table holds at most ~25 MB (~250 bytes an
entry); an id of any length made it grow ~60 KB per request of 60,000 characters."""
ANOTHER_ACCOUNTS = "That session belongs to another account; reload the page to start your own."
ANOTHER_ACCOUNTS_UPLOAD = ("That upload id belongs to another account's upload; upload the file "
                           "again from the page.")
MAX_ID = 64
GRADIO_ID = re.compile(r"[A-Za-z0-9_-]{1,%d}" % MAX_ID)
"""What Gradio makes: a page's session hash (Math.random().toString(36), ~11 of [0-9a-z]),
gradio_client's (a uuid4, 36 characters with '-'), an event id (uuid4().hex, 32)."""
NOT_AN_ID = (f"A session hash or an event id is 1 to {MAX_ID} letters, digits, '-' or '_' "
             "(what Gradio makes); this request names another.")
NO_SUCH_EVENT = {"detail": "No such event: this server holds no event of that id (it never "
                           "had it, or its result was read already)."}


class SessionOwners:
    """Who owns each session id; `live(session)`: does Gradio still hold it (its messages or
    its state)? A session still held is never forgotten."""

    def __init__(self, live: Callable[[str], bool], limit: int = MAX_SESSIONS):
        self.live = live
        self.limit = limit
        self.owners: OrderedDict[str, str] = OrderedDict()

    def allows(self, session: str, user: str) -> bool:
        """May `user` use `session` (theirs, or nobody's)? Nothing is claimed."""
        owner = self.owners.get(session) if is_gradio_id(session) else ""
        return owner is None or owner == user

    def claim(self, session: str, user: str) -> bool:
        """May `user` use `session`: theirs, or nobody's yet (then it becomes theirs). An id
        Gradio does not make is nobody's to use, and is not kept (the callers refuse it
        before: `unreadable_ids`)."""
        if not is_gradio_id(session):
            return False
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
        owners = blocks.__dict__.setdefault("session_owners",
                                            SessionOwners(GradioSessions(blocks).held))
    return owners


def event_session(queue, event_id: str) -> str:
    """The session of an event, as Gradio's GET /call/<api>/<event id> finds it: the event's,
    while it is held; the session still waiting for its completion; else the id itself."""
    event = queue.event_ids_to_events.get(event_id)
    if event is not None:
        return event.session_hash
    return next((s for s, ids in list(queue.pending_event_ids_session.items())
                 if event_id in ids), event_id)


def is_gradio_id(value) -> bool:
    return isinstance(value, str) and GRADIO_ID.fullmatch(value) is not None


def named_ids(scope, body: bytes = b"") -> list:
    """The session hashes and event ids a request names, as it names them (what the routes
    of `named_sessions` and POST /gradio_api/stream/<event id> read)."""
    route = scope["path"].split("/")[1:]
    if route[:1] != ["gradio_api"]:
        return []
    route = route[1:]
    if route[:1] == ["heartbeat"] and len(route) == 2:
        return [route[1]]
    if route in UPLOAD_ROUTES:
        query = scope.get("query_string", b"").decode("latin-1")
        return parse_qs(query, keep_blank_values=True).get("upload_id", [])
    if route == ["queue", "data"]:
        query = scope.get("query_string", b"").decode("latin-1")     # as Starlette reads it:
        return parse_qs(query, keep_blank_values=True).get("session_hash", [])  # "" is named
    if route[:1] == ["call"] and scope.get("method", "GET") == "GET" and len(route) in (3, 4):
        return [route[-1]]
    if route[:1] == ["stream"] and len(route) >= 2:
        return [route[1]]
    if route == ["queue", "join"]:          # refused at the door, as every other route is
        try:
            session = json.loads(body).get("session_hash")
        except (ValueError, AttributeError, RecursionError):
            return []                           # refused as unreadable before (body_json)
        return [session] if isinstance(session, str) else []
    if route in (["cancel"], ["reset"]):    # reset: a no-op in Gradio 6.31, but it said
        try:                                # "success" for another account's session
            wanted = json.loads(body)
            return [wanted["session_hash"], wanted["event_id"]]
        except (ValueError, KeyError, TypeError, RecursionError):
            return []               # Gradio answers a body it cannot read with a 422
    return []


UPLOAD_ROUTES = (["upload"], ["upload_progress"])
"""An upload's id (`?upload_id=`, made by the page, Math.random as a session hash is) names
its progress stream: Gradio gave the stream, the uploaded file's name and the owner's
progress updates (taken from the owner's bar) to any account that named the id, and ended
the owner's stream when that account went (an attacker's review). The first account to
name an id (the upload or its progress) owns it, as a session's (`foreign_upload`), in a
table of its own."""


def unreadable_ids(scope, body: bytes = b"") -> bool:
    """Does the request name a session or an event by an id Gradio never makes (a 60,000
    character one, say)? It is refused before anything keeps it."""
    return not all(is_gradio_id(value) for value in named_ids(scope, body))


def unheld_event(scope) -> bool:
    """Is this a GET /gradio_api/call/<api>/<event id> of an event the queue does not hold
    (none of that id, or one whose result was read)? Gradio answered a 200 with an error
    event and logged a failure, or, for one's own finished event, waited for good.

    An event is waiting to be read while its id is among its session's pending ids (the
    queue adds it on push and takes it out when a stream delivers the result). The queue's
    table of events is no sign: it keeps a finished event until its worker is done with it
    (after the result went out, past a thread hop), so a read just after the first one found
    the event there and waited for a result already taken (ui/workarounds.py,
    GRADIO_CALL_READ_WAITS)."""
    route = scope["path"].split("/")[2:]
    queue = _queue(scope)
    if queue is None or scope["path"].split("/")[1:2] != ["gradio_api"] or \
            route[:1] != ["call"] or scope.get("method") != "GET" or len(route) not in (3, 4):
        return False
    event_id = route[-1]
    return not any(event_id in ids for ids in list(queue.pending_event_ids_session.values()))


def named_sessions(scope, body: bytes = b"") -> list[str]:
    """The sessions a request names (Gradio's routes that read, stream, end or cancel one);
    every value of `?session_hash=mine&session_hash=theirs` (Gradio reads the last)."""
    queue, ids = _queue(scope), named_ids(scope, body)
    if queue is None or not ids:
        return []
    route = scope["path"].split("/")[2:]
    if route[:1] == ["call"]:
        return [event_session(queue, ids[0])]
    if route[:1] == ["stream"]:
        return ids if len(route) >= 4 else []
    if route in (["cancel"], ["reset"]):
        session, event_id = map(str, ids)
        pending = set(queue.pending_event_ids_session.get(session, ())) | {event_id}
        return [session, *{event_session(queue, i) for i in pending}]
    return ids


def foreign_upload(scope, user: str) -> bool:
    """Does the request (an upload or its progress) name an upload id another account named
    first? Upload ids are kept apart from sessions: a heartbeat under an upload's id (any
    account may send one, a participant too) claimed it, and the upload was refused (an
    attacker's review)."""
    blocks = blocks_of(scope)
    route = scope["path"].split("/")[2:]
    if blocks is None or route not in UPLOAD_ROUTES:
        return False
    owners = blocks.__dict__.get("upload_id_owners")
    if owners is None:
        owners = blocks.__dict__.setdefault("upload_id_owners",
                                            SessionOwners(lambda _: False))
    if all(owners.claim(upload, user) for upload in named_ids(scope)):
        return False
    log.warning(("another account's upload", user),
                f"refused {shown(user)}'s use of another account's upload id")
    return True


def foreign(scope, user: str, body: bytes = b"") -> bool:
    """Does the request name a session of another account than `user`? A heartbeat (a
    page's first request in its session) makes a session nobody had `user`'s. (Uploads:
    `foreign_upload`.)"""
    owners = owners_of(blocks_of(scope))
    route = scope["path"].split("/")[2:]
    if owners is None or route in UPLOAD_ROUTES:
        return False
    opens = route[:1] == ["heartbeat"]
    use = owners.claim if opens else owners.allows
    return not all(use(session, user) for session in named_sessions(scope, body))


def unheld_session(scope) -> bool:
    """Is this a GET /gradio_api/queue/data naming a session the queue does not hold?"""
    queue = _queue(scope)
    if queue is None or scope["path"].rstrip("/") != "/gradio_api/queue/data":
        return False
    ids = named_ids(scope)
    return bool(ids) and not all(
        i in queue.pending_messages_per_session for i in ids)


NOT_HELD = {"msg": "unexpected_error", "message": "404: Not Found",
            "session_not_found": True, "success": False}
"""Gradio's own answer to a read of a session it does not hold (routes.py, queue_data)."""


async def not_held(send, user: str) -> None:
    """Gradio's answer to a read of a session it does not hold, and at most one log line a
    minute for all of them, with their count."""
    log.warning(("no such session",), f"refused a read of a session this server does not "
                f"hold, by {shown(user)}")
    body = f"data: {json.dumps(NOT_HELD)}\n\n".encode()
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"text/event-stream; charset=utf-8"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def _queue(scope):
    blocks = blocks_of(scope)
    return getattr(blocks, "_queue", None)


def bind_sessions(demo) -> None:
    """Wrap the queue's push (/queue/join, POST /call/<api>): an event joins a session of
    its own account, or is refused; a session made for it (no session named) is its
    account's. A new session beyond the account's cap is refused (ui/session_caps.py). A
    push that names no event this app has is refused with a message (Gradio failed with a
    KeyError, a 500)."""
    queue = demo._queue
    owners, caps = owners_of(demo), caps_of(demo)
    push = queue.push

    async def bound_push(body, request, username):
        if body.session_hash is not None and not is_gradio_id(body.session_hash):
            return False, NOT_AN_ID, "error"
        if username is not None and body.session_hash is not None \
                and not owners.claim(str(body.session_hash), username):
            log.warning(("another account's session", username),
                        f"refused an event of {shown(username)} in another account's session")
            return False, ANOTHER_ACCOUNTS, "error"
        account = LOCAL if username is None else username
        try:
            answer = await caps.pushed(account, body, lambda: push(body, request, username))
        except KeyError:           # Gradio's lookup of the event (route_utils.get_fn)
            return False, f"This app has no event number {body.fn_index}.", "error"
        if username is not None and answer[0] and body.session_hash is not None:
            owners.claim(str(body.session_hash), username)
        return answer

    queue.push = bound_push
