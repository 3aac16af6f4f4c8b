"""Human baselines (migration 0007): per-item human results, kept for the Results tab.

A baseline is a name (unique, compared case-insensitively), the label the tables show, its
results `{item_id: true/false}` (stored as JSON text) and who added it when. Items are not
referenced by foreign keys, like a run's work rows: the caller (scoring/human.py) checks
that they exist. Reading, parsing and checking an uploaded file is the caller's job too;
the store refuses anything that is not a clean name, label and results map.

`HumanBaselinesMixin` gives `Store` its methods (see docs/STORE_API.md).
"""
from __future__ import annotations

import json

import sqlite_utils

from domain.limits import MAX_BASELINE_TEXT, MAX_ITEM_ID, too_long

from .db import atomic, now, one, rows
from .errors import NotFoundError, TooLargeError, ValidationError

TEXT_MAX = MAX_BASELINE_TEXT
"""The longest name or label, in characters."""


def _text(value, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValidationError(f"a human baseline needs a {field}", field=field)
    value = value.strip()
    if len(value) > TEXT_MAX:
        raise ValidationError(f"a human baseline's {field} has at most {TEXT_MAX} characters",
                              field=field)
    return value


def _encode(name: str, results) -> str:
    """The results as JSON text; ValidationError unless {non-empty item id: true/false}."""
    if not isinstance(results, dict) or not results:
        raise ValidationError(f"human baseline {name!r}: results must be a non-empty "
                              "{item_id: true/false}", field="results")
    for item_id, correct in results.items():
        if not isinstance(item_id, str) or not item_id:
            raise ValidationError(f"human baseline {name!r}: an item id must be a non-empty "
                                  f"string, not {item_id!r:.60}", field="results")
        found = too_long("An item id", len(item_id), MAX_ITEM_ID)
        if found:   # no item has such an id (the store refuses it): never kept
            raise TooLargeError(f"human baseline {name!r}: {found}", None, "results", found)
        if not isinstance(correct, bool):
            raise ValidationError(f"human baseline {name!r}: item {item_id!r:.60}: the result "
                                  f"must be true or false, not {correct!r:.60}",
                                  field="results")
    return json.dumps(results, ensure_ascii=False, sort_keys=True)


def add_baseline(db: sqlite_utils.Database, name: str, label: str, results: dict,
                 author: str | None = None, *, replace: bool = False) -> dict:
    """Keep a baseline; returns it as `get_baseline` does. An existing name is refused
    (ValidationError saying who added it when) unless `replace`, which swaps the row in the
    same transaction. Nothing is written when anything is refused."""
    name, label = _text(name, "name"), _text(label, "label")
    data = _encode(name, results)
    with atomic(db):
        kept = one(db, "SELECT name, created_by, created_at FROM human_baselines "
                       "WHERE name = ?", [name])
        if kept and not replace:
            raise ValidationError(f"a human baseline named {kept['name']!r} already exists "
                                  f"(added by {kept['created_by'] or 'unknown'} at "
                                  f"{kept['created_at']})", field="name")
        db.conn.execute("DELETE FROM human_baselines WHERE name = ?", [name])
        db.conn.execute("INSERT INTO human_baselines (name, label, results, created_at, "
                        "created_by) VALUES (?, ?, ?, ?, ?)",
                        [name, label, data, now(), author])
        return get_baseline(db, name)


def get_baseline(db: sqlite_utils.Database, name: str) -> dict:
    """{name, label, results: {item_id: bool}, n, created_at, created_by}; NotFoundError."""
    found = one(db, "SELECT name, label, results, created_at, created_by FROM human_baselines "
                    "WHERE name = ?", [name])
    if found is None:
        raise NotFoundError(f"no human baseline {name!r}")
    found["results"] = json.loads(found["results"])
    found["n"] = len(found["results"])
    return found


def list_baselines(db: sqlite_utils.Database) -> list[dict]:
    """[{name, label, n, created_at, created_by}] by label, then name (results left out)."""
    return rows(db, "SELECT name, label, (SELECT count(*) FROM json_each(results)) AS n, "
                    "created_at, created_by FROM human_baselines "
                    "ORDER BY label, name COLLATE NOCASE")


def delete_baseline(db: sqlite_utils.Database, name: str) -> None:
    with atomic(db):
        if not db.conn.execute("DELETE FROM human_baselines WHERE name = ?", [name]).rowcount:
            raise NotFoundError(f"no human baseline {name!r}")


class HumanBaselinesMixin:
    """Mixed into `Store`; `self.db` is the thread's connection."""

    def add_human_baseline(self, name: str, label: str, results: dict,
                           author: str | None = None, *, replace: bool = False) -> dict:
        return add_baseline(self.db, name, label, results, author, replace=replace)

    def get_human_baseline(self, name: str) -> dict:
        return get_baseline(self.db, name)

    def list_human_baselines(self) -> list[dict]:
        return list_baselines(self.db)

    def delete_human_baseline(self, name: str) -> None:
        delete_baseline(self.db, name)
