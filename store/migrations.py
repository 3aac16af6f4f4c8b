"""Named, ordered, transactional schema migrations.

To change the schema, append `("000N_what_it_does", function)` to `MIGRATIONS`; never edit
or reorder a migration that has shipped. Each migration runs in its own transaction together
with the row that records it in `migrations`, so a failing migration leaves no partial schema
and is not recorded (SQLite DDL is transactional). Applying twice is a no-op.
"""
from __future__ import annotations

from typing import Callable, Sequence

import sqlite_utils

from .db import atomic, now, run_statements, scalar
from .migrations_inspect import (m0005_inspect, m0006_inspect_tag_events,
                                 m0011_tag_added_events)
from .drafts import m0008_draft_sessions, m0021_draft_comments
from .draft_budget import m0017_draft_sizes
from .users import m0015_user_access
from .save_budget import m0019_revision_sizes
from .migrations_draws import m0013_cache_sources, m0014_prompt_estimates, m0018_cache_judges
from .migrations_runs import (m0002_runner, m0003_run_item_versions, m0004_scores,
                              m0007_human_baselines, m0009_run_labels,
                              m0022_retried_attempts)

Migration = Callable[[sqlite_utils.Database], None]


def m0001_core_schema(db: sqlite_utils.Database) -> None:
    """Users, datasets, images, items and their parts, revisions, reviews, drafts."""
    run_statements(db, """
    CREATE TABLE users (
        name TEXT PRIMARY KEY,
        role TEXT NOT NULL,
        password_hash TEXT NOT NULL,  -- 'scrypt$n$r$p$<hex>'
        salt TEXT NOT NULL,           -- hex, per user
        created_at TEXT NOT NULL
    );
    CREATE TABLE datasets (
        name TEXT PRIMARY KEY,
        created_at TEXT NOT NULL
    );
    CREATE TABLE images (
        sha256 TEXT PRIMARY KEY,
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        format TEXT NOT NULL,
        bytes INTEGER NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE TABLE items (
        id TEXT PRIMARY KEY,
        dataset TEXT NOT NULL REFERENCES datasets(name),
        sort_key TEXT NOT NULL,       -- id with digit runs zero-padded: natural order in SQL
        domain TEXT,
        subtask TEXT,
        reasoning_type TEXT,
        question TEXT NOT NULL,
        answer_type TEXT NOT NULL,
        answer TEXT NOT NULL DEFAULT '',
        aliases TEXT NOT NULL DEFAULT '[]',
        gt_reasoning TEXT NOT NULL DEFAULT '',
        status TEXT NOT NULL,
        problems TEXT NOT NULL DEFAULT '[]',
        flagged INTEGER NOT NULL DEFAULT 0,
        metadata TEXT NOT NULL DEFAULT '{}',
        version INTEGER NOT NULL,
        updated_at TEXT NOT NULL,
        updated_by TEXT
    );
    CREATE INDEX idx_items_dataset_sort ON items(dataset, sort_key, id);
    CREATE INDEX idx_items_domain ON items(domain);
    CREATE INDEX idx_items_subtask ON items(subtask);
    CREATE INDEX idx_items_status ON items(status);
    CREATE INDEX idx_items_flagged ON items(flagged);
    CREATE TABLE item_images (
        item_id TEXT NOT NULL REFERENCES items(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        sha256 TEXT NOT NULL REFERENCES images(sha256),
        PRIMARY KEY (item_id, position)
    );
    CREATE INDEX idx_item_images_sha ON item_images(sha256);
    CREATE TABLE item_options (
        item_id TEXT NOT NULL REFERENCES items(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        label TEXT NOT NULL,
        text TEXT NOT NULL DEFAULT '',
        image TEXT REFERENCES images(sha256),
        PRIMARY KEY (item_id, position)
    );
    CREATE INDEX idx_item_options_image ON item_options(image);
    CREATE TABLE clues (
        id INTEGER PRIMARY KEY,
        item_id TEXT NOT NULL REFERENCES items(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        text TEXT NOT NULL DEFAULT '',
        reasoning TEXT NOT NULL DEFAULT '',
        UNIQUE (item_id, position)
    );
    CREATE TABLE boxes (
        id INTEGER PRIMARY KEY,
        clue_id INTEGER NOT NULL REFERENCES clues(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        image TEXT NOT NULL REFERENCES images(sha256),
        x0 REAL NOT NULL, y0 REAL NOT NULL, x1 REAL NOT NULL, y1 REAL NOT NULL
    );
    CREATE INDEX idx_boxes_clue ON boxes(clue_id, position);
    CREATE TABLE revisions (
        id INTEGER PRIMARY KEY,
        item_id TEXT NOT NULL REFERENCES items(id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        author TEXT,
        created_at TEXT NOT NULL,
        comment TEXT NOT NULL DEFAULT '',
        snapshot TEXT NOT NULL,
        UNIQUE (item_id, version)
    );
    CREATE TABLE reviews (
        id INTEGER PRIMARY KEY,
        item_id TEXT NOT NULL REFERENCES items(id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        reviewer TEXT NOT NULL,
        verdict TEXT NOT NULL CHECK (verdict IN ('approve', 'revise', 'reject')),
        note TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL
    );
    CREATE INDEX idx_reviews_item ON reviews(item_id, id);
    CREATE TABLE drafts (
        user TEXT NOT NULL,
        item_id TEXT NOT NULL,        -- no foreign key: a draft may be for a not-yet-created item
        base_version INTEGER,
        data TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (user, item_id)
    )
    """)


