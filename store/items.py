"""Reading and writing one item: `get_item`, `create_item`, `save_item`.

A deleted item (store/lifecycle.py) keeps its rows and history but is not found by
`get_item` and cannot be saved; a released one is read-only (`ReadOnlyError`) until an
admin reopens it.

An item is spread over five tables (items, item_images, item_options, clues, boxes). A write
validates first, then, inside one transaction: replaces the item's rows, bumps the version and
appends a revision holding the full item dict, so history always matches the data. A read is
five queries in one read transaction, whatever the number of clues.
"""
from __future__ import annotations

import json
import re

import sqlite_utils

from .db import atomic, now, one, reading, rows
from domain.item_ids import shown_id
from domain.limits import MAX_ITEM_ID, MAX_REVISION_COMMENT

from .errors import (ConflictError, DuplicateItemError, NewDatasetRefusedError, NotFoundError,
                     ReadOnlyError, ReleaseRefusedError)
from .item_limits import refuse_note
from .legacy import as_read
from .validation import normalize_item

_DIGITS = re.compile(r"\d+")


def natural_key(item_id: str) -> str:
    """Sort key that orders 'HAA_2' before 'HAA_10': digit runs are zero-padded to 20."""
    return _DIGITS.sub(lambda m: m.group().lstrip("0").rjust(20, "0"), item_id)


def _image_sizes(db: sqlite_utils.Database, shas: list[str]) -> dict[str, tuple[int, int]]:
    if not shas:
        return {}
    marks = ",".join("?" * len(shas))
    return {r["sha256"]: (r["width"], r["height"]) for r in
            rows(db, f"SELECT sha256, width, height FROM images WHERE sha256 IN ({marks})", shas)}


def validate_item(db: sqlite_utils.Database, item: dict) -> dict:
    """Canonical editable dict of `item` (ValidationError if invalid); writes nothing. The
    names the item has stored now are kept whatever rule came after them (normalize_item)."""
    item_id = item.get("id") if isinstance(item, dict) else None
    stored = one(db, "SELECT dataset, domain, subtask, reasoning_type FROM items WHERE id = ?",
                 [item_id]) if isinstance(item_id, str) and len(item_id) <= MAX_ITEM_ID else None
    return normalize_item(item, lambda shas: _image_sizes(db, shas), stored)


def _head(db: sqlite_utils.Database, item_id: str) -> dict | None:
    return one(db, "SELECT version, updated_at, updated_by, status, deleted_at, deleted_by "
                   "FROM items WHERE id = ?", [item_id])


def deleted_message(item_id: str, head: dict) -> str:
    return (f"item {item_id} was deleted by {head['deleted_by']} at {head['deleted_at']}; "
            f"an admin can restore it")


def editable_head(db: sqlite_utils.Database, item_id: str, base_version: int | None) -> dict:
    """The item's head row, if it may be changed now from `base_version` (None: any).

    NotFoundError if absent or deleted, ReadOnlyError if released, ConflictError if the
    base is stale. Call inside the write transaction."""
    head = _head(db, item_id)
    if head is None:
        raise NotFoundError(f"item {shown_id(item_id)} not found")
    if head["deleted_at"]:
        raise NotFoundError(deleted_message(item_id, head))
    if head["status"] == "released":
        raise ReadOnlyError(f"item {item_id} is released and read-only; an admin can reopen "
                            f"it (with a reason) to change it.", item_id)
    if base_version is not None and base_version != head["version"]:
        raise ConflictError(item_id, head["version"], head["updated_by"], head["updated_at"],
                            base_version)
    return head


_ITEM_COLUMNS = ("id", "dataset", "sort_key", "domain", "subtask", "reasoning_type",
                 "question", "answer_type", "answer", "aliases", "gt_reasoning", "status",
                 "problems", "flagged", "metadata", "version", "updated_at", "updated_by")


def check_status(db: sqlite_utils.Database, item: dict, may_release: bool) -> None:
    """The one rule on who sets which status, applied by every write of an item (`_write`:
    create, save, save merged, restore, replace, duplicate, reopen): moving an item into
    `released` needs the right to release items (`may_release`, which the app takes from
    its access table, ui/access.py ACTS release_item: admins). Checked against the status
    stored now, inside the write's transaction, so no stale copy of the item (an editor
    opened before a reopen, an old revision restored) can slip past it.
    ReleaseRefusedError if refused."""
    if item["status"] != "released" or may_release:
        return
    head = _head(db, item["id"])
    if head is None or head["status"] != "released":
        raise ReleaseRefusedError(item["id"])


