"""Failure tags and notes on responses (migration 0005): the vocabulary, who tagged what and
when, free notes, per-run counts, and the tagged cases for export.

A response is named by its work row id (`run_work.id` = `run_responses.work_id`). Tag names
compare case-insensitively ("Perception error" is the seeded "perception error"); a tag must
be in the vocabulary before it is used, so a typo cannot split the counts silently. Renaming a
tag keeps its uses (response_tags follows by ON UPDATE CASCADE). Changes that leave no row
behind (a tag taken off a response, a tag renamed or deleted) are logged in `tag_events` with
their author and time (migration 0006), and so is a tag put on a response (0011): its history
lists both.
"""
from __future__ import annotations

import json
import re

import sqlite_utils

from domain.item_ids import direction_marks_problem
from domain.limits import MAX_RESPONSE_NOTE, MAX_TAG, MAX_TAG_DESCRIPTION
from domain.vocabulary import counted

from .db import atomic, now, one, rows
from .errors import NotFoundError, ValidationError

TAG_MAX = MAX_TAG                   # domain/limits.py: every limit in one place
NOTE_MAX = MAX_RESPONSE_NOTE
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def clean_tag(name) -> str:
    """A tag name as stored: one line, inner spaces collapsed, 1-40 characters."""
    text = " ".join(_CONTROL.sub(" ", str(name or "")).split())
    if not text:
        raise ValidationError("a tag needs a name", field="tag")
    if len(text) > TAG_MAX:
        raise ValidationError(f"a tag name has at most {TAG_MAX} characters", field="tag")
    if found := direction_marks_problem("a tag name", text):    # as run names and notes
        raise ValidationError(found, field="tag")
    return text


def list_tags(db: sqlite_utils.Database) -> list[dict]:
    """The vocabulary, seeded tags first (in seed order), then the added ones by name, each
    with how many responses carry it and its last rename ({old_name, author, created_at}
    or None)."""
    found = rows(db, "SELECT t.name, t.description, t.seeded, t.created_by, t.created_at, "
                     "(SELECT count(*) FROM response_tags r WHERE r.tag = t.name) AS uses, "
                     "(SELECT json_object('old_name', e.old_name, 'author', e.author, "
                     "'created_at', e.created_at) FROM tag_events e WHERE e.action = 'rename' "
                     "AND e.tag = t.name ORDER BY e.id DESC LIMIT 1) AS renamed "
                     "FROM failure_tags t ORDER BY t.seeded DESC, "
                     "CASE WHEN t.seeded THEN t.rowid END, t.name")
    for r in found:
        r["renamed"] = json.loads(r["renamed"]) if r["renamed"] else None
    return found


def _event(db, action: str, tag: str, author: str | None, old_name: str | None = None,
           work_ids=(None,), stamp: str | None = None) -> None:
    stamp = stamp or now()
    db.conn.executemany("INSERT INTO tag_events (action, tag, old_name, work_id, author, "
                        "created_at) VALUES (?, ?, ?, ?, ?, ?)",
                        [(action, tag, old_name, w, author, stamp) for w in work_ids])


def _find(db, name: str) -> str:
    """The stored spelling of a vocabulary tag; NotFoundError if there is none."""
    found = one(db, "SELECT name FROM failure_tags WHERE name = ?", [clean_tag(name)])
    if not found:
        raise NotFoundError(f"no tag {name!r}")
    return found["name"]


def add_tag(db: sqlite_utils.Database, name: str, author: str | None,
            description: str = "") -> dict:
    """Add a tag to the vocabulary; an existing name (any case) is returned unchanged."""
    name = clean_tag(name)
    if found := direction_marks_problem("a tag description", description):
        raise ValidationError(found, field="description")
    with atomic(db):
        found = one(db, "SELECT name, description, seeded FROM failure_tags WHERE name = ?",
                    [name])
        if found:
            return found
        db.conn.execute("INSERT INTO failure_tags (name, description, seeded, created_by, "
                        "created_at) VALUES (?, ?, 0, ?, ?)",
                        [name, " ".join(str(description or "").split())[:MAX_TAG_DESCRIPTION], author, now()])
    return {"name": name, "description": description, "seeded": 0}


def delete_tag(db: sqlite_utils.Database, name: str, author: str | None = None) -> None:
    """Remove an unused tag from the vocabulary (a tag in use must be taken off first)."""
    with atomic(db):
        name = _find(db, name)
        uses = db.conn.execute("SELECT count(*) FROM response_tags WHERE tag = ?",
                               [name]).fetchone()[0]
        if uses:
            raise ValidationError(f"tag {name!r} is on {counted(uses, 'response')}; remove it "
                                  f"from {'that response' if uses == 1 else 'them'} first",
                                  field="tag")
        db.conn.execute("DELETE FROM failure_tags WHERE name = ?", [name])
        _event(db, "delete", name, author)


