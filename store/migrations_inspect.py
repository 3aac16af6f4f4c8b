"""The Inspect tab's migrations (issue 5): failure tags and notes (0005), the log of tag
changes that leave no row behind (0006), and tags put on a response logged too (0011), so
taking one off does not erase who added it. Registered in store/migrations.py's MIGRATIONS.
"""
from __future__ import annotations

import sqlite_utils

from .db import now, run_statements


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
    run_statements(db, """
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


def m0006_inspect_tag_events(db: sqlite_utils.Database) -> None:
    """Tag changes that would otherwise leave no trace, each with its author and time: a tag
    taken off a response ('untag', with the response's work id), a vocabulary tag renamed
    ('rename', with the old name; its uses follow through response_tags' ON UPDATE CASCADE)
    or deleted ('delete'). Adding a tag is already recorded where it is stored
    (response_tags.author / failure_tags.created_by). A response's events go with its run.
    """
    run_statements(db, """
    CREATE TABLE tag_events (
        id INTEGER PRIMARY KEY,
        action TEXT NOT NULL,              -- 'untag' | 'rename' | 'delete'
        tag TEXT NOT NULL COLLATE NOCASE,  -- the tag's name after the change
        old_name TEXT COLLATE NOCASE,      -- 'rename': the name before
        work_id INTEGER REFERENCES run_work(id) ON DELETE CASCADE,
        author TEXT,
        created_at TEXT NOT NULL
    );
    CREATE INDEX idx_tag_events_work ON tag_events(work_id);
    CREATE INDEX idx_tag_events_tag ON tag_events(tag, action)
    """)


def m0011_tag_added_events(db: sqlite_utils.Database) -> None:
    """A tag put on a response is logged as a 'tag' event too (who, when), so its history
    keeps the addition once the tag is taken off ('untag') and its response_tags row is
    gone. The tags on responses now are logged as added by whom and when they were; those
    taken off before this migration left no trace of their addition."""
    db.conn.execute("INSERT INTO tag_events (action, tag, work_id, author, created_at) "
                    "SELECT 'tag', tag, work_id, author, created_at FROM response_tags "
                    "ORDER BY created_at, work_id, tag")
