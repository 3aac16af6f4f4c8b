"""Human baselines in the store (migration 0007): the table, the round trip, duplicate names,
and refusals that write nothing. Real SQLite file, no mocks."""
import sqlite3

import pytest
from sqlite_utils import Database

from store import NotFoundError, Store, ValidationError
from store.migrations import MIGRATIONS, apply_migrations

RESULTS = {"a/1": True, "a/2": False, "b/1": True}


def table_rows(store) -> list[tuple]:
    return store.db.execute("SELECT * FROM human_baselines ORDER BY name").fetchall()


def test_migration_0007_creates_the_table_on_a_database_made_before_it(tmp_path):
    path = tmp_path / "old.db"
    con = sqlite3.connect(path)
    # everything up to 0007 (the migrations after it need it applied first)
    before = MIGRATIONS[:[n for n, _ in MIGRATIONS].index("0007_human_baselines")]
    assert "0007_human_baselines" not in apply_migrations(Database(con), before)
    con.close()
    with Store.open(path) as store:
        names = [r[0] for r in store.db.execute("SELECT name FROM migrations ORDER BY rowid")]
        assert "0007_human_baselines" in names and names == [n for n, _ in MIGRATIONS]
        columns = store.db["human_baselines"].columns_dict
        assert set(columns) == {"name", "label", "results", "created_at", "created_by"}
        assert store.list_human_baselines() == []


def test_add_list_get_round_trip(store):
    added = store.add_human_baseline("crowd", "Crowd (n=12)", RESULTS, "alice")
    assert added["results"] == RESULTS and added["n"] == 3
    assert (added["name"], added["label"], added["created_by"]) == ("crowd", "Crowd (n=12)",
                                                                    "alice")
    assert added["created_at"].endswith("Z")
    store.add_human_baseline("experts", "Experts", {"a/1": False})
    listed = store.list_human_baselines()
    assert [(b["name"], b["label"], b["n"]) for b in listed] == [
        ("crowd", "Crowd (n=12)", 3), ("experts", "Experts", 1)]
    assert "results" not in listed[0]
    assert store.get_human_baseline("CROWD") == added          # names ignore case
    with Store.open(store.path) as again:                      # kept across a restart
        assert again.get_human_baseline("crowd")["results"] == RESULTS
    store.delete_human_baseline("experts")
    with pytest.raises(NotFoundError, match="no human baseline 'experts'"):
        store.get_human_baseline("experts")
    with pytest.raises(NotFoundError):
        store.delete_human_baseline("experts")


def test_a_duplicate_name_is_refused_unless_replaced(store):
    store.add_human_baseline("crowd", "Crowd", RESULTS, "alice")
    before = table_rows(store)
    with pytest.raises(ValidationError, match=r"'crowd' already exists \(added by alice") as e:
        store.add_human_baseline("Crowd", "Other", {"a/1": False}, "bob")
    assert e.value.field == "name"
    assert table_rows(store) == before
    replaced = store.add_human_baseline("Crowd", "Crowd v2", {"a/1": False}, "bob",
                                        replace=True)
    assert (replaced["name"], replaced["label"], replaced["results"]) == (
        "Crowd", "Crowd v2", {"a/1": False})
    assert len(table_rows(store)) == 1


@pytest.mark.parametrize("name, label, results, problem", [
    ("", "L", RESULTS, "needs a name"),
    ("n", "  ", RESULTS, "needs a label"),
    ("n" * 201, "L", RESULTS, "at most 200"),
    ("n", "L", {}, "non-empty"),
    ("n", "L", [["a/1", True]], "non-empty"),
    ("n", "L", {"a/1": "yes"}, "true or false, not 'yes'"),
    ("n", "L", {"a/1": 1}, "true or false"),
    ("n", "L", {"": True}, "non-empty string"),
])
def test_bad_baselines_are_refused_and_write_nothing(store, name, label, results, problem):
    store.add_human_baseline("kept", "Kept", RESULTS)
    before = table_rows(store)
    with pytest.raises(ValidationError, match=problem):
        store.add_human_baseline(name, label, results, replace=True)
    assert table_rows(store) == before


def test_a_failure_inside_the_callers_transaction_undoes_the_add(store):
    with pytest.raises(RuntimeError):
        with store.atomic():
            store.add_human_baseline("crowd", "Crowd", RESULTS)
            raise RuntimeError("later step failed")
    assert store.list_human_baselines() == []