def _write(db: sqlite_utils.Database, item: dict, version: int, author: str,
           comment: str, may_release: bool = False, kind: str = "edit") -> None:
    """Replace the item's rows with `item` (already normalized) and append its revision.

    Runs inside the caller's transaction. The parts (images, options, clues, boxes) are
    deleted and re-inserted: simpler than diffing, and an item has only a few dozen rows.
    `may_release`: may the writer set status `released` (check_status)? `kind`: the
    revision's (insert_revision).
    """
    check_status(db, item, may_release)
    conn, item_id, stamp = db.conn, item["id"], now()
    conn.execute("INSERT OR IGNORE INTO datasets (name, created_at) VALUES (?, ?)",
                 [item["dataset"], stamp])
    row = dict(item, sort_key=natural_key(item_id), aliases=json.dumps(item["aliases"]),
               problems=json.dumps(item["problems"]), flagged=int(bool(item["problems"])),
               metadata=json.dumps(item["metadata"]), version=version, updated_at=stamp,
               updated_by=author)
    updates = ", ".join(f"{c} = excluded.{c}" for c in _ITEM_COLUMNS[1:])
    conn.execute(f"INSERT INTO items ({', '.join(_ITEM_COLUMNS)}) "
                 f"VALUES ({', '.join('?' * len(_ITEM_COLUMNS))}) "
                 f"ON CONFLICT(id) DO UPDATE SET {updates}", [row[c] for c in _ITEM_COLUMNS])

    conn.execute("DELETE FROM boxes WHERE clue_id IN (SELECT id FROM clues WHERE item_id = ?)",
                 [item_id])
    for table in ("clues", "item_options", "item_images"):
        conn.execute(f"DELETE FROM {table} WHERE item_id = ?", [item_id])
    conn.executemany("INSERT INTO item_images (item_id, position, sha256) VALUES (?, ?, ?)",
                     [(item_id, i, sha) for i, sha in enumerate(item["images"])])
    conn.executemany(
        "INSERT INTO item_options (item_id, position, label, text, image) VALUES (?,?,?,?,?)",
        [(item_id, i, o["label"], o["text"], o["image"]) for i, o in enumerate(item["options"])])
    for c, clue in enumerate(item["clues"]):
        clue_id = conn.execute(
            "INSERT INTO clues (item_id, position, text, reasoning) VALUES (?, ?, ?, ?)",
            [item_id, c, clue["text"], clue["reasoning"]]).lastrowid
        conn.executemany(
            "INSERT INTO boxes (clue_id, position, image, x0, y0, x1, y1) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(clue_id, b, x["image"], x["x0"], x["y0"], x["x1"], x["y1"])
             for b, x in enumerate(clue["boxes"])])

    snapshot = dict(item, version=version, updated_at=stamp, updated_by=author,
                    flagged=bool(item["problems"]))
    insert_revision(db, snapshot, comment, kind)


REVISION_KINDS = ("edit", "import")
"""A revision's `kind` (migration 0020): "import" when an import wrote it (a new item, or
`--replace` over one), which is not authorship of its content (the dataset's authors wrote
it: store/revisions.unreviewed_writer); "edit" for everything else. Set by the store from
who calls it, never read from the comment, which anyone saving may type."""


def insert_revision(db: sqlite_utils.Database, snapshot: dict, comment: str,
                    kind: str = "edit") -> None:
    """Append the revision of `snapshot` (its id, version, updated_at, updated_by);
    TooLargeError if the comment is over its limit (every revision is kept)."""
    if kind not in REVISION_KINDS:
        raise ValueError(f"revision kind {kind!r}: expected one of {REVISION_KINDS}")
    refuse_note("Revision comment", comment, MAX_REVISION_COMMENT, snapshot["id"], "comment")
    text = json.dumps(snapshot)
    db.conn.execute("INSERT INTO revisions (item_id, version, author, created_at, comment, "
                    "snapshot, size, kind) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [snapshot["id"], snapshot["version"], snapshot["updated_by"],
                     snapshot["updated_at"], comment or "", text, len(text.encode()), kind])


def dataset_exists(db: sqlite_utils.Database, dataset: str) -> bool:
    return one(db, "SELECT 1 AS found FROM datasets WHERE name = ?", [dataset]) is not None


