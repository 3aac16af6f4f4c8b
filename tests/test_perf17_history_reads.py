"""A save, and the conflict panel, read no more of an item's history than they need: saving
slowed as history grew (5,000 saves of one item by one account: ~57 ms a save at the end;
the conflict panel of an item with 5,000 versions took 1.8 s to open; a review). Checked by
the statements SQLite runs and their query plans, not by timing (bench/save_history.py
times it; docs/PERFORMANCE.md, section 9)."""
from __future__ import annotations

import pytest

from store import NotFoundError, Store
from store.migrations import MIGRATIONS, apply_migrations
from tests import test_ui_handlers
from ui.editor_handlers import EditorHandlers

ui_store = test_ui_handlers.ui_store         # the fixture: the UI tests' real store
ITEM = "ui/alpha"


def _save(store, author: str, answer: str) -> int:
    item = store.get_item(ITEM)
    item["answer"] = answer
    return store.save_item(item, item["version"], author)


def _statements(store, call) -> list[str]:
    """The SQL statements (values filled in) this thread's connection ran during `call`."""
    seen: list[str] = []
    store.db.conn.set_trace_callback(seen.append)
    try:
        call()
    finally:
        store.db.conn.set_trace_callback(None)
    return seen


def _plan(store, sql: str) -> str:
    return " | ".join(r[3] for r in store.db.execute(f"EXPLAIN QUERY PLAN {sql}").fetchall())


def _revision_reads(statements: list[str]) -> list[str]:
    return [s for s in statements if s.lstrip().upper().startswith("SELECT")
            and "FROM revisions" in s]


def test_a_save_sums_its_authors_hour_from_the_index_without_reading_a_snapshot(ui_store):
    for n in range(5):
        _save(ui_store, "alice", f"a{n}")
    reads = _revision_reads(_statements(ui_store, lambda: _save(ui_store, "alice", "last")))
    assert reads, "the hourly budget reads the author's revisions"
    for sql in reads:
        assert "snapshot" not in sql, sql
        assert "COVERING INDEX" in _plan(ui_store, sql), (sql, _plan(ui_store, sql))


def test_the_conflict_panel_reads_only_the_versions_since_the_one_edited(ui_store):
    editor = EditorHandlers(ui_store)
    for n in range(30):
        _save(ui_store, "alice", f"a{n}")
    mine = editor.load(ITEM, "bob")
    base = mine["base_version"]
    _save(ui_store, "alice", "b1")
    _save(ui_store, "carol", "b2")
    form = {**editor.form_values(mine["item"]), "question": "Bob's question?"}
    outcome = {}
    statements = _statements(ui_store, lambda: outcome.update(
        editor.save(mine, form, None, "", "bob")[1]))
    assert outcome["kind"] == "conflict" and "alice and by carol" in outcome["message"]
    for sql in _revision_reads(statements):
        if "item_id" not in sql:
            continue                                    # the author's hourly budget
        plan = _plan(ui_store, sql)
        assert "version" in plan, (sql, plan)           # never the whole history
    assert ui_store.history(ITEM, base, base + 2)[0]["author"] == "carol"


def test_history_between_two_versions(ui_store):
    for n in range(4):
        _save(ui_store, "alice" if n % 2 else "bob", f"a{n}")
    whole = ui_store.history(ITEM)
    latest = whole[0]["version"]
    assert ui_store.history(ITEM, latest - 3, latest - 1) == whole[1:3]
    assert ui_store.history(ITEM, latest - 2) == whole[:2]
    assert ui_store.history(ITEM, latest) == []          # nothing since the latest
    with pytest.raises(NotFoundError):
        ui_store.history("ui/no such item", 1)


def test_the_migration_gives_existing_revisions_their_sizes(tmp_path):
    s = Store.open(tmp_path / "old.db")
    s.db.execute("DROP INDEX idx_revisions_author_sizes")
    s.db.execute("CREATE INDEX idx_revisions_author_time ON revisions(author, created_at)")
    s.db.execute("ALTER TABLE revisions DROP COLUMN size")
    s.db.execute("DELETE FROM migrations WHERE name = '0019_revision_sizes'")
    s.db.execute("INSERT INTO datasets (name, created_at) VALUES ('d', 'x')")
    s.db.execute("INSERT INTO items (id, dataset, sort_key, question, answer_type, status, "
                 "version, updated_at) VALUES ('d/1', 'd', 'd/1', 'q', 'open', 'draft', 1, 'x')")
    s.db.execute("INSERT INTO revisions (item_id, version, author, created_at, snapshot) "
                 "VALUES ('d/1', 1, 'ann', 'x', '{\"question\": \"old\"}')")
    s.db.conn.commit()
    assert apply_migrations(s.db, MIGRATIONS) == ["0019_revision_sizes"]
    assert s.db.execute("SELECT size FROM revisions").fetchone()[0] == len('{"question": "old"}')
    indexes = {r[0] for r in s.db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert "idx_revisions_author_sizes" in indexes and "idx_revisions_author_time" not in indexes
    s.close()
