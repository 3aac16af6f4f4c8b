"""History of an item: revisions (immutable snapshots), diffs, restore, and reviews.

Every create/save appends a revision holding the full item dict (see items.py), so any version
can be shown, compared or restored without replaying changes. A restore is an ordinary save of
an old snapshot: history only ever grows.
"""
from __future__ import annotations

import json

import sqlite_utils

from domain.item_ids import shown_id
from domain.limits import MAX_REVIEW_NOTE
from domain.vocabulary import REVIEW_STATUS, REVIEW_VERDICTS

from .db import atomic, now, one, rows
from .diffs import diff_items, held_changes, named
from .errors import ConflictError, NotFoundError, ReadOnlyError, ValidationError
from .item_limits import refuse_note
from .items import _head, get_item, save_item
from .legacy import as_read
from .validation import READ_ONLY_FIELDS

VERDICTS = REVIEW_VERDICTS


def history(db: sqlite_utils.Database, item_id: str, after: int = 0,
            upto: int | None = None) -> list[dict]:
    """[{version, author, created_at, comment}], newest first; NotFoundError if no item.
    `after`, `upto`: only the versions after `after` up to `upto` (None: the latest), read
    through the index on (item_id, version): the conflict panel and a merge need those
    since the version edited, and reading the whole history for them took ~1.8 s to open
    the panel of an item with 5,000 versions (a review; docs/PERFORMANCE.md, section 9)."""
    bounds = [("version > ?", after)] if after else []
    bounds += [("version <= ?", upto)] if upto is not None else []
    found = rows(db, "SELECT version, author, created_at, comment FROM revisions WHERE "
                     + " AND ".join(["item_id = ?", *(b for b, _ in bounds)])
                     + " ORDER BY version DESC", [item_id, *(v for _, v in bounds)])
    if not found and (not bounds or one(db, "SELECT 1 AS x FROM revisions WHERE item_id = ? "
                                            "LIMIT 1", [item_id]) is None):
        raise NotFoundError(f"item {shown_id(item_id)} not found")
    return found


def revision(db: sqlite_utils.Database, item_id: str, version: int) -> dict:
    """The item dict as saved at `version`."""
    row = one(db, "SELECT snapshot FROM revisions WHERE item_id = ? AND version = ?",
              [item_id, version])
    if row is None:
        raise no_version(db, item_id, version)
    return as_read(json.loads(row["snapshot"]))


def no_version(db: sqlite_utils.Database, item_id: str, version: int) -> NotFoundError:
    """The refusal of a version the item lacks, naming those it has (History's Diff or
    Restore of version 7 of an item of 3 said only "has no version 7")."""
    last = one(db, "SELECT MAX(version) AS v FROM revisions WHERE item_id = ?", [item_id])["v"]
    if not last:
        return NotFoundError(f"item {item_id} has no version {version}")
    has = "only version 1" if last == 1 else f"versions 1–{last}"
    return NotFoundError(f"item {item_id} has {has}; there is no version {version}")


def diff(db: sqlite_utils.Database, item_id: str, version_a: int, version_b: int) -> list[dict]:
    """Field-by-field changes from version_a to version_b (see `diff_items`)."""
    return diff_items(revision(db, item_id, version_a), revision(db, item_id, version_b))


def restore(db: sqlite_utils.Database, item_id: str, version: int, author: str,
            base_version: int, may_release: bool = False) -> int:
    """Save the snapshot of `version` as a new revision; ConflictError if base is stale.

    A writer who may not release items (store/items.check_status) restoring a `released`
    version gets its content with the item's current status kept, and the revision's
    comment says so: restoring it whole released the item, an admin's act, from an
    annotator's hands. Likewise a `verified` or `rejected` version keeps the current status
    (only a review gives those: a restore undid a reviewer's reject), and content restored
    over a verified item puts it back in review, as a save does."""
    with atomic(db):
        snapshot = revision(db, item_id, version)
        comment = f"restore version {version}"
        head = _head(db, item_id)
        if (snapshot.get("status") == "released" and not may_release and head is not None
                and head["status"] != "released"):
            snapshot = dict(snapshot, status=head["status"])
            comment += f" (status kept: {head['status']}; releasing is an admin's act)"
        elif head is not None and snapshot.get("status") in BY_REVIEW and \
                snapshot.get("status") != head["status"]:
            # a restore brought back "verified" over a reviewer's reject, with no review
            snapshot = dict(snapshot, status=head["status"])
            comment += f" (status kept: {head['status']}; {BY_REVIEW_WHY})"
        if head is not None and snapshot.get("status") == "verified" and \
                _content_differs(snapshot, revision(db, item_id, head["version"])):
            snapshot = dict(snapshot, status="in_review")    # as a save of changed content
            comment += " (verified content changed: back in review)"
        return save_item(db, snapshot, base_version, author, comment, may_release)


