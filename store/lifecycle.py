"""An item's life cycle beyond editing: duplicate, delete and restore, reopen a released item,
replace an item from a re-import, and delete a whole dataset.

Why deletion is two things. Deleting an item is an everyday correction, so it is undoable: the
item keeps its rows and history, is marked deleted (hidden from lists, counts, exports, runs and
the editor) and the deletion is a revision of its own, as is an admin's restore. Deleting a
dataset undoes a bad import, so it is final: the items go with their revisions, reviews, drafts
and the runs' responses to them (and their scores), so that a clean re-import is possible and no
result refers to an item that is gone. `dataset_counts` says beforehand what that removes.

Every function is one transaction; a refused call writes nothing.
"""
from __future__ import annotations

import sqlite_utils

from domain.item_ids import shown_id
from domain.limits import MAX_COMMENT

from .db import atomic, now, rows, scalar
from .errors import ConflictError, NotFoundError, ReadOnlyError, StoreError, ValidationError
from .item_limits import refuse_note
from .items import (_head, create_item, editable_head, get_item, insert_revision,
                    validate_item, _write)
from .revisions import diff_items

REOPENED_STATUS = "in_review"
"""Status a released item gets when an admin reopens it."""


def _mark(db: sqlite_utils.Database, item: dict, author: str, comment: str,
          deleted: bool) -> int:
    """Bump the version, set or clear the deletion mark, and record it as a revision."""
    version, stamp = item["version"] + 1, now()
    db.conn.execute("UPDATE items SET version = ?, updated_at = ?, updated_by = ?, "
                    "deleted_at = ?, deleted_by = ? WHERE id = ?",
                    [version, stamp, author, stamp if deleted else None,
                     author if deleted else None, item["id"]])
    insert_revision(db, dict(item, version=version, updated_at=stamp, updated_by=author),
                    comment)
    return version


def _reason(reason: str | None, what: str, item_id: str) -> str:
    reason = _bounded(reason, item_id)
    if not reason:
        raise ValidationError(f"item {item_id}: reason: {what} needs a reason", item_id,
                              "reason")
    return reason


def _bounded(reason: str | None, item_id: str) -> str:
    """The reason, stripped; TooLargeError if over its limit (it is kept in history)."""
    reason = (reason or "").strip()
    refuse_note("Reason", reason, MAX_COMMENT, item_id, "reason")
    return reason


def delete_item(db: sqlite_utils.Database, item_id: str, author: str, reason: str = "",
                base_version: int | None = None) -> int:
    """Mark an item deleted (a new revision); NotFoundError, ReadOnlyError if released."""
    with atomic(db):
        editable_head(db, item_id, base_version)
        reason = _bounded(reason, item_id)
        comment = "deleted" + (f": {reason}" if reason else "")
        return _mark(db, get_item(db, item_id), author, comment, deleted=True)


def restore_deleted(db: sqlite_utils.Database, item_id: str, author: str,
                    reason: str = "", deleted_by: str | None = None) -> int:
    """Bring a deleted item back as it was (a new revision). With `deleted_by`, only an item
    that user deleted (an annotator's undo of their own delete; others' are an admin's)."""
    with atomic(db):
        head = _head(db, item_id)
        if head is None or not head["deleted_at"]:
            raise NotFoundError(f"item {shown_id(item_id)} is not deleted")
        if deleted_by is not None and head["deleted_by"] != deleted_by:
            raise StoreError(f"item {item_id} was deleted by {head['deleted_by']}, not by "
                             f"you; an admin can restore it")
        reason = _bounded(reason, item_id)
        comment = "restored after deletion" + (f": {reason}" if reason else "")
        return _mark(db, get_item(db, item_id, include_deleted=True), author, comment,
                     deleted=False)


def deleted_items(db: sqlite_utils.Database, dataset: str | None = None) -> list[dict]:
    """[{id, dataset, version, deleted_by, deleted_at}] of deleted items, newest first."""
    where, params = ("AND dataset = ?", [dataset]) if dataset else ("", [])
    return rows(db, "SELECT id, dataset, version, deleted_by, deleted_at FROM items "
                    f"WHERE deleted_at IS NOT NULL {where} ORDER BY deleted_at DESC, id", params)


def duplicate_item(db: sqlite_utils.Database, item_id: str, new_id: str, author: str,
                   may_add_dataset: bool = True) -> int:
    """A copy of the item under `new_id`, as a draft with its own history from version 1,
    in the dataset its id names (`mine/copy` goes in `mine`, as a new item would; the copy
    stayed in its source's dataset), else in its source's. A dataset not there yet is made
    only if `may_add_dataset` (create_item)."""
    with atomic(db):
        source = get_item(db, item_id)
        new_id = (new_id or "").strip()
        dataset = new_id.split("/", 1)[0] if "/" in new_id else source["dataset"]
        copy = dict(source, id=new_id, status="draft", dataset=dataset)
        return create_item(db, copy, author,
                           comment=f"duplicate of {item_id} version {source['version']}",
                           may_add_dataset=may_add_dataset)


def reopen_item(db: sqlite_utils.Database, item_id: str, author: str, reason: str,
                base_version: int | None = None) -> int:
    """Make a released item editable again (status in_review); the reason is in history."""
    reason = _reason(reason, "reopening a released item", item_id)
    with atomic(db):
        head = _head(db, item_id)
        if head is None or head["deleted_at"]:
            raise NotFoundError(f"item {shown_id(item_id)} not found")
        if head["status"] != "released":
            raise ValidationError(f"item {item_id}: status: is {head['status']}, not released; "
                                  f"only released items are reopened", item_id, "status")
        item = get_item(db, item_id)
        if base_version is not None and base_version != item["version"]:
            raise ConflictError(item_id, item["version"], item["updated_by"],
                                item["updated_at"], base_version)
        version = item["version"] + 1
        _write(db, dict(validate_item(db, item), status=REOPENED_STATUS), version, author,
               f"reopened: {reason}")
        return version


