"""Named, ordered, transactional schema migrations.

To change the schema, append `("000N_what_it_does", function)` to `MIGRATIONS`; never edit
or reorder a migration that has shipped. Each migration runs in its own transaction together
with the row that records it in `migrations`, so a failing migration leaves no partial schema
and is not recorded (SQLite DDL is transactional). Applying twice is a no-op.
"""
from __future__ import annotations

from typing import Callable, Sequence

import sqlite_utils

from .db import atomic, now, scalar

Migration = Callable[[sqlite_utils.Database], None]


def _run(db: sqlite_utils.Database, sql: str) -> None:
    """Run several `;`-separated statements inside the current transaction."""
    for statement in sql.split(";"):
        if statement.strip():
            db.execute(statement)


def m0001_core_schema(db: sqlite_utils.Database) -> None:
    """Users, datasets, images, items and their parts, revisions, reviews, drafts."""
    _run(db, """
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


def m0002_runner(db: sqlite_utils.Database) -> None:
    """Experiment runner: endpoints, prompt templates, prices, runs, work, responses, cache.

    Table names avoid the bare `runs`/`responses` so they cannot clash with scratch tables in
    tests. Items are referenced without foreign keys: a run's results outlive item edits.
    A work row is one item x repeat x sample (x phase) of a run, created up front; its result
    lives in `run_responses` under the same id, so "exactly one result per work row" is a
    primary key and "what is left to do" is a LEFT JOIN.
    """
    _run(db, """
    CREATE TABLE endpoints (
        name TEXT PRIMARY KEY,
        base_url TEXT NOT NULL,
        model TEXT NOT NULL,
        api_key_env TEXT,             -- the NAME of an environment variable, never the key
        concurrency INTEGER NOT NULL DEFAULT 8 CHECK (concurrency >= 1),
        max_image_pixels INTEGER,
        params TEXT NOT NULL DEFAULT '{}',   -- default sampling parameters (JSON)
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE TABLE prompt_templates (
        name TEXT NOT NULL,
        version INTEGER NOT NULL,
        text TEXT NOT NULL,
        created_at TEXT NOT NULL,
        created_by TEXT,
        PRIMARY KEY (name, version)
    );
    CREATE TABLE prices (
        pattern TEXT PRIMARY KEY,     -- model id or glob, e.g. 'gpt-4o-mini' or 'qwen*'
        input_per_m REAL NOT NULL,    -- USD per million prompt tokens
        output_per_m REAL NOT NULL,   -- USD per million completion tokens
        updated_at TEXT NOT NULL
    );
    CREATE TABLE model_runs (
        id TEXT PRIMARY KEY,
        config_id TEXT NOT NULL,      -- sha256 of the canonical experiment config
        config TEXT NOT NULL,         -- JSON: what defines the experiment (hashed)
        execution TEXT NOT NULL DEFAULT '{}',  -- JSON: budget, deadline, timeout (not hashed)
        endpoint TEXT NOT NULL,
        status TEXT NOT NULL,         -- created|running|paused|cancelled|stopped|failed|done
        control TEXT,                 -- 'pause' | 'cancel' asked by the UI or another process
        message TEXT NOT NULL DEFAULT '',
        totals TEXT NOT NULL DEFAULT '{}',     -- live counters, rewritten with each batch
        owner TEXT,                   -- 'host:pid' of the process executing the run
        heartbeat REAL,               -- unix time of the owner's last batch commit
        created_at TEXT NOT NULL,
        created_by TEXT,
        started_at TEXT,
        finished_at TEXT
    );
    CREATE INDEX idx_model_runs_config ON model_runs(config_id);
    CREATE TABLE run_work (
        id INTEGER PRIMARY KEY,
        run_id TEXT NOT NULL REFERENCES model_runs(id) ON DELETE CASCADE,
        phase TEXT NOT NULL,          -- 'answer', or 'clues' for the first pass of clues=self
        item_id TEXT NOT NULL,
        repeat INTEGER NOT NULL,
        sample INTEGER NOT NULL,
        seed INTEGER,
        UNIQUE (run_id, phase, item_id, repeat, sample)
    );
    CREATE TABLE run_responses (
        work_id INTEGER PRIMARY KEY REFERENCES run_work(id) ON DELETE CASCADE,
        run_id TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('ok', 'error', 'refused', 'truncated',
                                               'unparsed')),
        reason TEXT NOT NULL DEFAULT '',
        text TEXT,
        answer TEXT,
        clues TEXT NOT NULL DEFAULT '[]',
        box_convention TEXT,
        finish_reason TEXT,
        prompt_tokens INTEGER,
        completion_tokens INTEGER,
        latency REAL,
        attempts INTEGER NOT NULL DEFAULT 0,
        rate_limited INTEGER NOT NULL DEFAULT 0,
        cached INTEGER NOT NULL DEFAULT 0,
        cache_key TEXT,
        cost REAL,
        created_at TEXT NOT NULL
    );
    CREATE INDEX idx_run_responses_run ON run_responses(run_id, status);
    CREATE TABLE response_cache (
        key TEXT PRIMARY KEY,
        text TEXT NOT NULL,
        finish_reason TEXT,
        refusal TEXT,
        prompt_tokens INTEGER,
        completion_tokens INTEGER,
        latency REAL,
        created_at TEXT NOT NULL
    )
    """)


def m0003_run_item_versions(db: sqlite_utils.Database) -> None:
    """The version of each item a run was planned with, so that a resume after an item edit
    sends the question as planned (from the revision), not the edited one."""
    db.execute("ALTER TABLE run_work ADD COLUMN item_version INTEGER")


def m0004_scores(db: sqlite_utils.Database) -> None:
    """Scores: one verdict per response x protocol x judge (issue 4).

    Keyed by the run, the protocol (general | rigorous | verbench | grounded), the judge
    setup ("offline", "llm:<endpoint>", "panel:<a>+<b>") and the response (its work row id), so
    that re-scoring replaces a verdict instead of adding one, and verdicts of several judges
    live side by side (agreement, cross-checks). The judge's exact prompt and reply are kept
    with the verdict. WITHOUT ROWID with the run first in the key: one B-tree, every per-run
    table is a range scan of it, and a scoring appends in key order (100,000 rows in about a
    second). Deleting a run deletes its scores; work rows are not referenced (like items).
    `scorings` summarises each (run, protocol, judge) so that listing a run's scorings, and
    knowing whether remembered results are stale, never scans the scores.
    """
    _run(db, """
    CREATE TABLE scores (
        run_id TEXT NOT NULL REFERENCES model_runs(id) ON DELETE CASCADE,
        protocol TEXT NOT NULL,
        judge TEXT NOT NULL,          -- the setup: offline | llm:<endpoint> | panel:<a>+<b>
        work_id INTEGER NOT NULL,     -- the response (run_work.id = run_responses.work_id)
        value TEXT NOT NULL CHECK (value IN ('correct', 'wrong', 'unparsed', 'unscored',
                                             'error')),
        score REAL,                   -- 1/0, or the VER-Bench average as a fraction
        subscores TEXT NOT NULL DEFAULT '{}',  -- JSON: AC/CC/RQ/ER, panel votes, ...
        rationale TEXT NOT NULL DEFAULT '',
        decided_by TEXT NOT NULL DEFAULT '',   -- the verdict's own judge: rule:..., llm:...
        answer TEXT,
        details TEXT NOT NULL DEFAULT '{}',    -- JSON: rule-specific facts
        judge_prompt TEXT,
        judge_reply TEXT,
        created_at TEXT NOT NULL,
        PRIMARY KEY (run_id, protocol, judge, work_id)
    ) WITHOUT ROWID;
    CREATE TABLE scorings (           -- one line per run x protocol x judge: what was scored
        run_id TEXT NOT NULL REFERENCES model_runs(id) ON DELETE CASCADE,
        protocol TEXT NOT NULL,
        judge TEXT NOT NULL,
        n INTEGER NOT NULL,           -- score rows now stored
        scored_at TEXT NOT NULL,
        generation INTEGER NOT NULL,  -- +1 per scoring: results computed before are stale
        PRIMARY KEY (run_id, protocol, judge)
    ) WITHOUT ROWID
    """)


SEED_FAILURE_TAGS = (
    ("illusionary clue", "the model relies on a clue that is not in the image"),
    ("useless clue", "a real clue that does not bear on the answer"),
    ("missed clue", "the model did not use a GT clue the answer needs"),
    ("perception error", "the model misread what the image shows"),
    ("reasoning error", "the right clues, a wrong inference from them"),
    ("knowledge error", "wrong or missing world knowledge"),
    ("format error", "the answer is unreadable or in the wrong form"),
)


def m0005_inspect(db: sqlite_utils.Database) -> None:
    """Failure tags and notes on responses (issue 5), and the indexes the failure browser needs.

    The tag vocabulary starts with the seeds' failure tags and grows as users add tags (names
    compare case-insensitively). A tag or note belongs to a work row (= one response, the
    same id as `run_responses.work_id`) and disappears with its run; `run_id` is copied in so
    per-run tag counts read one index range. Re-running a failed response keeps its tags.
    Each tag and note records its author and time. `idx_run_work_item` finds every response
    to one item (the compare view); `idx_run_responses_lengths` sorts a run's responses by
    output length or latency without reading their texts; the browser's filters otherwise
    read existing keys (results by run and status, verdicts by a range of the scores key,
    run work by run) and the tag indexes below.
    """
    _run(db, """
    CREATE TABLE failure_tags (
        name TEXT PRIMARY KEY COLLATE NOCASE,
        description TEXT NOT NULL DEFAULT '',
        seeded INTEGER NOT NULL DEFAULT 0,
        created_by TEXT,
        created_at TEXT NOT NULL
    );
    CREATE TABLE response_tags (
        work_id INTEGER NOT NULL REFERENCES run_work(id) ON DELETE CASCADE,
        tag TEXT NOT NULL COLLATE NOCASE REFERENCES failure_tags(name) ON UPDATE CASCADE,
        run_id TEXT NOT NULL,
        author TEXT,
        created_at TEXT NOT NULL,
        PRIMARY KEY (work_id, tag)
    ) WITHOUT ROWID;
    CREATE INDEX idx_response_tags_run ON response_tags(run_id, tag);
    CREATE INDEX idx_response_tags_tag ON response_tags(tag, work_id);
    CREATE TABLE response_notes (
        id INTEGER PRIMARY KEY,
        work_id INTEGER NOT NULL REFERENCES run_work(id) ON DELETE CASCADE,
        run_id TEXT NOT NULL,
        note TEXT NOT NULL,
        author TEXT,
        created_at TEXT NOT NULL
    );
    CREATE INDEX idx_response_notes_work ON response_notes(work_id, id);
    CREATE INDEX idx_response_notes_run ON response_notes(run_id);
    CREATE INDEX idx_run_work_item ON run_work(item_id);
    CREATE INDEX idx_run_responses_lengths ON run_responses(run_id, completion_tokens, latency)
    """)
    # A counter of tag writes (any process), so remembered browser results know they are stale.
    db.execute("CREATE TABLE inspect_counters (name TEXT PRIMARY KEY, n INTEGER NOT NULL) "
               "WITHOUT ROWID")
    db.execute("INSERT INTO inspect_counters (name, n) VALUES ('tags', 0)")
    for event in ("INSERT", "UPDATE", "DELETE"):
        db.execute(f"CREATE TRIGGER response_tags_{event.lower()} AFTER {event} ON response_tags "
                   "BEGIN UPDATE inspect_counters SET n = n + 1 WHERE name = 'tags'; END")
    stamp = now()
    db.conn.executemany("INSERT INTO failure_tags (name, description, seeded, created_by, "
                        "created_at) VALUES (?, ?, 1, NULL, ?)",
                        [(name, text, stamp) for name, text in SEED_FAILURE_TAGS])


# Append new migrations at the end; names must be unique and never change.
MIGRATIONS: list[tuple[str, Migration]] = [
    ("0001_core_schema", m0001_core_schema),
    ("0002_runner", m0002_runner),
    ("0003_run_item_versions", m0003_run_item_versions),
    ("0004_scores", m0004_scores),
    ("0005_inspect", m0005_inspect),
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
