"""How much item history one account may add per hour (domain/limits.MAX_HISTORY_PER_HOUR).

Why: every save, restore, duplicate, deletion and reopening keeps a whole snapshot of the
item as a revision, and nothing bounded how often: an annotator saving maximal items (~4 MB
each) as fast as the server took them filled its disk at ~50 GB an hour (an attacker's
review). The store refuses a write of a revision by an account whose revisions of the last
hour already hold the limit, with SavingTooFastError saying when it may save again. Imports
(`create_item`, by admins and researchers) are not counted against it: a dataset is many
items at once. The sizes are read from the revisions themselves, so a restart forgets
nothing.

Every save pays for the check, so it reads no snapshot: each revision holds its `size`, and
an index on (author, created_at, size) sums an account's last hour from the index alone
(migration 0019). Before it, the check read every revision the account had made in the
hour, snapshot and all, and parsed each one's time: 5,000 saves of one item by one account
took ~57 ms a save at the end (a review; docs/PERFORMANCE.md, section 9). The times are
read one by one only when the sum reaches the limit (how long to wait).
"""
from __future__ import annotations

import time
from datetime import datetime, timezone

import sqlite_utils

from domain.limits import HISTORY_WINDOW_S, MAX_HISTORY_PER_HOUR, history_wait_s

from .db import rows, run_statements, scalar
from .errors import StoreError

STAMP = "%Y-%m-%dT%H:%M:%SZ"            # store/db.now()


class SavingTooFastError(StoreError):
    """The account added MAX_HISTORY_PER_HOUR of item history within the last hour."""

    def __init__(self, wait_s: float, now: float):
        again = datetime.fromtimestamp(now + wait_s, timezone.utc).strftime("%H:%M UTC")
        minutes = max(1, round(wait_s / 60))
        super().__init__(
            f"your account added {MAX_HISTORY_PER_HOUR // 1_000_000} MB of item "
            f"history (saved versions) in the last hour, the most one account may. Saving is "
            f"possible again at {again} (in about {minutes} minute{'s' if minutes != 1 else ''}).")
        self.wait_s = wait_s


def check(db: sqlite_utils.Database, author: str) -> None:
    """SavingTooFastError if `author`'s revisions of the last hour hold the limit."""
    now = time.time()
    since = datetime.fromtimestamp(now - HISTORY_WINDOW_S, timezone.utc).strftime(STAMP)
    total = scalar(db, "SELECT COALESCE(SUM(size), 0) FROM revisions WHERE author = ? AND "
                       "created_at >= ?", [author, since])
    if total < MAX_HISTORY_PER_HOUR:
        return
    recent = [(datetime.strptime(r["created_at"], STAMP).replace(tzinfo=timezone.utc)
               .timestamp(), r["size"])
              for r in rows(db, "SELECT created_at, size "
                                "FROM revisions WHERE author = ? AND created_at >= ? "
                                "ORDER BY created_at, id", [author, since])]
    wait = history_wait_s(recent, now, MAX_HISTORY_PER_HOUR)
    if wait is not None:
        raise SavingTooFastError(wait, now)


def m0019_revision_sizes(db: sqlite_utils.Database) -> None:
    """Migration 0019: each revision's size in bytes (its snapshot's JSON is ASCII: json.dumps
    escapes the rest), and an index that sums an account's last hour without reading the
    snapshots; it replaces index 0016's (author, created_at), of which it is an extension."""
    run_statements(db, """
    ALTER TABLE revisions ADD COLUMN size INTEGER NOT NULL DEFAULT 0;
    UPDATE revisions SET size = LENGTH(CAST(snapshot AS BLOB));
    CREATE INDEX idx_revisions_author_sizes ON revisions(author, created_at, size);
    DROP INDEX idx_revisions_author_time
    """)
