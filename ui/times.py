"""Times as the Annotate page shows them: "2026-12-01 23:11 UTC", the same everywhere on the
page (item header, notices, history, reviews, conflicts), with the age beside it where a
list of past events is read ("2026-12-01 23:11 UTC · 3 h ago").

The store keeps UTC ISO strings ("2026-12-01T23:11:05Z", maybe with fractions of a second
or an offset); those are what scripts and the command line get. The page shows UTC rather
than the browser's local time: its tables and Markdown are drawn on the server, which does
not know the browser's zone, and one zone for every line of the page keeps them comparable.
Plain text: the callers escape it where they show it.
"""
from __future__ import annotations

import re
from datetime import datetime, timezone


def parsed(stamp) -> datetime | None:
    """The moment a stored time names (UTC when it names no zone), or None."""
    if isinstance(stamp, datetime):
        moment = stamp
    else:
        try:
            moment = datetime.fromisoformat(str(stamp).strip())
        except (TypeError, ValueError):
            return None
    return moment.replace(tzinfo=timezone.utc) if moment.tzinfo is None else moment


def shown(stamp) -> str:
    """"2026-12-01 23:11 UTC"; an empty stamp is ""; one that is no time stays as it is."""
    if stamp is None or str(stamp).strip() == "":
        return ""
    moment = parsed(stamp)
    if moment is None:
        return str(stamp)
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def age(stamp, now: datetime | None = None) -> str:
    """How long ago: "just now", "5 min ago", "3 h ago", "2 days ago" ("" for no time)."""
    moment = parsed(stamp)
    if moment is None:
        return ""
    seconds = ((now or datetime.now(timezone.utc)) - moment).total_seconds()
    if seconds < 60:
        return "just now"          # a clock a little ahead says so too, never "-3 s ago"
    minutes, hours, days = int(seconds // 60), int(seconds // 3600), int(seconds // 86400)
    if minutes < 60:
        return f"{minutes} min ago"
    if hours < 24:
        return f"{hours} h ago"
    return "1 day ago" if days == 1 else f"{days} days ago"


def shown_with_age(stamp, now: datetime | None = None) -> str:
    """"2026-12-01 23:11 UTC · 3 h ago" (the time alone when it cannot be read)."""
    when, ago = shown(stamp), age(stamp, now)
    return f"{when} · {ago}" if ago else when


_STAMP = re.compile(r"\b\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?")


def in_message(text: str) -> str:
    """A store's message with each stored time in it as the page shows times: "item x was
    deleted by bob at 2026-12-01T23:11:05.123456Z" reached the save bar as it was stored."""
    return _STAMP.sub(lambda m: shown(m.group(0)), str(text))
