"""Per-user drafts: unsaved edits kept in the database so a refresh or crash loses nothing.

A draft is keyed by (user, item_id) and remembers the version it was based on, so the UI can
tell the user when the item has moved on since (and show `diff_items(draft, saved)`). The data
is stored as given (any JSON dict, possibly invalid as an item): it is work in progress.

One user may have the item open in two browser tabs (always so in local mode, where everyone
is `local`). Each write says which browser session made it and which revision of the draft
that session last saw: a session that did not see the latest write (another tab's) gets a
DraftConflict instead of replacing it, and the user chooses which tab's edits to keep.
"""
from __future__ import annotations

import json
import time

import sqlite_utils

from domain.item_ids import shown_id
from domain.limits import MAX_COMMENT, MAX_DRAFT, MAX_ITEM_ID, too_long

from . import draft_budget
from .db import atomic, now, one, rows
from .errors import StoreError, TooLargeError, ValidationError
from .item_limits import over_limit


class DraftConflict(StoreError):
    """Another browser session wrote the draft since this one last saw it."""

    def __init__(self, item_id: str, updated_at: str, revision: int):
        super().__init__(f"another tab or window changed the draft of {item_id} at {updated_at}")
        self.item_id, self.updated_at, self.revision = item_id, updated_at, revision


_PARTS = {"dataset": "", "domain": None, "subtask": None, "reasoning_type": None,
          "question": "", "answer": "", "gt_reasoning": "", "aliases": [], "problems": [],
          "images": [], "options": [], "clues": [], "metadata": {}}


def _over_item_limits(data: dict) -> str | None:
    """What of a draft is over the item's own limits (a 3.9 MB question was kept as a draft
    at every keystroke, the question's limit being 20,000 characters), or None. A draft of
    another shape (a script's) is the save's to refuse."""
    view = {**_PARTS, **{k: v for k, v in data.items() if k in _PARTS and v is not None}}
    try:
        found = over_limit(view)
    except (KeyError, TypeError, AttributeError):
        return None
    return found[1] if found else None


def save_draft(db: sqlite_utils.Database, user: str, item_id: str, base_version: int | None,
               data: dict, session: str | None = None, seen: int | None = None,
               force: bool = False, comment: str | None = None) -> int:
    """Create or replace the user's draft of `item_id`; returns the draft's new revision.

    `comment` is the revision comment typed with the edits, kept with them (it was lost at
    a reload that brought the edits back); None keeps the one stored (an event that changes
    the item itself does not read the comment box).

    `session` names the browser session writing, `seen` the draft revision it last read or
    wrote. Refused with DraftConflict when the stored draft was written by another session
    and is not the revision this one saw, unless `force` (the user chose this tab's edits).
    Without a session (scripts, tests) the write always replaces. Refused with
    DraftsFullError when the user's drafts would pass their limits (store/draft_budget.py)."""
    try:
        encoded = json.dumps(data)
    except (TypeError, ValueError) as e:
        raise ValidationError(f"draft {item_id}: data: not JSON-serialisable ({e})",
                              item_id, "data") from e
    found = too_long("Item id", len(item_id or ""), MAX_ITEM_ID) \
        or too_long("Draft (as JSON)", len(encoded), MAX_DRAFT) or _over_item_limits(data)
    if found:       # a draft is kept at every keystroke: bounded as the item it becomes
        raise TooLargeError(f"draft {shown_id(item_id)}: data: {found}", item_id, "data", found)
    # the comment as it is stored, spaces and all: checked stripped, 6,000,001 characters of
    # spaces around a "Z" were kept and sent back at every reload
    if found := too_long("the revision comment", len(comment or ""), MAX_COMMENT):
        raise TooLargeError(f"{found}: shorten it", item_id, "comment", found)
    with atomic(db):
        row = _check_owner(db, user, item_id, session, seen, force)
        kept = comment if comment is not None else (row or {}).get("comment")
        size = len(encoded) + len((kept or "").encode())    # the JSON is ASCII
        draft_budget.check(db, user, item_id, size)
        # a clock reading, not a counter from 1: a draft deleted and written again never
        # repeats a revision some tab saw before
        revision = max(time.time_ns(), (row["revision"] if row else 0) + 1)
        db.execute("INSERT INTO drafts (user, item_id, base_version, data, updated_at, session, "
                   "revision, size, comment) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                   "ON CONFLICT(user, item_id) "
                   "DO UPDATE SET base_version = excluded.base_version, data = excluded.data, "
                   "updated_at = excluded.updated_at, session = excluded.session, "
                   "revision = excluded.revision, size = excluded.size, "
                   "comment = excluded.comment",
                   [user, item_id, base_version, encoded, now(), session, revision,
                    size, kept or ""])
    return revision


