"""How much one account may keep as drafts (domain/limits.MAX_DRAFTS_BYTES, MAX_DRAFTS).

Why: a draft may be up to MAX_DRAFT (4 MB) and is written at every edit, but nothing bounded
how many drafts one account kept: an annotator autosaving maximal drafts of 40 duplicated
items wrote 100 MB in 7 s, and drafts are no revisions, so the hourly history bound
(store/save_budget.py) never saw them. The store refuses a draft write that would take an
account's drafts past either limit, with DraftsFullError saying how much they hold and what
to do (save the items or discard their drafts). Nothing is deleted: the drafts kept stay, and
so do the edits on the page, which a save stores as usual. A write that does not grow the
draft (a smaller one over the same item) is always taken, so an account over a lowered limit
can still shrink.

Every autosave pays for the check, so it reads no draft's data: each row holds its `size`
and an index on (user, item_id, size) answers from the index alone (migration 0017).
Measured with 16 drafts of 4 MB kept: summing the sizes from the rows took ~40 ms per
autosave (LENGTH of the data, or a `size` column after it: SQLite walks each draft's overflow
pages to reach it); from the index, ~0.01 ms (~0.4 ms for an account's 1,000 drafts).
"""
from __future__ import annotations

import sqlite_utils

from domain.item_ids import shown_id
from domain.limits import MAX_DRAFTS, MAX_DRAFTS_BYTES

from .db import one, rows, run_statements
from .errors import StoreError

LARGEST_NAMED = 3
"""How many of the account's largest drafts the refusal names (there is no list of one's
drafts on the page: the names say which items to open)."""


class DraftsFullError(StoreError):
    """The account's drafts hold MAX_DRAFTS_BYTES or MAX_DRAFTS drafts; nothing was written."""

    def __init__(self, item_id: str, count: int, total: int, size: int,
                 largest: list[dict], by_count: bool):
        if by_count:
            held = (f"your account keeps drafts of {count:,} item{'s' if count != 1 else ''},"
                    f" the most one account may (MAX_DRAFTS)")
        else:
            held = (f"your account's drafts of {count:,} item{'s' if count != 1 else ''} "
                    f"hold {_mb(total)}, and one account may keep at most "
                    f"{_mb(MAX_DRAFTS_BYTES)} of drafts (MAX_DRAFTS_BYTES); this one is "
                    f"{_mb(size)}")
        named = ", ".join(f"{shown_id(d['item_id'])} ({_mb(d['size'])})" for d in largest)
        super().__init__(
            f"{held}. Save the items you edited, or discard the drafts you no longer need, "
            f"to make room (the largest: {named}). Nothing saved is lost, and the edits of "
            f"{shown_id(item_id)} stay on this page until you save them or leave it.")
        self.item_id, self.count, self.total = item_id, count, total


def check(db: sqlite_utils.Database, user: str, item_id: str, size: int) -> None:
    """DraftsFullError if `user`'s draft of `item_id`, `size` bytes, would take their drafts
    past the limits. Call inside the write's transaction (the sums stay true until it ends)."""
    held = one(db, "SELECT COUNT(*) AS count, COALESCE(SUM(size), 0) AS total, "
                   "SUM(CASE WHEN item_id = ? THEN size END) AS old "
                   "FROM drafts WHERE user = ?", [item_id, user])
    count, total, old = held["count"], held["total"], held["old"]
    if old is not None and size <= old:          # no growth: always taken
        return
    by_count = count + (old is None) > MAX_DRAFTS
    if not by_count and total - (old or 0) + size <= MAX_DRAFTS_BYTES:
        return
    largest = rows(db, "SELECT item_id, size FROM drafts WHERE user = ? "
                       "ORDER BY size DESC, item_id LIMIT ?", [user, LARGEST_NAMED])
    raise DraftsFullError(item_id, count, total, size, largest, by_count)


def _mb(size: int) -> str:
    return f"{size / 1_000_000:,.1f} MB"


def m0017_draft_sizes(db: sqlite_utils.Database) -> None:
    """Migration 0017: each draft's size in bytes (its JSON is ASCII: json.dumps escapes the
    rest), and an index that sums one account's drafts without reading them."""
    run_statements(db, """
    ALTER TABLE drafts ADD COLUMN size INTEGER NOT NULL DEFAULT 0;
    UPDATE drafts SET size = LENGTH(CAST(data AS BLOB));
    CREATE INDEX idx_drafts_user_sizes ON drafts(user, item_id, size)
    """)
