"""A call the access table refuses is refused at the queue's door, before it takes a place.

Why: GuardedBlocks (ui/gradio_hooks.py) refuses an event when the queue runs it, so a
refused call still joined the queue. A participant, who may call no event at all, kept 32
calls waiting (their cap, ui/queue_share.py), each refused in turn by a worker, and an
annotator's calls went from 0.08 s to 2-6 s; 600 joins at once gave 503s, 16 s waits and
one log line each (an attacker's review). Now POST /gradio_api/queue/join and POST
/gradio_api/call/<api> are answered by RouteAccess with a 403 carrying the access table's
refusal (as a page shows it: escaped, "not allowed for your role"), costing no place in the
queue, and the refusals are logged aggregated (ui/quiet_log.py). GuardedBlocks still checks
every event it runs (an act within an event, e.g. releasing an item, is decided there).
"""
from __future__ import annotations

import logging

from ui import access, messages
from ui.quiet_log import QuietLog, shown

JOIN = "/gradio_api/queue/join"
log = QuietLog(logging.getLogger("cluelab.access"))


def called_event(scope, value):
    """The event (Gradio's BlockFunction) a join (its body's fn_index; `value`: the body's
    JSON, read once by ui/body_json.py) or a POST /gradio_api/call/<api> names; None for any
    other request, or one Gradio will refuse itself (no such event, an unreadable body)."""
    if scope.get("method") != "POST":
        return None
    try:
        fns = scope["app"].get_blocks().fns
    except (KeyError, AttributeError):
        return None
    parts = scope["path"].rstrip("/").split("/")
    if scope["path"].rstrip("/") == JOIN:
        if not isinstance(value, dict):
            return None
        index = event_number(value.get("fn_index"))
        return fns.get(index) if index is not None else None
    if parts[1:3] == ["gradio_api", "call"] and len(parts) == 4:
        return next((fn for fn in fns.values() if fn.api_name == parts[3]), None)
    return None


def event_number(value) -> int | None:
    """The event number Gradio's request model reads from a join's fn_index: an int, and
    also the text "5", the number 5.0 or True (pydantic's lax int), which joined the queue
    unchecked here and were refused only when a worker ran them; None for what it refuses."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else None
    if isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            return None
        return int(number) if number.is_integer() else None
    return None


def refusal(scope, value, who: access.Caller) -> str | None:
    """The refusal of the call `scope` makes (`value`: its body's JSON), as its 403 says it;
    None: it may join."""
    fn = called_event(scope, value)
    reason = access.refusal(fn.api_name, who) if fn is not None else None
    if reason is None:
        return None
    log.warning(("refused at the queue", who.name),
                f"refused a call of {shown(fn.api_name)} by {shown(who.name)} at the queue "
                f"({shown(who.role)})", "more of this account's calls refused, of any event")
    return messages.as_toast_text(reason)