def replace_item(db: sqlite_utils.Database, item: dict, author: str, comment: str,
                 may_release: bool = False) -> str:
    """Save an imported item over the stored one with its id: "replaced" (a new revision; a
    verified item whose content it changes is written `in_review`, its review to come),
    "unchanged" (nothing written), or ReadOnlyError when it is released or deleted;
    ReleaseRefusedError when it would become `released` and not `may_release`. Its revision
    is an import's (kind "import", store/items.REVISION_KINDS): not authorship."""
    with atomic(db):
        clean = validate_item(db, item)
        head = _head(db, clean["id"])
        if head is None:
            create_item(db, clean, author, comment, may_release, imported=True)
            return "created"
        if head["deleted_at"]:
            raise ReadOnlyError(f"item {clean['id']} is deleted; an admin can restore it",
                                clean["id"])
        current = validate_item(db, get_item(db, clean["id"]))
        if not diff_items(current, clean):
            return "unchanged"
        editable_head(db, clean["id"], None)  # a released item is not replaced
        # a verified item whose content an import changes goes back in review, as an edit
        # takes it there: a researcher's Replace kept a new gold answer "verified", unreviewed
        if current["status"] == "verified" and clean["status"] == "verified" and \
                diff_items({**current, "status": ""}, {**clean, "status": ""}):
            clean = {**clean, "status": "in_review"}
        _write(db, clean, head["version"] + 1, author, comment, may_release, "import")
        return "replaced"


def dataset_counts(db: sqlite_utils.Database, dataset: str) -> dict:
    """What deleting `dataset` removes: items (deleted and released ones included: deleting a
    dataset is an admin's decision, which read-only status does not stop), revisions,
    reviews, drafts, and runs' responses to its items (with the number of runs they are in)."""
    if scalar(db, "SELECT 1 FROM datasets WHERE name = ?", [dataset]) is None:
        raise NotFoundError(f"dataset {dataset} not found")
    ids = "(SELECT id FROM items WHERE dataset = ?)"
    count = lambda sql: scalar(db, sql.format(ids=ids), [dataset]) or 0  # noqa: E731
    return {
        "dataset": dataset,
        "items": count("SELECT count(*) FROM items WHERE id IN {ids}"),
        "deleted_items": count("SELECT count(*) FROM items WHERE id IN {ids} "
                               "AND deleted_at IS NOT NULL"),
        "released_items": count("SELECT count(*) FROM items WHERE id IN {ids} "
                                "AND status = 'released' AND deleted_at IS NULL"),
        "revisions": count("SELECT count(*) FROM revisions WHERE item_id IN {ids}"),
        "reviews": count("SELECT count(*) FROM reviews WHERE item_id IN {ids}"),
        "drafts": count("SELECT count(*) FROM drafts WHERE item_id IN {ids}"),
        "responses": count("SELECT count(*) FROM run_work WHERE item_id IN {ids}"),
        "runs": count("SELECT count(DISTINCT run_id) FROM run_work WHERE item_id IN {ids}"),
    }


def delete_dataset(db: sqlite_utils.Database, dataset: str, expected_items: int) -> dict:
    """Delete a dataset for good (see the module's docstring); returns what was removed.

    `expected_items` is the item count the user confirmed: if the dataset changed since
    (an import added items), nothing is deleted and the new counts are in the message."""
    with atomic(db):
        counts = dataset_counts(db, dataset)
        if counts["items"] != expected_items:
            raise ValidationError(f"dataset {dataset} now has {counts['items']} items, not the "
                                  f"{expected_items} you confirmed: nothing deleted; confirm "
                                  f"again", None, "dataset")
        ids = "(SELECT id FROM items WHERE dataset = ?)"
        work = f"(SELECT id FROM run_work WHERE item_id IN {ids})"
        conn = db.conn
        runs = [r["run_id"] for r in rows(
            db, f"SELECT DISTINCT run_id FROM run_work WHERE item_id IN {ids}", [dataset])]
        conn.execute(f"DELETE FROM scores WHERE work_id IN {work}", [dataset])
        conn.execute(f"DELETE FROM run_work WHERE item_id IN {ids}", [dataset])
        for run_id in runs:  # scorings summarise score rows: recount, and mark results stale
            conn.execute("UPDATE scorings SET n = (SELECT count(*) FROM scores s WHERE "
                         "s.run_id = scorings.run_id AND s.protocol = scorings.protocol AND "
                         "s.judge = scorings.judge), generation = generation + 1 "
                         "WHERE run_id = ?", [run_id])
        conn.execute(f"DELETE FROM drafts WHERE item_id IN {ids}", [dataset])
        conn.execute("DELETE FROM items WHERE dataset = ?", [dataset])  # parts, history cascade
        conn.execute("DELETE FROM datasets WHERE name = ?", [dataset])
    return counts



def describe_counts(counts: dict) -> str:
    """What deleting a dataset removes, in one sentence (the CLI's and the UI's confirmation)."""
    return (f"dataset {counts['dataset']}: {counts['items']} items "
            f"({counts['released_items']} released, {counts['deleted_items']} deleted "
            f"already), {counts['revisions']} "
            f"revisions, {counts['reviews']} reviews, {counts['drafts']} drafts, and "
            f"{counts['responses']} model responses in {counts['runs']} runs (with their "
            f"scores)")
