"""At most N costly things of one kind in progress per account (exports, image decodes).

Why: the queue runs 8 events at once for everyone; one account that starts many exports (each
writing a copy of the dataset) or adds many huge images (each decoding up to 1 GB of pixels)
held every worker and the disk or memory meant for all. A second try while the account's
slots are taken is refused at once with a message, not queued: the first one's result is
what the user is waiting for.
"""
from __future__ import annotations

import threading
from collections import Counter
from contextlib import contextmanager
from typing import Iterator


class SlotsTaken(Exception):
    """The account already has its limit of this kind of work in progress."""


class AccountSlots:
    def __init__(self, limit: int, one: str, many: str):
        self.limit = limit
        self.what = one if limit == 1 else many      # "an image being read", "2 downloads…"
        self._held: Counter = Counter()
        self._lock = threading.Lock()

    @contextmanager
    def held(self, account: str) -> Iterator[None]:
        """One of `account`'s slots for the duration; SlotsTaken if none is free."""
        with self._lock:
            if self._held[account] >= self.limit:
                raise SlotsTaken(f"{account} already has {self.what}, as many as an "
                                 f"account may have at once; wait until "
                                 f"{'it is' if self.limit == 1 else 'one is'} done and try again")
            self._held[account] += 1
        try:
            yield
        finally:
            with self._lock:
                self._held[account] -= 1
                if not self._held[account]:
                    del self._held[account]


IMAGE_READS = AccountSlots(1, "an image being read", "images being read")
"""Images added from the Annotate page (Add image, an option's image, a new item's images):
each is decoded in full, up to CLUELAB_DECODE_MB (1 GB) of memory, with all decodes of the
server sharing that budget (store/decode.py). One account at a time: a 14100x14100 PNG of
600 KB takes ~0.9 GB for seconds, and an account adding many at once held queue workers, all
waiting on that budget, that every other user's events needed."""
