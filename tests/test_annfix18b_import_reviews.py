"""An import is not authorship (annotator review): admin1 imported a dataset, alice edited
num-1, and admin1's approval was refused ("admin1 wrote part of what version 9 holds (the
changes of version 1 …)"). The revisions an import writes (a new item, or --replace over
one) are of kind "import" (migration 0020), which the review rule does not count."""
from __future__ import annotations

import json

import pytest

from formats import import_path
from store import Store
from store.errors import ValidationError
from store.migrations import MIGRATIONS, apply_migrations


def _write(path, question="How many?"):
    path.write_text(json.dumps({"id": "d/num-1", "dataset": "d", "question": question,
                                "answer_type": "numeric", "answer": "3"}) + "\n")
    return path


def test_the_importer_reviews_what_another_person_edited(store, tmp_path):
    assert import_path(store, "jsonl", _write(tmp_path / "d.jsonl"), author="admin1").imported
    item = store.get_item("d/num-1")
    version = store.save_item({**item, "question": "How many cats?"}, 1, "alice", "")
    # alice wrote the change: not hers to review
    with pytest.raises(ValidationError, match="ask someone who did not write it"):
        store.add_review("d/num-1", version, "alice", "approve")
    store.add_review("d/num-1", version, "admin1", "approve")
    assert store.get_item("d/num-1")["status"] == "verified"


def test_the_importer_reviews_an_imported_and_a_replaced_version(store, tmp_path):
    import_path(store, "jsonl", _write(tmp_path / "d.jsonl"), author="admin1")
    store.add_review("d/num-1", 1, "admin1", "revise", "check the count")
    report = import_path(store, "jsonl", _write(tmp_path / "d2.jsonl", "How many dogs?"),
                         author="admin1", replace=True)
    assert report.replaced == 1
    head = store.get_item("d/num-1")["version"]
    store.add_review("d/num-1", head, "admin1", "approve")
    assert [r["kind"] for r in store.db.query(
        "SELECT kind FROM revisions WHERE item_id = 'd/num-1' ORDER BY version")] == \
        ["import", "edit", "import", "edit"]


def test_a_save_whose_comment_says_import_is_still_its_authors(store, tmp_path):
    import_path(store, "jsonl", _write(tmp_path / "d.jsonl"), author="admin1")
    item = store.get_item("d/num-1")
    store.save_item({**item, "question": "Mine?"}, 1, "bob", "import jsonl d.jsonl")
    with pytest.raises(ValidationError, match="bob saved version 2, so bob may not review"):
        store.add_review("d/num-1", 2, "bob", "approve")


def test_migration_marks_earlier_imports(tmp_path):
    store = Store.open(tmp_path / "old.db")
    try:
        import_path(store, "jsonl", _write(tmp_path / "d.jsonl"), author="admin1")
        item = store.get_item("d/num-1")
        store.save_item({**item, "question": "x?"}, 1, "bob", "import by hand")
        store.db.execute("ALTER TABLE revisions DROP COLUMN kind")
        store.db.execute("DELETE FROM migrations WHERE name = '0020_revision_kinds'")
        assert apply_migrations(store.db, MIGRATIONS) == ["0020_revision_kinds"]
        assert [r["kind"] for r in store.db.query(
            "SELECT kind FROM revisions ORDER BY version")] == ["import", "edit"]
    finally:
        store.close()
