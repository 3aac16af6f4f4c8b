"""Transactions (`atomic`) and per-thread connections."""
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

import store.db as store_db
from store import BusyError, ConflictError, Store, StoreError


def _count(store, table):
    return store.db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def test_exception_inside_atomic_leaves_nothing(store, make_item):
    with pytest.raises(RuntimeError):
        with store.atomic():
            store.create_item(make_item("d/1"), author="alice")
            store.add_user("bob", "annotator", "pw")
            raise RuntimeError("abort")
    assert not store.item_exists("d/1")
    for table in ("items", "revisions", "clues", "boxes", "users", "datasets"):
        assert _count(store, table) == 0, table


def test_atomic_commits_everything_together(store, make_item):
    with store.atomic():
        store.create_item(make_item("d/1"), author="alice")
        store.create_item(make_item("d/2"), author="alice")
    assert store.count_items() == 2


def test_nested_failure_rolls_back_only_the_inner_block(store, make_item):
    with store.atomic():
        store.create_item(make_item("d/1"), author="alice")
        with pytest.raises(ConflictError):
            store.create_item(make_item("d/1"), author="alice")  # its own nested atomic
        try:
            with store.atomic():
                store.create_item(make_item("d/2"), author="alice")
                raise ValueError("inner")
        except ValueError:
            pass
        store.create_item(make_item("d/3"), author="alice")
    assert store.item_ids() == ["d/1", "d/3"]


def test_uncommitted_writes_invisible_to_other_threads(store, make_item):
    item = make_item("d/1")
    seen = []
    with store.atomic():
        store.create_item(item, author="alice")
        t = threading.Thread(target=lambda: seen.append(store.item_exists("d/1")))
        t.start()
        t.join()
    assert seen == [False] and store.item_exists("d/1")


def test_each_thread_has_its_own_connection(store):
    main_db = store.db
    assert store.db is main_db  # same object within a thread
    ids = set()

    def work(_):
        ids.add(id(store.db.conn))
        return store.count_items()

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(work, range(8)))
    assert id(main_db.conn) not in ids and len(ids) >= 1


def test_writes_from_many_threads(store, make_item):
    items = [make_item(f"d/{i}") for i in range(24)]  # images added from the main thread

    def create(item):
        store.create_item(item, author=threading.current_thread().name)
        got = store.get_item(item["id"])
        store.save_item(dict(got, question="edited"), base_version=1, author="t")
        return store.get_item(item["id"])["version"]

    with ThreadPoolExecutor(6) as pool:
        assert list(pool.map(create, items)) == [2] * 24
    assert store.count_items(text="edited") == 24
    assert _count(store, "revisions") == 48


def test_concurrent_saves_on_same_base_exactly_one_wins(store, make_item):
    store.create_item(make_item("d/1"), author="alice")
    base = store.get_item("d/1")
    barrier = threading.Barrier(6)

    def save(n):
        barrier.wait()
        try:
            store.save_item(dict(base, answer=f"B{n}"), base_version=1, author=f"u{n}")
            return "ok"
        except ConflictError:
            return "conflict"

    with ThreadPoolExecutor(6) as pool:
        results = list(pool.map(save, range(6)))
    assert sorted(results) == ["conflict"] * 5 + ["ok"]
    assert store.get_item("d/1")["version"] == 2
    assert [h["version"] for h in store.history("d/1")] == [2, 1]


def test_writer_waits_then_gets_busy_error(tmp_path, monkeypatch):
    monkeypatch.setattr(store_db, "BUSY_TIMEOUT_S", 0.2)
    path = tmp_path / "busy.db"
    importer, editor = Store.open(path), Store.open(path)
    with importer.atomic():  # e.g. a long import holding the write lock
        importer.add_user("imp", "admin", "pw")
        assert editor.count_items() == 0  # readers are not blocked (WAL)
        with pytest.raises(BusyError, match="busy"):
            editor.add_user("bob", "annotator", "pw")
    editor.add_user("bob", "annotator", "pw")  # fine once the lock is released
    assert [u["name"] for u in editor.list_users()] == ["bob", "imp"]
    importer.close()
    editor.close()


def test_closed_store_refuses_use(tmp_path):
    s = Store.open(tmp_path / "c.db")
    db = s.db
    s.close()
    with pytest.raises(Exception):
        db.execute("SELECT 1")
    with pytest.raises(StoreError, match="closed"):
        s.count_items()
