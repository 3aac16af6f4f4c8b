"""The migrations of model runs and their results: the experiment runner's tables (0002), the
item version each run was planned with (0003), scores (0004), human baselines (0007),
runs' names and notes (0009) and what was sent for results retried (0022).
Registered in store/migrations.py's MIGRATIONS; never edit one that has shipped.
"""
from __future__ import annotations

import sqlite_utils

from .db import run_statements


def m0002_runner(db: sqlite_utils.Database) -> None:
    """Experiment runner: endpoints, prompt templates, prices, runs, work, responses, cache.

    Table names avoid the bare `runs`/`responses` so they cannot clash with scratch tables in
    tests. Items are referenced without foreign keys: a run's results outlive item edits.
    A work row is one item x repeat x sample (x phase) of a run, created up front; its result
    lives in `run_responses` under the same id, so "exactly one result per work row" is a
    primary key and "what is left to do" is a LEFT JOIN.
    """
    run_statements(db, """
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
    run_statements(db, """
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


def m0007_human_baselines(db: sqlite_utils.Database) -> None:
    """Human baselines for the Results tab: per-item human results, shown as an unranked row.

    One row a baseline: its name (unique, compared case-insensitively), the label the tables
    show, the results as JSON text ({item_id: true/false}), and who added it when. Items are
    not referenced by foreign keys (like runs' work rows): callers check them when adding.
    """
    run_statements(db, """
    CREATE TABLE human_baselines (
        name TEXT PRIMARY KEY COLLATE NOCASE,
        label TEXT NOT NULL,
        results TEXT NOT NULL CHECK (json_valid(results)),  -- {item_id: true/false}
        created_at TEXT NOT NULL,
        created_by TEXT
    )
    """)


def m0009_run_labels(db: sqlite_utils.Database) -> None:
    """A name and a note per run, so that people can tell runs apart by more than an id (the
    id stays the key: renaming changes nothing that refers to the run). Empty by default."""
    db.execute("ALTER TABLE model_runs ADD COLUMN name TEXT NOT NULL DEFAULT ''")
    db.execute("ALTER TABLE model_runs ADD COLUMN note TEXT NOT NULL DEFAULT ''")


def m0022_retried_attempts(db: sqlite_utils.Database) -> None:
    """What was sent for the results a resume forgot to send them again ('retry errors'):
    {"results", "requests", "retries", "rate_limited", "prompt_tokens", "completion_tokens",
    "cost", "priced"} summed over the deleted rows (store/runner_retried.py), so a run's
    requests, retries, tokens and cost still count every attempt that went out."""
    db.execute("ALTER TABLE model_runs ADD COLUMN retried TEXT NOT NULL DEFAULT '{}'")