def get_draft(db: sqlite_utils.Database, user: str, item_id: str) -> dict | None:
    """{base_version, data, updated_at, session, revision, comment} or None."""
    row = one(db, "SELECT base_version, data, updated_at, session, revision, comment "
                  "FROM drafts WHERE user = ? AND item_id = ?", [user, item_id])
    if row is None:
        return None
    return {"base_version": row["base_version"], "data": json.loads(row["data"]),
            "updated_at": row["updated_at"], "session": row["session"],
            "revision": row["revision"], "comment": row["comment"] or ""}


def m0008_draft_sessions(db: sqlite_utils.Database) -> None:
    """Migration 0008: which browser session wrote each draft, and a write counter."""
    db.execute("ALTER TABLE drafts ADD COLUMN session TEXT")
    db.execute("ALTER TABLE drafts ADD COLUMN revision INTEGER NOT NULL DEFAULT 1")


def m0021_draft_comments(db: sqlite_utils.Database) -> None:
    """Migration 0021: the revision comment typed with a draft's edits."""
    db.execute("ALTER TABLE drafts ADD COLUMN comment TEXT NOT NULL DEFAULT ''")


def _check_owner(db, user: str, item_id: str, session: str | None, seen: int | None,
                 force: bool) -> dict | None:
    """The stored draft's row, after checking that `session` may replace it (see save_draft)."""
    row = one(db, "SELECT session, revision, updated_at, comment FROM drafts "
                  "WHERE user = ? AND item_id = ?", [user, item_id])
    if (row is not None and session is not None and not force
            and row["session"] not in (None, session) and row["revision"] != seen):
        raise DraftConflict(item_id, row["updated_at"], row["revision"])
    return row


def delete_draft(db: sqlite_utils.Database, user: str, item_id: str,
                 session: str | None = None, seen: int | None = None,
                 force: bool = False) -> dict | None:
    """Drop the user's draft (a save, a discard); returns its data (None: there was none).
    With `session`, only a draft this session may replace (see save_draft): undoing one's
    edits in one tab keeps another tab's draft."""
    with atomic(db):
        _check_owner(db, user, item_id, session, seen, force)
        row = one(db, "SELECT data FROM drafts WHERE user = ? AND item_id = ?", [user, item_id])
        db.execute("DELETE FROM drafts WHERE user = ? AND item_id = ?", [user, item_id])
    return None if row is None else json.loads(row["data"])


def list_drafts(db: sqlite_utils.Database, user: str) -> list[dict]:
    """[{item_id, base_version, updated_at}] of the user's drafts, newest first."""
    return rows(db, "SELECT item_id, base_version, updated_at FROM drafts WHERE user = ? "
                    "ORDER BY updated_at DESC, item_id", [user])


def others_drafts(db: sqlite_utils.Database, item_id: str, user: str) -> list[dict]:
    """[{user, updated_at, base_version}] of the drafts other users keep of `item_id`,
    newest first (the drafts themselves stay theirs: a reviewer is told of them, never shown
    them)."""
    return rows(db, "SELECT user, updated_at, base_version FROM drafts WHERE item_id = ? "
                    "AND user != ? "
                    "ORDER BY updated_at DESC, user", [item_id, user])