def rename_tag(db: sqlite_utils.Database, name: str, new_name: str, author: str | None
               ) -> dict:
    """Rename a vocabulary tag (a change of case too); every response carrying it carries
    the new name, with who tagged it and when unchanged. A name another tag has is refused
    (rename that one, or move its uses, first). Returns {"name", "old_name", "uses"}."""
    new_name = clean_tag(new_name)
    with atomic(db):
        old = _find(db, name)
        if new_name == old:
            raise ValidationError(f"tag {old!r} already has that name", field="tag")
        if new_name.casefold() != old.casefold() and one(
                db, "SELECT name FROM failure_tags WHERE name = ?", [new_name]):
            raise ValidationError(f"there is already a tag {new_name!r}", field="tag")
        db.conn.execute("UPDATE failure_tags SET name = ? WHERE name = ?", [new_name, old])
        # the cascade has moved the uses, except on a change of case (equal under NOCASE)
        db.conn.execute("UPDATE response_tags SET tag = ? WHERE tag = ? AND tag != ? COLLATE "
                        "BINARY", [new_name, new_name, new_name])
        uses = db.conn.execute("SELECT count(*) FROM response_tags WHERE tag = ?",
                               [new_name]).fetchone()[0]
        _event(db, "rename", new_name, author, old_name=old)
    return {"name": new_name, "old_name": old, "uses": uses}


def _run_of(db: sqlite_utils.Database, work_id: int) -> str:
    row = db.conn.execute("SELECT run_id FROM run_work WHERE id = ?", [int(work_id)]).fetchone()
    if row is None:
        raise NotFoundError(f"no response {work_id}")
    return row[0]


def response_tags(db: sqlite_utils.Database, work_id: int) -> list[dict]:
    """[{tag, author, created_at}] of one response, in the order they were added."""
    return rows(db, "SELECT t.name AS tag, r.author, r.created_at FROM response_tags r "
                    "JOIN failure_tags t ON t.name = r.tag WHERE r.work_id = ? "
                    "ORDER BY r.created_at, t.name", [int(work_id)])


def set_response_tags(db: sqlite_utils.Database, work_id: int, tags, author: str | None
                      ) -> dict:
    """Make the response's tags exactly `tags`: new ones are recorded with `author` and the
    time, kept ones keep who added them and when, missing ones are removed.
    Returns {"added": [...], "removed": [...], "tags": [...]}."""
    wanted = {}
    for tag in tags or []:
        name = clean_tag(tag)
        wanted.setdefault(name.casefold(), name)
    with atomic(db):
        run_id = _run_of(db, work_id)
        known = {r[0].casefold(): r[0] for r in db.conn.execute(
            f"SELECT name FROM failure_tags WHERE name IN ({','.join('?' * len(wanted))})",
            list(wanted.values()))} if wanted else {}
        unknown = [name for key, name in wanted.items() if key not in known]
        if unknown:
            raise ValidationError(f"unknown tag(s): {', '.join(unknown)}; add them to the "
                                  "vocabulary first", field="tag")
        have = {r[0].casefold(): r[0] for r in db.conn.execute(
            "SELECT tag FROM response_tags WHERE work_id = ?", [int(work_id)])}
        added = [known[k] for k in wanted if k not in have]
        removed = [name for k, name in have.items() if k not in wanted]
        stamp = now()
        db.conn.executemany("INSERT INTO response_tags (work_id, tag, run_id, author, "
                            "created_at) VALUES (?, ?, ?, ?, ?)",
                            [(int(work_id), t, run_id, author, stamp) for t in added])
        db.conn.executemany("DELETE FROM response_tags WHERE work_id = ? AND tag = ?",
                            [(int(work_id), t) for t in removed])
        for tag in added:
            _event(db, "tag", tag, author, work_ids=[int(work_id)], stamp=stamp)
        for tag in removed:
            _event(db, "untag", tag, author, work_ids=[int(work_id)])
    return {"added": added, "removed": removed,
            "tags": [t["tag"] for t in response_tags(db, work_id)]}