BY_REVIEW = ("verified", "rejected")
BY_REVIEW_WHY = "verified and rejected come from reviews only"


def _content_differs(a: dict, b: dict) -> bool:
    return not {k for k in a.keys() | b.keys() if a.get(k) != b.get(k)} <= STATUS_ONLY


def add_review(db: sqlite_utils.Database, item_id: str, version: int, reviewer: str,
               verdict: str, note: str = "", latest_only: bool = False,
               set_status: bool = True) -> int:
    """Record a reviewer's verdict on one version; returns the review id.

    A review is another person's check: the author of what `version` holds may not review
    it (ValidationError, field "reviewer"): who saved it, or wrote any content change since
    the item's last review by another person (`unreviewed_writer`). When
    `version` is still the item's latest, the verdict sets the item's status (REVIEW_STATUS:
    approve -> verified, revise -> in_review, reject -> rejected) as a new revision by the
    reviewer, in the same transaction; a review of an older version, or of a deleted item,
    leaves the status. A released item is frozen: a review of it (any version) is refused
    (ReadOnlyError), checked in the same transaction, until an admin reopens it. A note over MAX_REVIEW_NOTE is refused
    (TooLargeError).
    `latest_only`: a review of a version that is no longer the latest is refused
    (ConflictError naming the latest, who saved it and when), checked in the same
    transaction: the Annotate page's reviewer had not seen the version saved since.
    `set_status` False: recorded, the status left (ui/history_handlers.review: a draft
    that may not leave draft by the save's rules; a "revise" put it in review past them)."""
    if verdict not in VERDICTS:
        raise ValidationError(f"item {item_id}: verdict: unknown verdict {verdict!r}; "
                              f"expected one of {', '.join(VERDICTS)}", item_id, "verdict")
    if not reviewer:
        raise ValidationError(f"item {item_id}: reviewer: missing", item_id, "reviewer")
    refuse_note("Review note", note, MAX_REVIEW_NOTE, item_id, "note")
    with atomic(db):
        row = one(db, "SELECT author FROM revisions WHERE item_id = ? AND version = ?",
                  [item_id, version])
        if row is None:
            raise no_version(db, item_id, version)
        head = one(db, "SELECT version, updated_by, updated_at, status FROM items WHERE id = ?",
                   [item_id])
        if head is not None and head["status"] == "released":
            raise ReadOnlyError(f"item {item_id} is released and frozen: a review of it is not "
                                f"recorded; an admin can reopen it (with a reason) to have it "
                                f"reviewed again.", item_id)
        if latest_only and head is not None and head["version"] != version:
            raise ConflictError(item_id, head["version"], head["updated_by"],
                                head["updated_at"], version,
                                f"item {item_id}: version {version} is not the latest: "
                                f"version {head['version']} was saved by {head['updated_by']} "
                                f"at {head['updated_at']}")
        # after the check above: a page left on an old version is told of the newer one
        # (with a way to open it), not that its user may not review the old one
        wrote, restored_by, held = unreviewed_writer(db, item_id, version, reviewer) \
            or (None, None, [])
        if wrote == version:
            raise ValidationError(f"item {item_id}: {reviewer} saved version {version}, so "
                                  f"{reviewer} may not review it: ask someone who did not "
                                  f"write it.", item_id, "reviewer")
        if wrote is not None:
            restored = f" (brought back by version {restored_by})" if restored_by else ""
            raise ValidationError(f"item {item_id}: {reviewer} wrote the changes of version "
                                  f"{wrote}{restored}, not yet approved by anyone else, and "
                                  f"version {version} still holds {reviewer}'s "
                                  f"{named(held)}, so {reviewer} may not review it: ask "
                                  f"someone who did not write it.", item_id, "reviewer")
        review_id = db.conn.execute(
            "INSERT INTO reviews (item_id, version, reviewer, verdict, note, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [item_id, version, reviewer, verdict, note or "", now()]).lastrowid
        if set_status:
            _review_status(db, item_id, version, reviewer, verdict, note)
    return review_id


STATUS_ONLY = frozenset({"status", *READ_ONLY_FIELDS})
"""What a revision may change and still hold the content of the one before it."""


def unreviewed_writer(db: sqlite_utils.Database, item_id: str, version: int,
                      reviewer: str) -> tuple[int, int | None, list[str]] | None:
    """(the latest version up to `version` whose content change `reviewer` wrote, nobody
    approved since, and `version` still holds; the version that brought it back by holding
    its content again, a restore, or None; the fields of that change `version` holds) —
    None: none. Held is by content, field by field and part by part (store/diffs.py
    held_changes): some field the reviewer changed (against the version before that save)
    has in `version` the value the reviewer gave it. A change another person replaced (a
    merge that kept their question over his) is not held: bob was refused the review of a
    merge holding none of his changes, told it held "the changes of version 2". A review is another person's check
    of every change since the item was last approved: who saved `version` is not enough
    (content sent back with "revise" or "reject" is still unchecked). Why: a reviewer
    approved content he wrote himself once another person's save (a merge, a small edit)
    or a reviewer's status-only revision came after it. A version whose content is an
    earlier version's (a restore, or changes undone by hand) holds that version's content
    and authorship, not the changes in between: a reviewer was refused a restore of version
    4 for "the changes of version 5", which it had undone. Read from the snapshots, never
    from comments, which anyone saving may write; a version that changed the status only
    (a review's "revise") wrote no content. A version an import wrote (its kind is
    "import", store/items.REVISION_KINDS: a new item, or `--replace` over one) is no
    one's authorship: the dataset's authors wrote it, and whoever imported it may review it."""
    reviewed = one(db, "SELECT MAX(version) AS v FROM reviews WHERE item_id = ? AND "
                       "version <= ? AND reviewer != ? AND verdict = 'approve'",
                   [item_id, version, reviewer])["v"] or 0
    cursor = db.conn.execute("SELECT version, CASE WHEN kind = 'import' THEN NULL ELSE author "
                             "END, snapshot FROM revisions WHERE item_id = ? AND version <= ? "
                             "ORDER BY version", [item_id, version])
    # read one at a time (an item's history may hold many snapshots), each kept as its
    # content's digest only
    found = [(v, author, _content_key(json.loads(snapshot))) for v, author, snapshot in cursor]
    at, restored_by, later = len(found) - 1, None, None
    while at >= 0 and found[at][0] > reviewed:
        v, author, key = found[at]
        same = next((i for i in range(at - 1, -1, -1) if found[i][2] == key), None)
        if same is not None and same < at - 1 and author == reviewer and v == version:
            return v, None, []      # its restorer saved it: never its reviewer
        if same is not None:        # holds version found[same]'s content: wrote none of it
            if same < at - 1 and restored_by is None:
                restored_by = v
            at = same
            continue
        if author == reviewer and v == version:
            return v, restored_by, []
        if author == reviewer:      # a change of content: held if `version` keeps some of it
            later = later or revision(db, item_id, version)
            held = _held(db, item_id, found[at - 1][0] if at else None, v, later)
            if held:
                return v, restored_by, held
        at -= 1
    return None


def _held(db: sqlite_utils.Database, item_id: str, before: int | None, version: int,
          later: dict) -> list[str]:
    """The fields `version` changed (from version `before`) that `later` still holds with
    its values. The first version (`before` None) wrote every field it filled, not its
    empty ones, nor the item's id and dataset (no one's words)."""
    mine = revision(db, item_id, version)
    was = revision(db, item_id, before) if before is not None else \
        {k: v for k, v in mine.items() if v in ("", [], {}, None)}
    ignore = tuple(STATUS_ONLY) + (("id", "dataset") if before is None else ())
    return held_changes(was, mine, later, ignore)


def _content_key(snapshot: dict) -> str:
    """A revision's content (not its status or bookkeeping), as one comparable string."""
    return json.dumps({k: v for k, v in as_read(snapshot).items()
                       if k not in STATUS_ONLY and v is not None}, sort_keys=True)


def _review_status(db: sqlite_utils.Database, item_id: str, version: int, reviewer: str,
                   verdict: str, note: str) -> None:
    """Give the item the status of the verdict, if `version` is its latest and editable."""
    head = one(db, "SELECT version, status, deleted_at FROM items WHERE id = ?", [item_id])
    status = REVIEW_STATUS[verdict]
    if head is None or head["deleted_at"] or head["version"] != version \
            or head["status"] in ("released", status):
        return
    comment = f"review: {verdict}" + (f" ({note.strip()})" if (note or "").strip() else "")
    save_item(db, {**get_item(db, item_id), "status": status}, version, reviewer, comment)


def reviews(db: sqlite_utils.Database, item_id: str) -> list[dict]:
    """[{id, item_id, version, reviewer, verdict, note, created_at}], newest first."""
    return rows(db, "SELECT id, item_id, version, reviewer, verdict, note, created_at "
                    "FROM reviews WHERE item_id = ? ORDER BY id DESC", [item_id])
