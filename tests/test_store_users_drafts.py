"""Users (roles, scrypt passwords) and per-user drafts."""
import pytest

from store import NotFoundError, ValidationError


def test_add_and_check_user(store):
    store.add_user("alice", "annotator", "s3cret")
    assert store.check_password("alice", "s3cret")
    assert not store.check_password("alice", "S3cret")
    assert not store.check_password("nobody", "s3cret")
    user = store.get_user("alice")
    assert user["name"] == "alice" and user["role"] == "annotator"
    assert "password_hash" not in user and "salt" not in user


def test_password_is_salted_scrypt(store):
    store.add_user("a", "admin", "same")
    store.add_user("b", "participant", "same")
    rows = store.db.execute("SELECT password_hash, salt FROM users ORDER BY name").fetchall()
    assert rows[0][0].startswith("scrypt$") and "same" not in rows[0][0]
    assert rows[0][0] != rows[1][0] and rows[0][1] != rows[1][1]


def test_user_errors(store):
    store.add_user("alice", "admin", "pw")
    with pytest.raises(ValidationError, match="already exists"):
        store.add_user("alice", "admin", "pw2")
    with pytest.raises(ValidationError, match="role"):
        store.add_user("bob", "superuser", "pw")
    with pytest.raises(ValidationError, match="password"):
        store.add_user("bob", "admin", "")
    with pytest.raises(ValidationError, match="name"):
        store.add_user(" ", "admin", "pw")
    with pytest.raises(NotFoundError):
        store.get_user("bob")
    assert store.check_password("alice", "pw")


def test_list_users_and_changes(store):
    store.add_user("zoe", "researcher", "pw")
    store.add_user("al", "annotator", "pw")
    assert [u["name"] for u in store.list_users()] == ["al", "zoe"]
    store.set_password("al", "new")
    store.set_role("al", "admin")
    assert store.check_password("al", "new") and not store.check_password("al", "pw")
    assert store.get_user("al")["role"] == "admin"


def test_drafts_round_trip(store):
    assert store.get_draft("alice", "d/1") is None
    store.save_draft("alice", "d/1", 3, {"question": "half-typed", "clues": []})
    draft = store.get_draft("alice", "d/1")
    assert draft["base_version"] == 3 and draft["data"]["question"] == "half-typed"
    assert draft["updated_at"].endswith("Z")
    store.save_draft("alice", "d/1", 4, {"question": "done"})
    assert store.get_draft("alice", "d/1")["data"] == {"question": "done"}
    assert store.get_draft("bob", "d/1") is None  # drafts are per user
    store.save_draft("alice", "new/item", None, {"id": "new/item"})
    assert {d["item_id"] for d in store.list_drafts("alice")} == {"d/1", "new/item"}
    store.delete_draft("alice", "d/1")
    assert store.get_draft("alice", "d/1") is None
    store.delete_draft("alice", "d/1")  # deleting twice is fine


def test_draft_must_be_json(store):
    with pytest.raises(ValidationError, match="data"):
        store.save_draft("alice", "d/1", 1, {"x": object()})


def test_a_draft_written_by_another_session_is_not_replaced_unseen(store):
    """Two tabs of one user on one item: each write names its browser session and the draft
    revision it saw; a tab that did not see the other's latest write is refused."""
    from store import DraftConflict

    first = store.save_draft("local", "d/1", 1, {"question": "tab A"}, session="A")
    assert store.get_draft("local", "d/1")["session"] == "A"
    with pytest.raises(DraftConflict) as refused:
        store.save_draft("local", "d/1", 1, {"question": "tab B"}, session="B", seen=None)
    assert refused.value.revision == first
    assert store.get_draft("local", "d/1")["data"] == {"question": "tab A"}
    with pytest.raises(DraftConflict):           # nor dropped by a tab that undid its edits
        store.delete_draft("local", "d/1", session="B")
    # a tab that restored A's draft (saw it) takes it over; A's own writes continue
    second = store.save_draft("local", "d/1", 1, {"question": "tab B"}, session="B", seen=first)
    assert second > first
    with pytest.raises(DraftConflict):
        store.save_draft("local", "d/1", 1, {"question": "tab A again"}, session="A", seen=None)
    store.save_draft("local", "d/1", 1, {"question": "A wins"}, session="A", force=True)
    assert store.get_draft("local", "d/1")["data"] == {"question": "A wins"}
    store.save_draft("local", "d/1", 1, {"question": "A again"}, session="A")
    store.delete_draft("local", "d/1", session="A")
    assert store.get_draft("local", "d/1") is None
