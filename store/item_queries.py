"""Browsing items: filtered lists, counts, ids, facet values, and full-item iteration.

All of them share `_where()`, so a filter means the same thing in the list, the count and the
export. Order is always dataset, then natural id order ('HAA_2' before 'HAA_10'), done in SQL
with the precomputed `sort_key` column so LIMIT/OFFSET paging stays correct and indexed.
"""
from __future__ import annotations

from typing import Any, Iterator

import sqlite_utils

from domain.limits import MAX_SEARCH, too_long
from domain.vocabulary import ITEM_STATUSES

from .db import fold, reading, rows
from .errors import TooLargeError
from .items import get_item
from .legacy import as_read

FILTERS = ("dataset", "domain", "subtask", "status", "flagged", "text")
ORDER = "ORDER BY items.dataset, items.sort_key, items.id"
SUMMARY_COLUMNS = ("id", "dataset", "domain", "subtask", "status", "flagged", "answer_type",
                   "question", "version")


def _like(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _where(dataset: Any = None, domain: Any = None, subtask: Any = None, status: Any = None,
           flagged: bool | None = None, text: str | None = None) -> tuple[str, list]:
    """SQL WHERE clause and parameters for the browser filters.

    None or "" means "no filter"; a list/tuple/set means "any of these values".
    `text` is a case-insensitive (any script: store.db.fold) substring of the id, question, answer or any clue's
    text or reasoning.
    """
    clauses, params = ["items.deleted_at IS NULL"], []
    for column, value in (("dataset", dataset), ("domain", domain), ("subtask", subtask),
                          ("status", status)):
        if value is None or value == "":
            continue
        if isinstance(value, (list, tuple, set, frozenset)):
            values = list(value)
            if not values:
                clauses.append("0")
                continue
            clauses.append(f"items.{column} IN ({','.join('?' * len(values))})")
            params.extend(values)
        else:
            clauses.append(f"items.{column} = ?")
            params.append(value)
    if flagged is not None:
        clauses.append("items.flagged = ?")
        params.append(1 if flagged else 0)
    if text:
        if found := too_long("The search text", len(text), MAX_SEARCH):
            raise TooLargeError(f"search: {found}", None, "text", found)
        like = _like(fold(text))            # both sides folded: any script's case
        searched = ["items.id", "items.question", "items.answer"]
        clue_match = ("cl_fold(clues.text) LIKE ? ESCAPE '\\' OR "
                      "cl_fold(clues.reasoning) LIKE ? ESCAPE '\\'")
        clauses.append("(" + " OR ".join(f"cl_fold({c}) LIKE ? ESCAPE '\\'" for c in searched)
                       + f" OR EXISTS (SELECT 1 FROM clues WHERE clues.item_id = items.id"
                       f" AND ({clue_match})))")
        params.extend([like] * 5)
    return "WHERE " + " AND ".join(clauses), params


def list_items(db: sqlite_utils.Database, limit: int | None = None, offset: int = 0,
               **filters: Any) -> list[dict]:
    """Summary rows (id, dataset, domain, subtask, status, flagged, answer_type, question,
    version) in dataset + natural id order."""
    where, params = _where(**filters)
    sql = f"SELECT {', '.join(SUMMARY_COLUMNS)} FROM items {where} {ORDER}"
    if limit is not None or offset:
        sql += " LIMIT ? OFFSET ?"
        params += [-1 if limit is None else int(limit), int(offset)]
    found = rows(db, sql, params)
    for r in found:
        r["flagged"] = bool(r["flagged"])
        as_read(r)
    return found


def count_items(db: sqlite_utils.Database, **filters: Any) -> int:
    where, params = _where(**filters)
    return db.conn.execute(f"SELECT count(*) FROM items {where}", params).fetchone()[0]


def item_ids(db: sqlite_utils.Database, **filters: Any) -> list[str]:
    where, params = _where(**filters)
    return [r[0] for r in db.conn.execute(f"SELECT id FROM items {where} {ORDER}", params)]


def facets(db: sqlite_utils.Database) -> dict[str, list[str]]:
    """Distinct non-empty values present, for the filter dropdowns.

    Datasets, domains and subtasks sorted alphabetically; statuses in workflow order.
    """
    out = {}
    with reading(db):
        for column in ("dataset", "domain", "subtask", "status"):
            out[column] = [r[0] for r in db.conn.execute(
                f"SELECT DISTINCT {column} FROM items WHERE {column} IS NOT NULL "
                f"AND {column} != '' AND deleted_at IS NULL ORDER BY {column}")]
    out["status"].sort(key=lambda s: ITEM_STATUSES.index(s) if s in ITEM_STATUSES else
                       len(ITEM_STATUSES))
    return out


def dataset_sizes(db: sqlite_utils.Database) -> dict[str, int]:
    """{dataset: its items (deleted ones not counted)} for every dataset with items, by name."""
    with reading(db):
        return dict(db.conn.execute("SELECT dataset, count(*) FROM items WHERE deleted_at IS "
                                    "NULL GROUP BY dataset ORDER BY dataset").fetchall())


def iter_items(db: sqlite_utils.Database, dataset: str | None = None, **filters: Any
               ) -> Iterator[dict]:
    """Full item dicts in `list_items` order (for export). Ids are read first, so items
    created meanwhile are not included and items are read one at a time."""
    for item_id in item_ids(db, dataset=dataset, **filters):
        yield get_item(db, item_id)
