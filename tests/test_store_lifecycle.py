"""Item and dataset life cycle in the store: duplicate, delete/restore, released items,
replace from a re-import, delete a dataset. Real SQLite files, real runs and scores."""
import sqlite3

import pytest

from store import ConflictError, DuplicateItemError, NotFoundError, ReadOnlyError, ValidationError
from store.lifecycle import describe_counts
from tests.scoring_helpers import add_items, make_run


def test_duplicate_is_a_draft_with_its_own_history(store, make_item):
    store.create_item(make_item("demo/Q_1", status="verified"), "alice")
    assert store.duplicate_item("demo/Q_1", "demo/Q_1-copy", "bob") == 1
    copy, source = store.get_item("demo/Q_1-copy"), store.get_item("demo/Q_1")
    assert copy["status"] == "draft" and copy["updated_by"] == "bob"
    assert store.diff_items(source, copy) == [
        {"field": "id", "before": "demo/Q_1", "after": "demo/Q_1-copy"},
        {"field": "status", "before": "verified", "after": "draft"}]
    assert store.history("demo/Q_1-copy")[0]["comment"] == "duplicate of demo/Q_1 version 1"
    with pytest.raises(DuplicateItemError):
        store.duplicate_item("demo/Q_1", "demo/Q_1-copy", "bob")
    with pytest.raises(ValidationError):
        store.duplicate_item("demo/Q_1", "  ", "bob")


@pytest.mark.parametrize("spoof", ["demo/ctrl\u202eevil", "demo/a\x00b", "demo/zero\u200bwidth",
                                   "demo/line\nbreak"])
def test_an_id_with_hidden_characters_is_refused_without_showing_them(store, make_item, spoof):
    """A right-to-left override showed 'demo/ctrl\u202eevilnul' as 'demo/ctrllunlive' in the
    list: an annotator could make an item look like another's id to a reviewer."""
    store.create_item(make_item("demo/Q_1"), "alice")
    with pytest.raises(ValidationError, match="control, invisible or text-direction") as refused:
        store.duplicate_item("demo/Q_1", spoof, "bob")
    assert spoof not in str(refused.value)
    with pytest.raises(ValidationError):
        store.create_item(make_item(spoof), "bob")
    assert store.item_ids() == ["demo/Q_1"]
    store.create_item(make_item("demo/ünïcode-日本"), "bob")      # letters of any script are fine


def test_deleted_item_is_hidden_everywhere_and_restorable_with_history(store, make_item):
    store.create_item(make_item("demo/Q_1"), "alice")
    store.create_item(make_item("demo/Q_2"), "alice")
    assert store.delete_item("demo/Q_1", "bob", "duplicate of Q_2", base_version=1) == 2
    assert store.item_ids() == ["demo/Q_2"] and store.count_items() == 1
    assert store.stats()["items"] == 1
    assert [i["id"] for i in store.iter_items()] == ["demo/Q_2"]
    with pytest.raises(NotFoundError, match="demo/Q_1 was deleted by bob at .*an admin can "
                                            "restore it"):
        store.get_item("demo/Q_1")
    with pytest.raises(NotFoundError, match="was deleted"):
        store.save_item(store.get_item("demo/Q_1", include_deleted=True), 2, "carol")
    assert [d["id"] for d in store.deleted_items()] == ["demo/Q_1"]
    assert store.history("demo/Q_1")[0]["comment"] == "deleted: duplicate of Q_2"

    assert store.restore_deleted("demo/Q_1", "admin", "needed after all") == 3
    item = store.get_item("demo/Q_1")
    assert item["version"] == 3 and store.deleted_items() == []
    assert [h["comment"] for h in store.history("demo/Q_1")][:2] == [
        "restored after deletion: needed after all", "deleted: duplicate of Q_2"]
    assert store.diff("demo/Q_1", 1, 3) == []  # content exactly as before
    with pytest.raises(NotFoundError, match="is not deleted"):
        store.restore_deleted("demo/Q_1", "admin")


def test_delete_refuses_a_stale_base_and_writes_nothing(store, make_item):
    store.create_item(make_item("demo/Q_1"), "alice")
    store.save_item(store.get_item("demo/Q_1"), 1, "alice", "edit")
    with pytest.raises(ConflictError):
        store.delete_item("demo/Q_1", "bob", base_version=1)
    assert store.get_item("demo/Q_1")["version"] == 2


