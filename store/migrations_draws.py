"""The migrations that make a run's draws traceable: which run made each cached reply (0013),
what each sent request was estimated at before it went out (0014), and which judge made a
judge's cached reply (0018).
Registered in store/migrations.py's MIGRATIONS; never edit one that has shipped.
"""
from __future__ import annotations

import sqlite_utils

from .db import run_statements


def m0013_cache_sources(db: sqlite_utils.Database) -> None:
    """Where a cached reply came from, so that a run can say whose draws it reused.

    `response_cache.run_id`: the run whose request paid for the entry (NULL for a judge's
    call). `run_responses.cached_from`: for a result taken from the cache, the run that made
    that reply. Both are filled for what is stored already, through the first uncached
    result that has the entry's key (an index on `cache_key` keeps that one pass short and
    serves the same look-up later). A cached result has no latency of its own: the one it
    copied was the original call's, measured then, not now (views say "cached").
    """
    run_statements(db, """
    ALTER TABLE response_cache ADD COLUMN run_id TEXT;
    ALTER TABLE run_responses ADD COLUMN cached_from TEXT;
    CREATE INDEX idx_run_responses_cache_key ON run_responses(cache_key);
    UPDATE response_cache SET run_id = (
        SELECT r.run_id FROM run_responses r WHERE r.cache_key = response_cache.key
        AND r.cached = 0 ORDER BY r.created_at, r.work_id LIMIT 1);
    UPDATE run_responses SET cached_from = (
        SELECT c.run_id FROM response_cache c WHERE c.key = run_responses.cache_key),
        latency = NULL
    WHERE cached = 1
    """)



def m0014_prompt_estimates(db: sqlite_utils.Database) -> None:
    """The a-priori prompt estimate of every request sent (text tokens at ~4 characters a
    token, image tokens by OpenAI's high-detail rule), beside the prompt tokens its endpoint
    reported: what the cost of a later run is calibrated on (runner/costs.py), per image and
    per text token, whatever its setting, clue source or items. NULL for results recorded
    before, and for cached or failed ones."""
    run_statements(db, """
    ALTER TABLE run_responses ADD COLUMN estimated_text_tokens INTEGER;
    ALTER TABLE run_responses ADD COLUMN estimated_image_tokens INTEGER
    """)


def m0018_cache_judges(db: sqlite_utils.Database) -> None:
    """`response_cache.judge`: the LLM judge whose call paid for the entry (NULL for a run's
    reply, and for judges' replies cached before), so that `score` can say whose replies
    another endpoint reused: two endpoints of the same model at the same URL share their
    cache, and `score --judge judge2` said "18 from the cache" of replies made for judge."""
    db.execute("ALTER TABLE response_cache ADD COLUMN judge TEXT")
