"""Revisions, optimistic conflicts, diff, restore and reviews."""
import pytest

from store import ConflictError, NotFoundError, Store, ValidationError, diff_items


def test_every_write_appends_a_revision_with_full_snapshot(store, make_item):
    item = make_item("d/1")
    store.create_item(item, author="alice")
    item["question"] = "v2?"
    store.save_item(item, base_version=1, author="bob", comment="reword")
    history = store.history("d/1")
    assert [(h["version"], h["author"], h["comment"]) for h in history] == [
        (2, "bob", "reword"), (1, "alice", "import")]
    assert all(h["created_at"].endswith("Z") for h in history)
    assert store.revision("d/1", 2) == store.get_item("d/1")
    assert store.revision("d/1", 1)["question"] == "What is shown in d/1?"
    with pytest.raises(NotFoundError):
        store.revision("d/1", 3)
    with pytest.raises(NotFoundError):
        store.history("nope")


def test_stale_save_from_another_store_is_refused_and_overwrites_nothing(tmp_path, make_png):
    path = tmp_path / "shared.db"
    alice, bob = Store.open(path), Store.open(path)
    sha = alice.add_image(make_png(), "a.png").sha256
    base = {"id": "d/1", "question": "Q?", "answer_type": "yes_no", "answer": "Yes",
            "images": [sha]}
    alice.create_item(base, author="alice")
    seen_by_alice, seen_by_bob = alice.get_item("d/1"), bob.get_item("d/1")
    bob.save_item(dict(seen_by_bob, answer="No"), base_version=1, author="bob")
    with pytest.raises(ConflictError) as info:
        alice.save_item(dict(seen_by_alice, question="Alice's edit"), base_version=1,
                        author="alice")
    err = info.value
    assert (err.item_id, err.current_version, err.updated_by) == ("d/1", 2, "bob")
    assert err.updated_at == bob.get_item("d/1")["updated_at"]
    message = str(err)
    assert "item d/1 was changed by bob at" in message
    assert "(version 2); you edited version 1" in message
    current = alice.get_item("d/1")
    assert current["answer"] == "No" and current["question"] == "Q?"
    assert [h["version"] for h in alice.history("d/1")] == [2, 1]
    # rebased on the current version, the save goes through
    assert alice.save_item(dict(current, question="Alice's edit"), 2, "alice") == 3
    alice.close()
    bob.close()


def test_diff_items_field_names():
    a = {"id": "d/1", "question": "Q", "version": 1, "images": ["s1", "s2"],
         "metadata": {"src": "x", "k": 1},
         "options": [{"label": "A", "text": "cat", "image": None}],
         "clues": [{"text": "t0", "reasoning": "r0", "boxes": []},
                   {"text": "t1", "reasoning": "r1", "boxes": []}]}
    box = {"image": "s1", "x0": 1.0, "y0": 1.0, "x1": 2.0, "y1": 2.0}
    b = {"id": "d/1", "question": "Q2", "version": 2, "images": ["s2", "s1"],
         "metadata": {"src": "y", "new": True},
         "options": [{"label": "A", "text": "dog", "image": None},
                     {"label": "B", "text": "cow", "image": None}],
         "clues": [{"text": "t0", "reasoning": "r0", "boxes": [box]}]}
    changes = {c["field"]: (c["before"], c["after"]) for c in diff_items(a, b)}
    assert changes == {
        "question": ("Q", "Q2"),
        "images": (["s1", "s2"], ["s2", "s1"]),
        "metadata.src": ("x", "y"),
        "metadata.k": (1, None),
        "metadata.new": (None, True),
        "options[0].text": ("cat", "dog"),
        "options[1]": (None, {"label": "B", "text": "cow", "image": None}),
        "clues[0].boxes": ([], [box]),
        "clues[1]": ({"text": "t1", "reasoning": "r1", "boxes": []}, None),
    }
    assert diff_items(a, a) == []


def test_diff_between_versions(store, make_item):
    item = make_item("d/1", n_clues=3)
    store.create_item(item, author="alice")
    item["clues"][2]["text"] = "sharper clue"
    item["clues"][1]["boxes"] = []
    item["status"] = "in_review"
    store.save_item(item, 1, "bob")
    changes = store.diff("d/1", 1, 2)
    assert [c["field"] for c in changes] == ["status", "clues[1].boxes", "clues[2].text"]
    assert changes[2] == {"field": "clues[2].text", "before": "clue 2", "after": "sharper clue"}
    assert [c["field"] for c in store.diff("d/1", 2, 1)] == [c["field"] for c in changes]


def test_draft_against_saved_version(store, make_item):
    store.create_item(make_item("d/1"), author="alice")
    saved = store.get_item("d/1")
    draft = dict(saved, answer="B")
    assert store.diff_items(saved, draft) == [{"field": "answer", "before": "A", "after": "B"}]


def test_restore_writes_old_snapshot_as_new_revision(store, make_item):
    item = make_item("d/1")
    store.create_item(item, author="alice")
    store.save_item(dict(item, question="wrong"), 1, "bob")
    assert store.restore("d/1", 1, author="carol", base_version=2) == 3
    got = store.get_item("d/1")
    assert got["question"] == item["question"] and got["updated_by"] == "carol"
    assert store.history("d/1")[0]["comment"] == "restore version 1"
    assert store.diff("d/1", 1, 3) == []
    with pytest.raises(ConflictError):
        store.restore("d/1", 2, author="dave", base_version=2)
    assert store.get_item("d/1")["version"] == 3


def test_reviews(store, make_item):
    store.create_item(make_item("d/1"), author="alice")
    first = store.add_review("d/1", 1, "bob", "revise", "box too large")
    second = store.add_review("d/1", 1, "carol", "approve")
    assert second > first
    got = store.reviews("d/1")
    assert [(r["reviewer"], r["verdict"], r["note"], r["version"]) for r in got] == [
        ("carol", "approve", "", 1), ("bob", "revise", "box too large", 1)]
    with pytest.raises(ValidationError, match="verdict"):
        store.add_review("d/1", 1, "bob", "maybe")
    with pytest.raises(NotFoundError):
        store.add_review("d/1", 5, "bob", "approve")
    assert store.reviews("other") == []


def test_a_review_of_a_released_item_is_refused_and_records_nothing(store, make_item):
    """A released item is frozen: a review of it (of its latest version or an older one) was
    recorded beside it. The store refuses it, for the page and any other caller alike."""
    from store import ReadOnlyError
    item = make_item("d/1")
    store.create_item(item, "alice")
    store.save_item(dict(store.get_item("d/1"), status="released"), 1, "admin",
                    may_release=True)
    for version in (2, 1):
        with pytest.raises(ReadOnlyError, match="item d/1 is released and frozen: a review "
                                                "of it is not recorded"):
            store.add_review("d/1", version, "bob", "reject", "looks wrong")
    assert store.reviews("d/1") == [] and store.get_item("d/1")["status"] == "released"
    assert len(store.history("d/1")) == 2
    store.reopen_item("d/1", "admin", "fix the answer")
    store.add_review("d/1", 3, "bob", "approve")         # reopened: reviewed again
    assert store.get_item("d/1")["status"] == "verified"
