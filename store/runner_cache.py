"""The response cache: a content-addressed key (computed in runner/cache.py) -> a model reply.

Only successful HTTP replies are cached (failures must be retried, not replayed). Runs and
judge calls share it: a judgement is paid once however often it is asked, and a run's reply
stands for the same draw (item, repeat, sample) of the same request in a later run, which
then names the run that made it (`run_id` of the entry, copied to the result's
`cached_from`). Entries are written by `runner_work.record_batch` together with the result
that produced them (with its run), or by `put` for callers outside a run (judges: no run).
"""
from __future__ import annotations

import sqlite_utils

from .db import atomic, now, one
from .runner_work import CACHE_COLUMNS

_FIELDS = ", ".join(CACHE_COLUMNS)


def get(db: sqlite_utils.Database, key: str) -> dict | None:
    return one(db, f"SELECT {_FIELDS} FROM response_cache WHERE key = ?", [key])


def get_many(db: sqlite_utils.Database, keys: list[str]) -> dict[str, dict]:
    """Look up many keys at once (chunks of 500 to stay under SQLite's parameter limit)."""
    found: dict[str, dict] = {}
    for start in range(0, len(keys), 500):
        chunk = keys[start:start + 500]
        cursor = db.conn.execute(
            f"SELECT {_FIELDS} FROM response_cache WHERE key IN ({','.join('?' * len(chunk))})",
            chunk)
        for row in cursor.fetchall():
            entry = dict(zip(CACHE_COLUMNS, row))
            found[entry["key"]] = entry
    return found


def put(db: sqlite_utils.Database, entry: dict) -> None:
    """Store one reply; an existing entry for the key is kept (first reply wins)."""
    row = dict(entry, text=entry.get("text") or "", created_at=now())
    with atomic(db):
        db.conn.execute(f"INSERT INTO response_cache ({_FIELDS}) "
                        f"VALUES ({','.join('?' * len(CACHE_COLUMNS))}) "
                        "ON CONFLICT(key) DO NOTHING", [row.get(c) for c in CACHE_COLUMNS])


def stats(db: sqlite_utils.Database) -> dict:
    n, size = db.conn.execute("SELECT count(*), coalesce(sum(length(text)), 0) "
                              "FROM response_cache").fetchone()
    return {"entries": n, "text_bytes": size}


def clear(db: sqlite_utils.Database) -> int:
    with atomic(db):
        return db.conn.execute("DELETE FROM response_cache").rowcount