def m0010_item_life_cycle(db: sqlite_utils.Database) -> None:
    """Deleted items: kept with their history (restorable by an admin), hidden everywhere else."""
    run_statements(db, """
    ALTER TABLE items ADD COLUMN deleted_at TEXT;
    ALTER TABLE items ADD COLUMN deleted_by TEXT
    """)


def m0012_store_marks(db: sqlite_utils.Database) -> None:
    """One-time events of a database (`demo_seeded`). A database that already holds items
    was seeded or filled by an import: it is marked, so the demo never comes back."""
    db.execute("CREATE TABLE store_marks (name TEXT PRIMARY KEY, at TEXT NOT NULL)")
    if scalar(db, "SELECT 1 FROM items LIMIT 1"):
        db.execute("INSERT INTO store_marks (name, at) VALUES ('demo_seeded', ?)", [now()])


def m0016_revision_times(db: sqlite_utils.Database) -> None:
    """Revisions by author and time (store/save_budget.py: an account's history of the last
    hour), and by time (store/media_cleanup.py: the revisions made since an image came)."""
    run_statements(db, """
    CREATE INDEX idx_revisions_author_time ON revisions(author, created_at);
    CREATE INDEX idx_revisions_time ON revisions(created_at)
    """)


def m0020_revision_kinds(db: sqlite_utils.Database) -> None:
    """A revision's kind (store/items.REVISION_KINDS): "import" when an import wrote it, which
    is not authorship of its content (store/revisions.unreviewed_writer). Revisions before it:
    a version 1 whose comment starts with "import" was an import's (only an import writes
    that comment on a new item: the Annotate page's are "created from uploaded images" and
    "duplicate of ..."); a later one stays "edit" (a saver may type any comment)."""
    run_statements(db, """
    ALTER TABLE revisions ADD COLUMN kind TEXT NOT NULL DEFAULT 'edit';
    UPDATE revisions SET kind = 'import' WHERE version = 1 AND comment LIKE 'import%'
    """)


# Append new migrations at the end; names must be unique and never change.
MIGRATIONS: list[tuple[str, Migration]] = [
    ("0001_core_schema", m0001_core_schema),
    ("0002_runner", m0002_runner),
    ("0003_run_item_versions", m0003_run_item_versions),
    ("0004_scores", m0004_scores),
    ("0005_inspect", m0005_inspect),
    ("0006_inspect_tag_events", m0006_inspect_tag_events),
    ("0007_human_baselines", m0007_human_baselines),
    ("0008_draft_sessions", m0008_draft_sessions),
    ("0009_run_labels", m0009_run_labels),
    ("0010_item_life_cycle", m0010_item_life_cycle),
    ("0011_tag_added_events", m0011_tag_added_events),
    ("0012_store_marks", m0012_store_marks),
    ("0013_cache_sources", m0013_cache_sources),
    ("0014_prompt_estimates", m0014_prompt_estimates),
    ("0015_user_access", m0015_user_access),
    ("0016_revision_times", m0016_revision_times),
    ("0017_draft_sizes", m0017_draft_sizes),
    ("0018_cache_judges", m0018_cache_judges),
    ("0019_revision_sizes", m0019_revision_sizes),
    ("0020_revision_kinds", m0020_revision_kinds),
    ("0021_draft_comments", m0021_draft_comments),
    ("0022_retried_attempts", m0022_retried_attempts),
]


def ensure_migrations_table(db: sqlite_utils.Database) -> None:
    db.execute("CREATE TABLE IF NOT EXISTS migrations ("
               "name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")


def applied_migrations(db: sqlite_utils.Database) -> list[str]:
    """Names of applied migrations, in the order they were applied."""
    ensure_migrations_table(db)
    return [r[0] for r in db.execute("SELECT name FROM migrations ORDER BY rowid").fetchall()]


def apply_migrations(db: sqlite_utils.Database,
                     migrations: Sequence[tuple[str, Migration]] | None = None) -> list[str]:
    """Apply every migration not yet recorded; return the names applied now.

    The "already applied?" check is repeated inside each migration's write transaction, so
    two processes opening the same new database cannot both apply a migration.
    """
    migrations = MIGRATIONS if migrations is None else migrations
    names = [name for name, _ in migrations]
    if len(set(names)) != len(names):
        raise ValueError(f"duplicate migration names in {names}")
    ensure_migrations_table(db)
    done = []
    for name, function in migrations:
        with atomic(db):
            if scalar(db, "SELECT 1 FROM migrations WHERE name = ?", [name]):
                continue
            function(db)
            db.execute("INSERT INTO migrations (name, applied_at) VALUES (?, ?)", [name, now()])
        done.append(name)
    return done