def test_released_item_is_read_only_until_an_admin_reopens_it(store, make_item):
    store.create_item(make_item("demo/Q_1", status="released"), "alice", may_release=True)
    item = store.get_item("demo/Q_1")
    with pytest.raises(ReadOnlyError, match="released and read-only"):
        store.save_item({**item, "question": "changed?"}, 1, "bob")
    with pytest.raises(ReadOnlyError):
        store.delete_item("demo/Q_1", "bob")
    with pytest.raises(ReadOnlyError):
        store.restore("demo/Q_1", 1, "bob", 1)
    with pytest.raises(ValidationError, match="needs a reason"):
        store.reopen_item("demo/Q_1", "admin", "  ")
    assert store.get_item("demo/Q_1")["version"] == 1
    assert store.reopen_item("demo/Q_1", "admin", "typo in the question", base_version=1) == 2
    reopened = store.get_item("demo/Q_1")
    assert reopened["status"] == "in_review"
    assert store.history("demo/Q_1")[0]["comment"] == "reopened: typo in the question"
    store.save_item({**reopened, "question": "changed?"}, 2, "bob")
    with pytest.raises(ValidationError, match="not released"):
        store.reopen_item("demo/Q_1", "admin", "again")


def test_replace_item_new_revision_only_when_changed(store, make_item):
    item = make_item("demo/Q_1")
    store.create_item(item, "alice")
    assert store.replace_item(item, "import", "import --replace") == "unchanged"
    assert store.get_item("demo/Q_1")["version"] == 1
    assert store.replace_item({**item, "question": "new?"}, "import", "re") == "replaced"
    assert store.get_item("demo/Q_1")["version"] == 2
    assert [h["version"] for h in store.history("demo/Q_1")] == [2, 1]
    assert store.replace_item(make_item("demo/Q_9"), "import", "re") == "created"


def _dump(store):
    with sqlite3.connect(store.path) as conn:
        return list(conn.iterdump())


def test_delete_dataset_removes_items_history_and_responses_and_nothing_else(store):
    add_items(store, [{"id": f"bad/{n}", "answer_type": "yes_no", "answer": "Yes"}
                      for n in range(3)] + [{"id": "keep/1", "answer_type": "yes_no",
                                             "answer": "No"}])
    store.save_item(store.get_item("bad/0"), 1, "alice", "edit")
    store.add_review("bad/1", 1, "bob", "approve")         # and its revision: verified
    store.save_draft("alice", "bad/2", 1, {"question": "draft"})
    store.delete_item("bad/2", "alice")
    make_run(store, "r1", {"bad/0": "Answer: Yes", "keep/1": "Answer: No"})
    counts = store.dataset_counts("bad")
    assert counts == {"dataset": "bad", "items": 3, "deleted_items": 1, "released_items": 0,
                      "revisions": 6,
                      "reviews": 1, "drafts": 1, "responses": 1, "runs": 1}
    before = _dump(store)
    with pytest.raises(ValidationError, match="now has 3 items, not the 2 you confirmed"):
        store.delete_dataset("bad", expected_items=2)
    assert _dump(store) == before

    assert store.delete_dataset("bad", expected_items=3) == counts
    assert store.item_ids() == ["keep/1"] and store.facets()["dataset"] == ["keep"]
    assert store.db.execute("SELECT item_id FROM run_work").fetchall() == [("keep/1",)]
    for table in ("revisions", "reviews", "drafts"):
        assert store.db.execute(f"SELECT count(*) FROM {table} WHERE item_id LIKE 'bad/%'"
                                ).fetchone()[0] == 0
    with pytest.raises(NotFoundError, match="dataset bad not found"):
        store.dataset_counts("bad")
    add_items(store, [{"id": "bad/0", "answer_type": "yes_no", "answer": "Yes"}])  # re-import


def test_delete_dataset_includes_released_items_and_says_so(store, make_item):
    store.create_item(make_item("demo/Q_1", status="released"), "alice", may_release=True)
    counts = store.dataset_counts("demo")
    assert counts["released_items"] == 1
    assert describe_counts(counts).startswith("dataset demo: 1 items (1 released, 0 deleted "
                                              "already), 1 revisions")
    store.delete_dataset("demo", expected_items=1)
    assert store.item_ids() == []


def test_replace_leaves_an_unchanged_released_item_and_refuses_to_change_it(store, make_item):
    item = make_item("demo/Q_1", status="released")
    store.create_item(item, "alice", may_release=True)
    assert store.replace_item(item, "import", "re") == "unchanged"
    with pytest.raises(ReadOnlyError):
        store.replace_item({**item, "question": "new?"}, "import", "re")
