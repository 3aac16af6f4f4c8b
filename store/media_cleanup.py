"""Images that only a discarded draft used are removed with it.

Why: an image added in the editor is stored in the media folder at once (content-addressed,
store/media.py) and named by the draft; a discarded draft left it there for good, so an
annotator who added and discarded images filled the disk without saving anything (an
attacker's review). When a draft is deleted (`Store.delete_draft`: a discard, the edits
undone, a save, the item deleted), each image it named that nothing else names loses its
row and its files (original, preview). An image stays while any item, option or box names
it, any other draft (anyone's), or any revision (a restore brings it back): revisions are
searched from a day before the image's row was made (no revision can name an image before
it is stored; the day allows for the clock).
"""
from __future__ import annotations

from pathlib import Path

import sqlite_utils

from .db import atomic, one, scalar
from .media import original_path

DAY_S = 86_400


def images_of(data) -> set[str]:
    """The images a draft's data names (its images, options' and boxes' images); the data
    is work in progress, so anything not shaped like an item names none."""
    if not isinstance(data, dict):
        return set()
    named = list(data.get("images") or [])
    named += [o.get("image") for o in data.get("options") or [] if isinstance(o, dict)]
    named += [b.get("image") for c in data.get("clues") or [] if isinstance(c, dict)
              for b in c.get("boxes") or [] if isinstance(b, dict)]
    return {sha for sha in named if isinstance(sha, str) and sha}


def in_use(db: sqlite_utils.Database, sha: str, created_at: str) -> bool:
    """Does an item, option, box, draft or revision name the image `sha`?"""
    for sql in ("SELECT 1 FROM item_images WHERE sha256 = ? LIMIT 1",
                "SELECT 1 FROM item_options WHERE image = ? LIMIT 1",
                "SELECT 1 FROM boxes WHERE image = ? LIMIT 1",
                "SELECT 1 FROM drafts WHERE instr(data, ?) > 0 LIMIT 1"):
        if scalar(db, sql, [sha]):
            return True
    return bool(scalar(db, "SELECT 1 FROM revisions WHERE created_at >= "
                           "strftime('%Y-%m-%dT%H:%M:%SZ', ?, ?) AND instr(snapshot, ?) > 0 "
                           "LIMIT 1", [created_at, f"-{DAY_S} seconds", sha]))


def forget_unused(db: sqlite_utils.Database, media_dir: Path, shas: set[str]) -> list[str]:
    """Remove the images of `shas` that nothing names (rows, then files); returns those."""
    gone = []
    with atomic(db):
        for sha in sorted(shas):
            row = one(db, "SELECT sha256, format, created_at FROM images WHERE sha256 = ?", [sha])
            if row is not None and not in_use(db, sha, row["created_at"]):
                db.execute("DELETE FROM images WHERE sha256 = ?", [sha])
                gone.append(row)
    for row in gone:
        paths = [original_path(media_dir, row["sha256"], row["format"])]
        paths += [Path(media_dir) / "previews" / f"{row['sha256']}.{ext}" for ext in ("jpg", "png")]
        for path in paths:
            try:
                path.unlink(missing_ok=True)
            except OSError:         # its row is gone: a file left behind names nothing
                pass
    return [row["sha256"] for row in gone]
