"""Per-user drafts: unsaved edits kept in the database so a refresh or crash loses nothing.

A draft is keyed by (user, item_id) and remembers the version it was based on, so the UI can
tell the user when the item has moved on since (and show `diff_items(draft, saved)`). The data
is stored as given (any JSON dict, possibly invalid as an item): it is work in progress.
"""
from __future__ import annotations

import json

import sqlite_utils

from .db import atomic, now, one, rows
from .errors import ValidationError


def save_draft(db: sqlite_utils.Database, user: str, item_id: str, base_version: int | None,
               data: dict) -> None:
    """Create or replace the user's draft of `item_id`."""
    try:
        encoded = json.dumps(data)
    except (TypeError, ValueError) as e:
        raise ValidationError(f"draft {item_id}: data: not JSON-serialisable ({e})",
                              item_id, "data") from e
    with atomic(db):
        db.execute("INSERT INTO drafts (user, item_id, base_version, data, updated_at) "
                   "VALUES (?, ?, ?, ?, ?) ON CONFLICT(user, item_id) DO UPDATE SET "
                   "base_version = excluded.base_version, data = excluded.data, "
                   "updated_at = excluded.updated_at",
                   [user, item_id, base_version, encoded, now()])


def get_draft(db: sqlite_utils.Database, user: str, item_id: str) -> dict | None:
    """{base_version, data, updated_at} or None."""
    row = one(db, "SELECT base_version, data, updated_at FROM drafts "
                  "WHERE user = ? AND item_id = ?", [user, item_id])
    if row is None:
        return None
    return {"base_version": row["base_version"], "data": json.loads(row["data"]),
            "updated_at": row["updated_at"]}


def delete_draft(db: sqlite_utils.Database, user: str, item_id: str) -> None:
    with atomic(db):
        db.execute("DELETE FROM drafts WHERE user = ? AND item_id = ?", [user, item_id])


def list_drafts(db: sqlite_utils.Database, user: str) -> list[dict]:
    """[{item_id, base_version, updated_at}] of the user's drafts, newest first."""
    return rows(db, "SELECT item_id, base_version, updated_at FROM drafts WHERE user = ? "
                    "ORDER BY updated_at DESC, item_id", [user])