def remove_response_tag(db: sqlite_utils.Database, work_id: int, tag: str,
                        author: str | None) -> dict:
    """Take one tag off a response, logged with `author` and the time; NotFoundError when
    the response does not carry it. Returns {"removed": name, "tags": [...]}."""
    name = clean_tag(tag)
    with atomic(db):
        _run_of(db, work_id)
        found = one(db, "SELECT tag FROM response_tags WHERE work_id = ? AND tag = ?",
                    [int(work_id), name])
        if not found:
            raise NotFoundError(f"response {work_id} is not tagged {name!r}")
        db.conn.execute("DELETE FROM response_tags WHERE work_id = ? AND tag = ?",
                        [int(work_id), found["tag"]])
        _event(db, "untag", found["tag"], author, work_ids=[int(work_id)])
    return {"removed": found["tag"], "tags": [t["tag"] for t in response_tags(db, work_id)]}


def tag_history(db: sqlite_utils.Database, work_id: int) -> list[dict]:
    """[{tag, action ('tag' | 'untag'), author, created_at}]: every tag put on a response and
    taken off it, by whom and when, oldest first; a tag renamed since keeps the name it had."""
    return rows(db, "SELECT tag, action, author, created_at FROM tag_events WHERE work_id = ? "
                    "AND action IN ('tag', 'untag') ORDER BY id", [int(work_id)])


def removed_tags(db: sqlite_utils.Database, work_id: int) -> list[dict]:
    """[{tag, author, created_at}]: the tags taken off a response (by whom, when), oldest
    first; a tag renamed since keeps the name it had."""
    return rows(db, "SELECT tag, author, created_at FROM tag_events WHERE work_id = ? AND "
                    "action = 'untag' ORDER BY id", [int(work_id)])


def add_note(db: sqlite_utils.Database, work_id: int, note: str, author: str | None) -> int:
    """Append a free note to a response; returns its id."""
    text = str(note or "").strip()
    if not text:
        raise ValidationError("the note is empty", field="note")
    if len(text) > NOTE_MAX:
        raise ValidationError(f"a note has at most {NOTE_MAX} characters", field="note")
    if found := direction_marks_problem("the note", text):
        raise ValidationError(found, field="note")
    with atomic(db):
        run_id = _run_of(db, work_id)
        cursor = db.conn.execute("INSERT INTO response_notes (work_id, run_id, note, author, "
                                 "created_at) VALUES (?, ?, ?, ?, ?)",
                                 [int(work_id), run_id, text, author, now()])
    return cursor.lastrowid


def response_notes(db: sqlite_utils.Database, work_id: int) -> list[dict]:
    """[{id, note, author, created_at}], newest first."""
    return rows(db, "SELECT id, note, author, created_at FROM response_notes "
                    "WHERE work_id = ? ORDER BY id DESC", [int(work_id)])


def tag_counts(db: sqlite_utils.Database, run_id: str) -> dict[str, int]:
    """{tag: responses of the run carrying it}, most used first."""
    return {r[0]: r[1] for r in db.conn.execute(
        "SELECT t.name, count(*) AS n FROM response_tags r JOIN failure_tags t "
        "ON t.name = r.tag WHERE r.run_id = ? GROUP BY t.name ORDER BY n DESC, t.name",
        [run_id])}


def tagged_responses(db: sqlite_utils.Database, run_id: str | None = None,
                     tag: str | None = None) -> list[dict]:
    """Every tagged (or noted) response, optionally of one run and/or carrying one tag, with
    what an export needs: item, answer, gold answer, status, tags and notes with authors."""
    where, params = [], []
    if run_id:
        where.append("w.run_id = ?")
        params.append(run_id)
    scope = ("SELECT work_id FROM response_tags" + (" WHERE tag = ?" if tag else "")
             + ("" if tag else " UNION SELECT work_id FROM response_notes"))
    if tag:
        params.insert(0, clean_tag(tag))
    sql = ("SELECT w.id AS work_id, w.run_id, w.item_id, w.repeat, w.sample, w.item_version, "
           "r.status, r.answer, i.answer AS gold, i.dataset, i.domain, i.subtask, "
           "(SELECT json_group_array(json_object('tag', t.tag, 'author', t.author, "
           "'created_at', t.created_at)) FROM response_tags t WHERE t.work_id = w.id) AS tags, "
           "(SELECT json_group_array(json_object('note', n.note, 'author', n.author, "
           "'created_at', n.created_at)) FROM response_notes n WHERE n.work_id = w.id) AS notes "
           f"FROM ({scope}) s JOIN run_work w ON w.id = s.work_id "
           "LEFT JOIN run_responses r ON r.work_id = w.id LEFT JOIN items i ON i.id = w.item_id"
           + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY w.run_id, w.id")
    found = rows(db, sql, params)
    for r in found:
        r["tags"] = sorted(json.loads(r["tags"] or "[]"), key=lambda t: t["created_at"])
        r["notes"] = sorted(json.loads(r["notes"] or "[]"), key=lambda n: n["created_at"])
    return found
