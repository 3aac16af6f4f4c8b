"""Log lines a client can cause, each value it chose made harmless, and repeats aggregated.

Why: a participant's 600 refused joins wrote 600 log lines, and a user name with a CR/LF in
it (`user add` took one) wrote lines of its own into the log. Every log line that carries a
user name or another value a client gave passes it through `shown` (control, invisible and
text-direction characters written as escapes: domain/item_ids.visible, the item ids' rule),
and a refusal a client can repeat at will goes through `QuietLog`: the first of its kind
(per key, e.g. the reason and the account) is logged at once, the others of the next
EVERY_S seconds are counted and said on the next line of that kind.
"""
from __future__ import annotations

import logging
import time
from collections import Counter

from domain.item_ids import visible

EVERY_S = 60.0
MAX_KEYS = 10_000
"""Kinds of line remembered at most (the oldest forgotten first): a bound on memory."""


def shown(value) -> str:
    """A client-given value as a log line may carry it: on one line, every character seen."""
    return visible(str(value))


class QuietLog:
    """`warning(key, text)`: `text` logged at most once per `every_s` seconds per `key`,
    with the count of those held back since the last one."""

    def __init__(self, log: logging.Logger, every_s: float = EVERY_S):
        self.log = log
        self.every_s = every_s
        self.last: dict = {}
        self.held: Counter = Counter()

    def warning(self, key, text: str, held: str = "more like it") -> None:
        """`held`: what the held-back lines were, said with their count: a key per account
        held back its other events' refusals too, and "(and 60 more like it)" after
        "refused a call of inspect_open" said they were all that one."""
        now = time.monotonic()
        last = self.last.get(key)
        if last is not None and now - last < self.every_s:
            self.held[key] += 1
            return
        more = self.held.pop(key, 0)
        self.last.pop(key, None)
        self.last[key] = now
        while len(self.last) > MAX_KEYS:
            self.held.pop(oldest := next(iter(self.last)), None)
            del self.last[oldest]
        self.log.warning("%s%s", text, f" (and {more} {held} since the last such line)"
                         if more else "")
