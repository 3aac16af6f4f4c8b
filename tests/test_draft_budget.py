"""One account's drafts are bounded in all (store/draft_budget.py): an annotator autosaving
maximal drafts (4 MB each) of 40 duplicated items wrote 100 MB in 7 s, never refused."""
from __future__ import annotations

import html
import time
from types import SimpleNamespace

import pytest

import store.draft_budget as draft_budget
from domain.limits import MAX_DRAFT, MAX_DRAFTS_BYTES
from store import DraftsFullError, Store
from store.migrations import MIGRATIONS, apply_migrations
from tests import test_ui_handlers
from ui.annotate_drafts import autosaved, draft_key
from ui.editor_handlers import EditorHandlers


ui_store = test_ui_handlers.ui_store         # the fixture: the UI tests' real store


def draft(n: int, size: int = 990_000) -> dict:
    """A draft within the item's own limits, about `size` bytes (its metadata)."""
    return {"question": f"q{n}", "metadata": {"pad": "x" * size}}


def big_draft(n: int) -> dict:
    """A draft at every item limit at once: ~3.6 MB (100 clues of 25,000 characters)."""
    return {**draft(n), "gt_reasoning": "g" * 50_000,
            "clues": [{"text": "t" * 5_000, "reasoning": "r" * 20_000, "boxes": []}] * 100}


def test_an_accounts_drafts_hold_at_most_the_limit_in_all(store):
    """1 MB drafts: the 65th would take the account past 64 MB and is refused; nothing
    kept is lost, a draft that does not grow is taken, and other accounts are not held."""
    assert MAX_DRAFTS_BYTES <= 64_000_000 and MAX_DRAFT <= MAX_DRAFTS_BYTES
    kept = 0
    with pytest.raises(DraftsFullError) as refused:
        for n in range(100):
            store.save_draft("mallory", f"demo/{n}", 1, draft(n))
            kept += 1
    assert kept == 64
    message = str(refused.value)
    assert "your account's drafts of 64 items hold 63.4 MB" in message
    assert "at most 64.0 MB of drafts (MAX_DRAFTS_BYTES)" in message
    assert "Save the items you edited, or discard the drafts" in message
    assert "(the largest: demo/10 (1.0 MB), demo/11 (1.0 MB), demo/12 (1.0 MB))" in message
    assert "x" * 20 not in message                       # never the draft's content
    assert store.get_draft("mallory", "demo/64") is None
    assert all(store.get_draft("mallory", f"demo/{n}")["data"]["question"] == f"q{n}"
               for n in range(64))
    # the same draft again, or a smaller one, is taken; a larger one is not
    store.save_draft("mallory", "demo/3", 1, draft(3))
    with pytest.raises(DraftsFullError):
        store.save_draft("mallory", "demo/3", 1, big_draft(3))
    store.save_draft("mallory", "demo/3", 1, {"question": "shorter"})
    # a discarded draft makes room; another account has all of its own
    store.delete_draft("mallory", "demo/0")
    store.save_draft("mallory", "demo/64", 1, draft(64))
    store.save_draft("ann", "demo/0", 1, draft(0))


def test_an_account_keeps_a_bounded_number_of_drafts(store, monkeypatch):
    monkeypatch.setattr(draft_budget, "MAX_DRAFTS", 3)
    for n in range(3):
        store.save_draft("mallory", f"demo/{n}", 1, {"question": "tiny"})
    with pytest.raises(DraftsFullError, match="your account keeps drafts of 3 items, the "
                                              "most one account may"):
        store.save_draft("mallory", "demo/3", 1, {"question": "tiny"})
    store.save_draft("mallory", "demo/2", 1, {"question": "a draft already kept grows"})


def test_the_check_reads_no_drafts_data(store):
    """The sizes come from the index: with 64 MB of drafts kept, a check costs well under
    a millisecond (read from the drafts, ~37 ms: their data is walked page by page)."""
    data = '"' + "x" * 3_999_000 + '"'
    for n in range(16):
        store.db.execute("INSERT INTO drafts (user, item_id, data, updated_at, size) "
                         "VALUES ('mallory', ?, ?, 'now', ?)", [f"demo/{n}", data, len(data)])
    store.db.conn.commit()
    plan = store.db.execute("EXPLAIN QUERY PLAN SELECT COUNT(*), SUM(size) FROM drafts "
                            "WHERE user = ?", ["mallory"]).fetchall()
    assert "COVERING INDEX" in plan[0][-1]
    start = time.perf_counter()
    for _ in range(100):
        draft_budget.check(store.db, "mallory", "demo/0", 10)
    assert (time.perf_counter() - start) / 100 < 0.005


def test_the_migration_gives_existing_drafts_their_sizes(tmp_path):
    s = Store.open(tmp_path / "old.db")
    s.db.execute("DROP INDEX idx_drafts_user_sizes")
    s.db.execute("ALTER TABLE drafts DROP COLUMN size")
    s.db.execute("DELETE FROM migrations WHERE name = '0017_draft_sizes'")
    s.db.execute("INSERT INTO drafts (user, item_id, base_version, data, updated_at) "
                 "VALUES ('ann', 'demo/1', 1, '{\"question\": \"old\"}', 'x')")
    s.db.conn.commit()
    assert apply_migrations(s.db, MIGRATIONS) == ["0017_draft_sizes"]
    assert s.db.execute("SELECT size FROM drafts").fetchone()[0] == len('{"question": "old"}')
    s.close()


def test_the_editor_says_in_the_draft_line_why_the_draft_was_not_kept(ui_store, monkeypatch):
    """It came as "Something went wrong on the server (DraftsFullError)", the save bar
    still saying the edits were kept."""
    monkeypatch.setattr(draft_budget, "MAX_DRAFTS", 1)
    editor = EditorHandlers(ui_store)
    request = SimpleNamespace(username="mallory", session_hash="tab-1")
    first = editor.load("ui/alpha", "mallory")
    form = editor.form_values(first["item"])
    assert autosaved(editor, request, first, form | {"answer": "13"}, None,
                     key=draft_key(first))[0] == \
        "unsaved edits of gold answer (draft kept)"
    work = editor.load("ui/beta", "mallory")
    line, choice = autosaved(editor, request, work,
                             editor.form_values(work["item"]) | {"question": "Why?"}, None,
                             key=draft_key(work))
    line = html.unescape(line).replace("\\", "")             # shown as Markdown, escaped
    assert line.startswith("Not kept as a draft: your account keeps drafts of 1 item,")
    assert "discard the drafts you no longer need" in line and "ui/alpha" in line
    assert ui_store.get_draft("mallory", "ui/beta") is None
    assert ui_store.get_draft("mallory", "ui/alpha")["data"]["answer"] == "13"
    # the edits are still saved by a save
    _, outcome = editor.save(work, editor.form_values(work["item"]) | {"question": "Why?"},
                             None, "", "mallory")
    assert outcome["kind"] == "saved"
