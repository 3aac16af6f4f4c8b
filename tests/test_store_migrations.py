"""Migrations: ordered, recorded, idempotent, and all-or-nothing."""
import sqlite3

import pytest
import sqlite_utils

from store import Store
from store.migrations import MIGRATIONS, applied_migrations, apply_migrations


def test_fresh_store_has_schema_and_records_migrations(store):
    tables = set(store.db.table_names())
    assert {"users", "datasets", "images", "items", "item_images", "item_options", "clues",
            "boxes", "revisions", "reviews", "drafts", "migrations"} <= tables
    assert applied_migrations(store.db) == [name for name, _ in MIGRATIONS]
    row = store.db.execute("SELECT name, applied_at FROM migrations").fetchone()
    assert row[0] == MIGRATIONS[0][0] and row[1].endswith("Z")


def test_media_folder_created_beside_database(tmp_path):
    s = Store.open(tmp_path / "sub" / "bench.db")
    assert (tmp_path / "sub" / "bench-media").is_dir()
    assert s.media_dir == tmp_path / "sub" / "bench-media"
    s.close()


def test_applying_twice_is_a_no_op(tmp_path):
    s = Store.open(tmp_path / "c.db")
    before = s.db.execute("SELECT name, applied_at FROM migrations").fetchall()
    assert apply_migrations(s.db) == []
    s.close()
    s2 = Store.open(tmp_path / "c.db")  # reopening applies nothing either
    assert s2.db.execute("SELECT name, applied_at FROM migrations").fetchall() == before
    s2.close()


def test_failing_migration_leaves_no_partial_schema_and_is_not_recorded(store):
    def broken(db):
        db.execute("CREATE TABLE half_done (x INTEGER)")
        db.execute("CREATE INDEX idx_half ON half_done(x)")
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        apply_migrations(store.db, MIGRATIONS + [("9999_broken", broken)])
    assert "half_done" not in store.db.table_names()
    assert "9999_broken" not in applied_migrations(store.db)


def test_earlier_migrations_stay_when_a_later_one_fails(store):
    def good(db):
        db.execute("CREATE TABLE runs (id INTEGER PRIMARY KEY)")

    def bad(db):
        db.execute("CREATE TABLE responses (id INTEGER PRIMARY KEY)")
        db.execute("INSERT INTO no_such_table VALUES (1)")

    with pytest.raises(sqlite3.OperationalError):
        apply_migrations(store.db, MIGRATIONS + [("0002_runs", good), ("0003_resp", bad)])
    assert "runs" in store.db.table_names()
    assert "responses" not in store.db.table_names()
    assert applied_migrations(store.db)[-1] == "0002_runs"
    # once fixed, running again applies only the missing migration
    def fixed(db):
        db.execute("CREATE TABLE responses (id INTEGER PRIMARY KEY)")

    assert apply_migrations(store.db, MIGRATIONS + [("0002_runs", good),
                                                    ("0003_resp", fixed)]) == ["0003_resp"]


def test_appending_a_migration_applies_it_once_in_order(store):
    calls = []

    def add_column(db):
        calls.append(1)
        db.execute("ALTER TABLE items ADD COLUMN difficulty REAL")

    extended = MIGRATIONS + [("0002_item_difficulty", add_column)]
    assert apply_migrations(store.db, extended) == ["0002_item_difficulty"]
    assert apply_migrations(store.db, extended) == []
    assert calls == [1]
    assert "difficulty" in store.db["items"].columns_dict


def test_duplicate_migration_names_are_refused(store):
    with pytest.raises(ValueError, match="duplicate"):
        apply_migrations(store.db, MIGRATIONS + [MIGRATIONS[0]])


def test_connection_settings(store):
    db = store.db
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA busy_timeout").fetchone()[0] == 5000
    assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_indexes_for_browser_filters(store):
    indexed = {tuple(i.columns) for i in store.db["items"].indexes}
    for columns in [("dataset", "sort_key", "id"), ("domain",), ("subtask",), ("status",),
                    ("flagged",)]:
        assert columns in indexed


def test_replies_cached_before_sources_were_kept_are_traced_to_their_run(tmp_path):
    """Migration 0013 on a database written before it: each cache entry gets the run that
    paid for it, each cached result that run, and no cached result keeps a latency."""
    db = sqlite_utils.Database(tmp_path / "old.db")
    before = [m for m in MIGRATIONS if m[0] < "0013"]
    apply_migrations(db, before)
    db.execute("INSERT INTO model_runs (id, config_id, config, endpoint, status, created_at) "
               "VALUES ('old', 'c', '{}', 'e', 'done', '2026-01-01T00:00:00Z'), "
               "('new', 'c', '{}', 'e', 'done', '2026-01-02T00:00:00Z')")
    db.execute("INSERT INTO run_work (id, run_id, phase, item_id, repeat, sample) VALUES "
               "(1, 'old', 'answer', 'i', 0, 0), (2, 'new', 'answer', 'i', 0, 0)")
    db.execute("INSERT INTO run_responses (work_id, run_id, status, latency, cached, "
               "cache_key, created_at) VALUES (1, 'old', 'ok', 1.5, 0, 'k', 't1'), "
               "(2, 'new', 'ok', 1.5, 1, 'k', 't2')")
    db.execute("INSERT INTO response_cache (key, text, created_at) VALUES ('k', 'A', 't1')")
    db.conn.commit()
    db.conn.close()
    store = Store.open(tmp_path / "old.db")
    try:
        assert store.cache_get("k")["run_id"] == "old"
        [old], [new] = store.run_results("old"), store.run_results("new")
        assert old["latency"] == 1.5 and new["latency"] is None
        assert new["cached_from"] == "old" and store.run_cache_sources("new") == {"old": 1}
    finally:
        store.close()
