"""SQLite connections (one per thread) and the single transaction helper, `atomic()`.

Why per thread: Gradio runs event handlers in a thread pool, and a sqlite3 connection must
not be shared between threads that may use it at the same time. Each thread lazily opens its
own `sqlite_utils.Database` on the same file; WAL mode lets readers run while one writer
writes, and the busy timeout makes a second writer wait instead of failing at once.

Why `BEGIN IMMEDIATE`: a deferred transaction that reads and then writes can fail with
"database is locked" when another connection wrote in between; taking the write lock at
the start makes check-then-write code (optimistic locking in `save_item`) safe and lets the
busy timeout do its job.
"""
from __future__ import annotations

import contextlib
import itertools
import sqlite3
import threading
import unicodedata
import weakref
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator, Sequence

import sqlite_utils

from .errors import BusyError, StoreError

BUSY_TIMEOUT_S = 5.0
"""How long a write waits for another connection's write transaction before BusyError."""

_savepoint_ids = itertools.count(1)


def now() -> str:
    """UTC timestamp used everywhere in the store, e.g. '2026-11-29T12:00:00Z'."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def connect(path: Path) -> sqlite_utils.Database:
    """Open one configured connection to `path` (WAL, busy timeout, foreign keys)."""
    # check_same_thread=False only so that Store.close() may close every thread's
    # connection; each connection is still used by the thread that opened it.
    conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_S, check_same_thread=False)
    db = sqlite_utils.Database(conn)
    db.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
    db.execute("PRAGMA foreign_keys = ON")
    if db.journal_mode != "wal":
        db.enable_wal()
    # In WAL mode NORMAL is durable against application crashes and much faster than FULL.
    db.execute("PRAGMA synchronous = NORMAL")
    # the item search folds case in every script: SQLite's LIKE folds ASCII letters only
    # ("MÜNCHNER" found nothing of "münchner"); store/item_queries.py
    conn.create_function("cl_fold", 1, fold, deterministic=True)
    return db


def fold(text):
    """`text` in one form for the search: compatibility-normalised (NFKC: "Mu" + U+0308 and
    "Mü", a fullwidth "ＭÜＮ" and "MÜN" alike), lower case in any script, without NUL, where
    SQLite's LIKE stops reading (an imported "go\0 out" was not found by "out"); None kept.
    Lower, not casefold: casefold made "ß" "ss", and a search for "ß" found every "ss"."""
    if not isinstance(text, str):
        return text
    return unicodedata.normalize("NFKC", text).lower().replace("\0", "")


class Connections:
    """Hands each thread its own `sqlite_utils.Database` on one file."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._local = threading.local()
        self._lock = threading.Lock()
        # Weak, so a finished thread's connection is closed when its thread-local dies.
        self._open: weakref.WeakSet[sqlite_utils.Database] = weakref.WeakSet()
        self._closed = False

    def get(self) -> sqlite_utils.Database:
        db = getattr(self._local, "db", None)
        if db is None:
            if self._closed:
                raise StoreError(f"store {self.path} is closed")
            db = connect(self.path)
            self._local.db = db
            with self._lock:
                self._open.add(db)
        return db

    def close(self) -> None:
        """Close every thread's connection; call when no other thread uses the store."""
        self._closed = True
        with self._lock:
            for db in list(self._open):
                db.close()
            self._open = weakref.WeakSet()
        self._local = threading.local()


@contextlib.contextmanager
def atomic(db: sqlite_utils.Database) -> Iterator[sqlite_utils.Database]:
    """One transaction: commit on success, roll back on any exception.

    The outermost level is `BEGIN IMMEDIATE` (takes the write lock now); nested levels are
    SAVEPOINTs, so an inner failure that is caught only undoes the inner part.
    """
    conn = db.conn
    if conn.in_transaction:
        name = f"sp_{next(_savepoint_ids)}"
        conn.execute(f"SAVEPOINT {name}")
        try:
            yield db
        except BaseException:
            if conn.in_transaction:  # an error may already have ended the transaction
                conn.execute(f"ROLLBACK TO SAVEPOINT {name}")
                conn.execute(f"RELEASE SAVEPOINT {name}")
            raise
        conn.execute(f"RELEASE SAVEPOINT {name}")
        return
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as e:
        if "locked" in str(e) or "busy" in str(e):
            raise BusyError(f"the database is busy (another write has been running for over "
                            f"{BUSY_TIMEOUT_S:g} s, e.g. an import); try again") from e
        raise
    try:
        yield db
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    try:
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


@contextlib.contextmanager
def reading(db: sqlite_utils.Database) -> Iterator[sqlite_utils.Database]:
    """A read transaction, so several SELECTs see one consistent snapshot.

    Without it, a save committed by another thread between two SELECTs of `get_item` could
    mix the old item row with the new clues. Inside `atomic()` it does nothing extra.
    """
    conn = db.conn
    if conn.in_transaction:
        yield db
        return
    conn.execute("BEGIN")
    try:
        yield db
    finally:
        if conn.in_transaction:
            conn.execute("COMMIT")


def run_statements(db: sqlite_utils.Database, sql: str) -> None:
    """Run several `;`-separated statements inside the current transaction (the migrations'
    DDL; `executescript` would commit first). No `;` may stand inside a statement."""
    for statement in sql.split(";"):
        if statement.strip():
            db.execute(statement)


def rows(db: sqlite_utils.Database, sql: str, params: Sequence[Any] = ()) -> list[dict]:
    """Run a SELECT and return dicts.

    Uses the raw connection rather than `db.query()` (which wraps every statement in a
    savepoint) because `get_item` runs on every click and must stay fast.
    """
    cursor = db.conn.execute(sql, params)
    keys = [d[0] for d in cursor.description]
    return [dict(zip(keys, row)) for row in cursor.fetchall()]


def one(db: sqlite_utils.Database, sql: str, params: Sequence[Any] = ()) -> dict | None:
    """First row of a SELECT as a dict, or None."""
    found = rows(db, sql, params)
    return found[0] if found else None


def scalar(db: sqlite_utils.Database, sql: str, params: Sequence[Any] = ()) -> Any:
    """First column of the first row, or None."""
    row = db.conn.execute(sql, params).fetchone()
    return row[0] if row else None