def create_item(db: sqlite_utils.Database, item: dict, author: str,
                comment: str = "import", may_release: bool = False,
                may_add_dataset: bool = True, imported: bool = False) -> int:
    """Create a new item at version 1; DuplicateItemError if the id exists,
    ReleaseRefusedError if it is `released` and not `may_release` (check_status),
    NewDatasetRefusedError if its dataset is not there and not `may_add_dataset` (the app
    takes it from its access table: an annotator's Duplicate made datasets of any name).
    `imported`: an import writes it (its revision's kind is "import": REVISION_KINDS)."""
    with atomic(db):
        clean = validate_item(db, item)
        if not may_add_dataset and not dataset_exists(db, clean["dataset"]):
            raise NewDatasetRefusedError(clean["id"], clean["dataset"])
        head = _head(db, clean["id"])
        if head is not None:
            raise DuplicateItemError(clean["id"], head["version"], head["updated_by"],
                                     head["updated_at"])
        _write(db, clean, 1, author, comment, may_release,
               "import" if imported else "edit")
    return 1


def save_item(db: sqlite_utils.Database, item: dict, base_version: int, author: str,
              comment: str = "", may_release: bool = False) -> int:
    """Save an edit made on `base_version`; return the new version.

    The version check runs inside the write transaction (BEGIN IMMEDIATE holds the write
    lock), so two concurrent saves on the same base cannot both succeed. Setting status
    `released` needs `may_release` (check_status).
    """
    with atomic(db):
        clean = validate_item(db, item)
        head = editable_head(db, clean["id"], base_version)
        version = head["version"] + 1
        _write(db, clean, version, author, comment, may_release)
    return version


def get_item(db: sqlite_utils.Database, item_id: str, include_deleted: bool = False) -> dict:
    """The full item dict (see docs/STORE_API.md); NotFoundError if absent (or deleted)."""
    with reading(db):
        row = one(db, "SELECT * FROM items WHERE id = ?", [item_id])
        if row is None:
            raise NotFoundError(f"item {shown_id(item_id)} not found")
        if row["deleted_at"] and not include_deleted:
            raise NotFoundError(deleted_message(item_id, row))
        images = [r["sha256"] for r in rows(
            db, "SELECT sha256 FROM item_images WHERE item_id = ? ORDER BY position", [item_id])]
        options = rows(db, "SELECT label, text, image FROM item_options WHERE item_id = ? "
                           "ORDER BY position", [item_id])
        clue_rows = rows(db, "SELECT id, text, reasoning FROM clues WHERE item_id = ? "
                             "ORDER BY position", [item_id])
        box_rows = rows(db, "SELECT b.clue_id, b.image, b.x0, b.y0, b.x1, b.y1 FROM boxes b "
                            "JOIN clues c ON c.id = b.clue_id WHERE c.item_id = ? "
                            "ORDER BY c.position, b.position", [item_id])
    boxes: dict[int, list[dict]] = {}
    for b in box_rows:
        boxes.setdefault(b.pop("clue_id"), []).append(b)
    clues = [{"text": c["text"], "reasoning": c["reasoning"], "boxes": boxes.get(c["id"], [])}
             for c in clue_rows]
    return as_read({
        "id": row["id"], "dataset": row["dataset"], "domain": row["domain"],
        "subtask": row["subtask"], "reasoning_type": row["reasoning_type"],
        "question": row["question"], "answer_type": row["answer_type"], "options": options,
        "answer": row["answer"], "aliases": json.loads(row["aliases"]),
        "gt_reasoning": row["gt_reasoning"], "status": row["status"],
        "problems": json.loads(row["problems"]), "metadata": json.loads(row["metadata"]),
        "images": images, "clues": clues, "version": row["version"],
        "updated_at": row["updated_at"], "updated_by": row["updated_by"],
        "flagged": bool(row["flagged"]),
    })


def item_exists(db: sqlite_utils.Database, item_id: str) -> bool:
    """Whether the id is taken (a deleted item keeps its id until its dataset is deleted)."""
    return one(db, "SELECT 1 AS x FROM items WHERE id = ?", [item_id]) is not None


def item_status(db: sqlite_utils.Database, item_id: str) -> str | None:
    """The item's status as stored (None when there is no such id)."""
    found = one(db, "SELECT status FROM items WHERE id = ?", [item_id])
    return found["status"] if found else None
