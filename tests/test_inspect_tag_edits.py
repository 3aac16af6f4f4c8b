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
    assert removed[0][3].endswith(" UTC")
    assert [row[:3] for row in state["log"] if row[1] == "added"] == [
        ["perception error", "added", "alice"], ["format error", "added", "alice"]]
    # the tag kept keeps who added it; the one taken off too, before its removal
    assert events(store) == [("tag", "perception error", None, wid, "alice"),
                             ("tag", "format error", None, wid, "alice"),
                             ("untag", "format error", None, wid, "bob")]
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
    with open(it.export_tagged(store, "run-a", "csv")[0], newline="") as f:
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


def test_a_removed_tags_history_keeps_who_added_it_and_when(env):
    """Who tagged and when: the addition (by alice, at t1) and the removal (by bob, at t2),
    in that order, through the handlers and the store alike."""
    store, ids = env
    wid = ids["a"]["ui/alpha"]
    it.save_tags(store, wid, ["missed clue"], "alice")
    _, state = it.remove_tag(store, wid, "missed clue", "bob")
    assert state["value"] == []
    assert [row[:3] for row in state["log"]] == [["missed clue", "added", "alice"],
                                                 ["missed clue", "removed", "bob"]]
    added, removed = state["log"][0][3], state["log"][1][3]
    assert added.endswith(" UTC") and removed.endswith(" UTC") and added <= removed
    store.set_response_tags(wid, ["missed clue"], "carol")     # put back on, taken off again
    store.set_response_tags(wid, [], "dave")
    assert [(h["tag"], h["action"], h["author"]) for h in store.response_tag_history(wid)] == [
        ("missed clue", "tag", "alice"), ("missed clue", "untag", "bob"),
        ("missed clue", "tag", "carol"), ("missed clue", "untag", "dave")]


def test_tags_put_on_before_the_log_of_additions_are_in_the_history(env):
    """Migration 0011: a tag on a response before additions were logged is listed as added
    by whom and when its row says."""
    from store.migrations import apply_migrations
    store, ids = env
    wid = ids["b"]["ui/gamma"]
    store.db.conn.execute("INSERT INTO response_tags (work_id, tag, run_id, author, "
                          "created_at) VALUES (?, 'useless clue', 'run-b', 'erin', "
                          "'2025-01-02T03:04:05Z')", [wid])
    store.db.conn.execute("DELETE FROM migrations WHERE name = '0011_tag_added_events'")
    assert apply_migrations(store.db) == ["0011_tag_added_events"]
    it.remove_tag(store, wid, "useless clue", "frank")
    assert [row[:4] for row in it.tag_state(store, wid)["log"]][0] == [
        "useless clue", "added", "erin", "2025-01-02 03:04 UTC"]   # as every page shows times
    assert [row[1:3] for row in it.tag_state(store, wid)["log"]] == [["added", "erin"],
                                                                     ["removed", "frank"]]


def test_new_tags_are_added_by_someone_and_unused_ones_deleted(env):
    store, ids = env
    _, names = it.add_vocabulary_tag(store, "wrong crop", "carol")
    assert names[-1] == "wrong crop"
    row = next(r for r in it.vocabulary_rows(store) if r[0] == "wrong crop")
    assert row[1:3] == [0, "carol"] and row[3].endswith(" UTC") and row[4] == ""
    it.save_tags(store, ids["a"]["ui/alpha"], ["wrong crop"], "carol")
    with pytest.raises(it.TagError, match="is on 1 response; remove it from that response first"):
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
