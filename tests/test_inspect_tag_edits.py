"""Editing failure tags on a real store (tests/inspect_helpers.py): taking a tag off a response,
renaming a tag of the vocabulary (its uses follow), adding and deleting tags; every change
recorded with its author and time."""
import csv

import pytest

from store import NotFoundError, ValidationError
from tests.inspect_helpers import built, env  # noqa: F401 (fixtures)
from ui import inspect_browser as ib
from ui import inspect_tags as it


def tagged(store, tag):
    return ib.browse(store, ib.filters_from(*[None] * 6, "offline", *[None] * 9, tag),
                     "run order")["ids"]


def events(store):
    return store.db.conn.execute("SELECT action, tag, old_name, work_id, author FROM "
                                 "tag_events ORDER BY id").fetchall()


def test_removing_a_tag_from_a_response_records_who_and_when(env):
    store, ids = env
    wid = ids["a"]["ui/beta"]
    it.save_tags(store, wid, ["perception error", "format error"], "alice")
    assert tagged(store, "format error") == [wid]
    message, state = it.remove_tag(store, wid, "Format Error", "bob")
    assert "removed format error" in message.replace("\\", "")
    assert state["value"] == ["perception error"]
    assert [t["tag"] for t in store.response_tags(wid)] == ["perception error"]
    removed = [row for row in state["log"] if row[1] == "removed"]
    assert [row[:3] for row in removed] == [["format error", "removed", "bob"]]
    assert removed[0][3].endswith("Z")
    assert [row[:3] for row in state["log"] if row[1] == "added"] == [
        ["perception error", "added", "alice"]]  # the tag kept keeps who added it
    assert events(store) == [("untag", "format error", None, wid, "bob")]
    assert tagged(store, "format error") == []  # the browser's remembered matches follow
    assert store.tag_counts("run-a") == {"perception error": 1}
    with pytest.raises(it.TagError, match="not tagged"):
        it.remove_tag(store, wid, "format error", "bob")
    with pytest.raises(it.TagError, match="choose a tag"):
        it.remove_tag(store, wid, None, "bob")
    with pytest.raises(it.TagError, match="no response"):
        it.remove_tag(store, 99999, "perception error", "bob")


def test_renaming_a_tag_carries_its_uses_and_who_tagged_them(env):
    store, ids = env
    beta, gamma = ids["a"]["ui/beta"], ids["b"]["ui/gamma"]
    it.save_tags(store, beta, ["perception error"], "alice")
    it.save_tags(store, gamma, ["perception error", "missed clue"], "carol")
    before = {w: store.response_tags(w) for w in (beta, gamma)}
    message, renamed = it.rename_vocabulary_tag(store, "Perception error", "  misread   sign ",
                                                "bob")
    assert renamed == ("perception error", "misread sign")
    assert "2 responses" in message
    for w in (beta, gamma):
        after = store.response_tags(w)
        assert [(t["author"], t["created_at"]) for t in after] == \
            [(t["author"], t["created_at"]) for t in before[w]]
        assert "misread sign" in [t["tag"] for t in after]
        assert "perception error" not in [t["tag"] for t in after]
    names = it.vocabulary(store)
    assert names[3] == "misread sign" and "perception error" not in names  # seed order kept
    row = next(r for r in it.vocabulary_rows(store) if r[0] == "misread sign")
    assert row[1] == 2 and row[2] == "(seed)" and row[4].startswith(
        "from 'perception error' by bob at ")
    assert tagged(store, "misread sign") == [beta, gamma]
    assert tagged(store, "perception error") == []
    assert store.tag_counts("run-b") == {"misread sign": 1, "missed clue": 1}
    with open(it.export_tagged(store, "run-a", "csv"), newline="") as f:
        assert next(csv.DictReader(f))["tags"] == "misread sign"
    with pytest.raises(it.TagError, match="unknown tag"):
        it.save_tags(store, beta, ["perception error"], "alice")  # the old name is gone
    with pytest.raises(it.TagError, match="already a tag"):
        it.rename_vocabulary_tag(store, "misread sign", "Missed clue", "bob")
    with pytest.raises(it.TagError, match="already has that name"):
        it.rename_vocabulary_tag(store, "misread sign", "misread sign", "bob")
    with pytest.raises(it.TagError, match="no tag"):
        it.rename_vocabulary_tag(store, "no such tag", "x", "bob")
    with pytest.raises(it.TagError, match="choose the tag"):
        it.rename_vocabulary_tag(store, None, "x", "bob")


def test_a_change_of_case_reaches_the_responses_too(env):
    store, ids = env
    beta = ids["a"]["ui/beta"]
    it.save_tags(store, beta, ["format error"], "alice")
    it.rename_vocabulary_tag(store, "format error", "Format Error", "bob")
    raw = store.db.conn.execute("SELECT tag FROM response_tags WHERE work_id = ?",
                                [beta]).fetchall()
    assert raw == [("Format Error",)]  # NOCASE makes it equal: no cascade without help
    page = ib.browse(store, ib.filters_from("run-a", *[None] * 5, "offline", *[None] * 10),
                     "run order")
    assert page["rows"][1][10] == "Format Error"
    assert [r for r in events(store) if r[0] == "rename"] == [
        ("rename", "Format Error", "format error", None, "bob")]


def test_new_tags_are_added_by_someone_and_unused_ones_deleted(env):
    store, ids = env
    _, names = it.add_vocabulary_tag(store, "wrong crop", "carol")
    assert names[-1] == "wrong crop"
    row = next(r for r in it.vocabulary_rows(store) if r[0] == "wrong crop")
    assert row[1:3] == [0, "carol"] and row[3].endswith("Z") and row[4] == ""
    it.save_tags(store, ids["a"]["ui/alpha"], ["wrong crop"], "carol")
    with pytest.raises(it.TagError, match="is on 1 responses"):
        it.delete_vocabulary_tag(store, "wrong crop", "dave")
    it.remove_tag(store, ids["a"]["ui/alpha"], "wrong crop", "dave")
    message, names = it.delete_vocabulary_tag(store, "Wrong Crop", "dave")
    assert "wrong crop" not in names and "Deleted" in message
    assert events(store)[-1] == ("delete", "wrong crop", None, None, "dave")
    with pytest.raises(it.TagError, match="no tag"):
        it.delete_vocabulary_tag(store, "wrong crop", "dave")


def test_store_functions_log_removals_by_either_path(env):
    store, ids = env
    wid = ids["b"]["ui/alpha"]
    store.set_response_tags(wid, ["missed clue", "knowledge error"], "alice")
    store.set_response_tags(wid, ["missed clue"], "bob")  # takes knowledge error off
    assert store.removed_response_tags(wid)[0]["tag"] == "knowledge error"
    assert store.removed_response_tags(wid)[0]["author"] == "bob"
    assert store.remove_response_tag(wid, "missed clue", "carol") == {
        "removed": "missed clue", "tags": []}
    with pytest.raises(NotFoundError):
        store.remove_response_tag(wid, "missed clue", "carol")
    with pytest.raises(ValidationError):
        store.rename_failure_tag("missed clue", "  ", "carol")
