"""Prompt templates, versioned: a run records which version of each template it used.

Versions are immutable. Saving a text that differs from the latest version appends a new
version; saving the same text again returns the existing version, so re-seeding defaults or
pressing "save" twice never creates noise versions.
"""
from __future__ import annotations

import sqlite_utils

from .db import atomic, now, one, rows
from .errors import NotFoundError, ValidationError


def latest_template(db: sqlite_utils.Database, name: str) -> dict | None:
    return one(db, "SELECT name, version, text, created_at, created_by FROM prompt_templates "
                   "WHERE name = ? ORDER BY version DESC LIMIT 1", [name])


def get_template(db: sqlite_utils.Database, name: str, version: int | None = None) -> dict:
    """One version (the latest when `version` is None); NotFoundError if missing."""
    if version is None:
        found = latest_template(db, name)
    else:
        found = one(db, "SELECT name, version, text, created_at, created_by "
                        "FROM prompt_templates WHERE name = ? AND version = ?", [name, version])
    if found is None:
        raise NotFoundError(f"no prompt template {name!r}"
                            + (f" version {version}" if version is not None else ""))
    return found


def save_template(db: sqlite_utils.Database, name: str, text: str,
                  author: str | None = None) -> int:
    """Append `text` as a new version unless it equals the latest; return the version."""
    if not name or not isinstance(text, str) or not text.strip():
        raise ValidationError(f"prompt template {name!r}: empty text", field="text")
    with atomic(db):
        latest = latest_template(db, name)
        if latest and latest["text"] == text:
            return latest["version"]
        version = (latest["version"] + 1) if latest else 1
        db.conn.execute("INSERT INTO prompt_templates (name, version, text, created_at, "
                        "created_by) VALUES (?, ?, ?, ?, ?)",
                        [name, version, text, now(), author])
    return version


def ensure_template(db: sqlite_utils.Database, name: str, default_text: str) -> dict:
    """The latest version, creating version 1 from `default_text` if the name is new.

    Existing versions are never touched: after first use the database, not the file in
    assets/, is the source of truth (edits happen through `save_template`).
    """
    found = latest_template(db, name)
    if found is not None:
        return found
    with atomic(db):
        found = latest_template(db, name)  # another process may have seeded it meanwhile
        if found is None:
            db.conn.execute("INSERT INTO prompt_templates (name, version, text, created_at, "
                            "created_by) VALUES (?, 1, ?, ?, 'default')",
                            [name, default_text, now()])
    return latest_template(db, name)


def list_templates(db: sqlite_utils.Database) -> list[dict]:
    """Latest version of every template, with how many versions exist."""
    return rows(db, "SELECT t.name, t.version, t.text, t.created_at, t.created_by, "
                    "(SELECT count(*) FROM prompt_templates v WHERE v.name = t.name) AS versions "
                    "FROM prompt_templates t WHERE t.version = "
                    "(SELECT max(version) FROM prompt_templates m WHERE m.name = t.name) "
                    "ORDER BY t.name")


def template_history(db: sqlite_utils.Database, name: str) -> list[dict]:
    return rows(db, "SELECT name, version, text, created_at, created_by FROM prompt_templates "
                    "WHERE name = ? ORDER BY version DESC", [name])
