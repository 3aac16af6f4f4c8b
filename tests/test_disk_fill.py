"""One account cannot fill the disk: its item history per hour is bounded
(store/save_budget.py) and a discarded draft's images go with it (store/media_cleanup.py)."""
from __future__ import annotations

import time

import pytest

import store.save_budget as save_budget
from domain.limits import MAX_HISTORY_PER_HOUR, history_wait_s
from store import SavingTooFastError


def test_an_account_adds_a_bounded_history_per_hour(store, make_item, monkeypatch):
    monkeypatch.setattr(save_budget, "MAX_HISTORY_PER_HOUR", 300_000)
    store.create_item(make_item("demo/big"), "importer")
    version = 1
    with pytest.raises(SavingTooFastError) as refused:
        for n in range(20):       # ~50 KB a save: the 7th is over 300 KB
            version = store.save_item(make_item("demo/big", gt_reasoning=f"{n:02} " + "x" * 49_000),
                                      version, "mallory")
    assert 5 <= version - 1 <= 7
    message = str(refused.value)
    assert "in the last hour" in message and "Saving is possible again at" in message
    assert 3000 <= refused.value.wait_s <= 3600
    # the other writes of a revision are refused too; another account is not
    for write in (lambda: store.restore("demo/big", 1, "mallory", version),
                  lambda: store.duplicate_item("demo/big", "demo/copy", "mallory"),
                  lambda: store.delete_item("demo/big", "mallory"),
                  # a review writes a revision, and so does an item made on the page
                  lambda: store.add_review("demo/big", version, "mallory", "approve"),
                  lambda: store.create_item(make_item("demo/new"), "mallory", counted=True)):
        with pytest.raises(SavingTooFastError):
            write()
    assert store.save_item(make_item("demo/big"), version, "ann") == version + 1
    assert not message.startswith("Not stored")        # "Not saved: Not stored: ..." read twice


def test_a_draft_is_held_to_the_items_own_limits(store, make_item):
    """A 3.9 MB question was kept as a draft (under the draft's 4 MB), its limit being
    20,000 characters: 60 such drafts wrote 234 MB, never refused."""
    from store import TooLargeError
    store.create_item(make_item("demo/d"), "importer")
    with pytest.raises(TooLargeError, match="Question is 3,900,000 characters; the limit"):
        store.save_draft("mallory", "demo/d", 1, {**make_item("demo/d"), "question": "q" * 3_900_000})
    assert store.get_draft("mallory", "demo/d") is None
    store.save_draft("ann", "demo/d", 1, {"question": "fine", "_options_aside": []})


def test_ordinary_saves_every_two_seconds_always_pass(store, make_item):
    """An hour of saves of an ordinary item, one every 2 s, stays far within the limit."""
    store.create_item(make_item("demo/small"), "importer")
    store.save_item(make_item("demo/small", question="What is on the sign?"), 1, "ann")
    size = len(store.db.execute("SELECT snapshot FROM revisions WHERE version = 2")
               .fetchone()[0].encode())
    now = time.time()
    hour = [(now - 3600 + 2 * i, size * 10) for i in range(1800)]    # ten times its size
    assert history_wait_s(hour, now) is None
    assert sum(s for _, s in hour) < MAX_HISTORY_PER_HOUR / 5


def media_files(store) -> set[str]:
    return {p.stem for p in store.media_dir.rglob("*") if p.is_file()}


def test_a_discarded_drafts_own_images_are_removed(store, make_item, add_png):
    item = make_item("demo/d", n_images=1)
    store.create_item(item, "importer")
    used, only_draft, others_draft, in_history = add_png(), add_png(), add_png(), add_png()
    # an old revision names `in_history` (the item no longer does)
    store.save_item({**item, "images": [*item["images"], in_history]}, 1, "ann")
    store.save_item(item, 2, "ann")
    store.create_item(make_item("demo/e", images=[used], clues=[]), "importer")
    store.save_draft("bob", "demo/d", 3, {**item, "images": [others_draft]})
    draft = {**item, "images": [*item["images"], used, only_draft, others_draft, in_history],
             "options": [{"label": "A", "text": "", "image": only_draft}]}
    store.save_draft("ann", "demo/d", 3, draft)
    before = media_files(store)
    assert {used, only_draft, others_draft, in_history} <= before
    store.delete_draft("ann", "demo/d")
    assert media_files(store) == before - {only_draft}
    with pytest.raises(KeyError):
        store.image_info(only_draft)
    for sha in (used, others_draft, in_history, *item["images"]):
        assert store.image_path(sha).exists()
    # a draft that names nothing, or no draft, removes nothing
    store.save_draft("ann", "demo/d", 3, {"question": "half typed"})
    store.delete_draft("ann", "demo/d")
    store.delete_draft("ann", "demo/d")
    assert media_files(store) == before - {only_draft}
