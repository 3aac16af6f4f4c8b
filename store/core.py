"""`Store`: the one object the rest of ClueLab uses to reach the database and media files.

It owns the file paths and the per-thread connections and delegates every operation to the
module that does that one job (items, item_queries, revisions, media, users, drafts, stats).
The public methods are the contract in docs/STORE_API.md.
"""
from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any, Iterator

import sqlite_utils

from . import (drafts, item_queries, items, lifecycle, media, media_cleanup, revisions,
               save_budget, scores, stats, users)
from .db import Connections, atomic, now
from .human_baselines import HumanBaselinesMixin
from .inspect_store import InspectMixin
from .media import ImageInfo
from .migrations import apply_migrations
from .runner_store import RunnerMixin


class Store(RunnerMixin, InspectMixin, HumanBaselinesMixin):
    """ClueLab's data: SQLite file + `<stem>-media/` folder beside it. Thread-safe to share.

    The runner's methods (endpoints, prices, prompt templates, runs, work, response cache) come
    from `RunnerMixin` (store/runner_store.py), the Inspect tab's (responses, failure browser,
    tags and notes) from `InspectMixin` (store/inspect_store.py), the human baselines' from
    `HumanBaselinesMixin` (store/human_baselines.py).
    """

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.media_dir = media.media_dir_for(self.path)
        self._connections = Connections(self.path)

    @classmethod
    def open(cls, path: str | Path) -> "Store":
        """Create the file and media folder if needed and apply pending migrations."""
        store = cls(path)
        store.path.parent.mkdir(parents=True, exist_ok=True)
        if not store.path.exists():
            # the server's account only (password hashes, every gold answer): the umask made
            # it 0644, readable by every user of the machine; SQLite gives its -wal and -shm
            # files the database's mode. An existing file keeps the mode its owner chose.
            try:
                os.close(os.open(store.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            except FileExistsError:
                pass
        store.media_dir.mkdir(parents=True, exist_ok=True)
        apply_migrations(store.db)
        return store

    @property
    def db(self) -> sqlite_utils.Database:
        """This thread's `sqlite_utils.Database` (opened on first use in each thread)."""
        return self._connections.get()

    def atomic(self) -> contextlib.AbstractContextManager[sqlite_utils.Database]:
        """One transaction for everything inside (nested: a savepoint). Per thread."""
        return atomic(self.db)

    def needs_demo(self) -> bool:
        """Should the server seed the demo: never seeded, and no item (deleted ones count)?
        Users, endpoints or prices added before the first start do not matter, and a demo
        an admin deleted does not come back."""
        return not (self.db.execute("SELECT 1 FROM store_marks WHERE name = 'demo_seeded'")
                    .fetchone() or self.db.execute("SELECT 1 FROM items LIMIT 1").fetchone())

    def mark_demo_seeded(self) -> None:
        with atomic(self.db):
            self.db.execute("INSERT OR IGNORE INTO store_marks (name, at) VALUES "
                            "('demo_seeded', ?)", [now()])

    def close(self) -> None:
        """Close every thread's connection. The store cannot be used afterwards."""
        self._connections.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Store({str(self.path)!r})"

    # Media
    def add_image(self, source: Path | str | bytes, name: str) -> ImageInfo:
        return media.add_image(self.db, self.media_dir, source, name)

    def prepare_image(self, source: Path | str | bytes, name: str) -> ImageInfo:
        """Check and write an image file without a database row (thread-safe; see media)."""
        return media.prepare_image(self.media_dir, source, name)

    def register_images(self, infos: list[ImageInfo]) -> None:
        media.register_images(self.db, infos)

    def image_path(self, sha: str) -> Path:
        return media.image_path(self.db, self.media_dir, sha)

    def preview_path(self, sha: str) -> Path:
        return media.preview_path(self.db, self.media_dir, sha)

    def image_info(self, sha: str) -> dict:
        return media.image_info(self.db, sha)

    # Items
    # Writes of an item take `may_release`: may the writer set status `released`? (an
    # admin's act; store/items.check_status). The app decides it from its access table.
    # A new item makes its dataset if it is not there, when `may_add_dataset` (the app:
    # whoever may import; store/items.create_item).
    def create_item(self, item: dict, author: str, comment: str = "import",
                    may_release: bool = False, counted: bool = False,
                    may_add_dataset: bool = True, imported: bool = False) -> int:
        """`counted`: an item made on the Annotate page, held to its author's hourly
        history (store/save_budget.py); an import's items are a dataset at once.
        `imported`: an import writes it, which is not authorship (items.REVISION_KINDS)."""
        if counted:
            save_budget.check(self.db, author)
        return items.create_item(self.db, item, author, comment, may_release, may_add_dataset,
                                 imported)

    def dataset_exists(self, dataset: str) -> bool:
        return items.dataset_exists(self.db, dataset)

    def get_item(self, item_id: str, include_deleted: bool = False) -> dict:
        return items.get_item(self.db, item_id, include_deleted)

    def save_item(self, item: dict, base_version: int, author: str, comment: str = "",
                  may_release: bool = False) -> int:
        save_budget.check(self.db, author)
        return items.save_item(self.db, item, base_version, author, comment, may_release)

    def validate_item(self, item: dict) -> dict:
        """The canonical form `create_item`/`save_item` would store; ValidationError if bad."""
        return items.validate_item(self.db, item)

    def item_exists(self, item_id: str) -> bool:
        return items.item_exists(self.db, item_id)

    def item_status(self, item_id: str) -> str | None:
        return items.item_status(self.db, item_id)

    def list_items(self, limit: int | None = None, offset: int = 0, **filters: Any) -> list[dict]:
        return item_queries.list_items(self.db, limit=limit, offset=offset, **filters)

    def count_items(self, **filters: Any) -> int:
        return item_queries.count_items(self.db, **filters)

    def item_ids(self, **filters: Any) -> list[str]:
        return item_queries.item_ids(self.db, **filters)

    def facets(self) -> dict[str, list[str]]:
        return item_queries.facets(self.db)

    def dataset_sizes(self) -> dict[str, int]:
        return item_queries.dataset_sizes(self.db)

    def iter_items(self, dataset: str | None = None, **filters: Any) -> Iterator[dict]:
        return item_queries.iter_items(self.db, dataset=dataset, **filters)

    # Life cycle (store/lifecycle.py): duplicate, delete/restore, reopen, replace, datasets
    def duplicate_item(self, item_id: str, new_id: str, author: str,
                       may_add_dataset: bool = True) -> int:
        save_budget.check(self.db, author)
        return lifecycle.duplicate_item(self.db, item_id, new_id, author, may_add_dataset)

    def delete_item(self, item_id: str, author: str, reason: str = "",
                    base_version: int | None = None) -> int:
        save_budget.check(self.db, author)
        return lifecycle.delete_item(self.db, item_id, author, reason, base_version)

    def restore_deleted(self, item_id: str, author: str, reason: str = "",
                        deleted_by: str | None = None) -> int:
        save_budget.check(self.db, author)
        return lifecycle.restore_deleted(self.db, item_id, author, reason, deleted_by)

    def deleted_items(self, dataset: str | None = None) -> list[dict]:
        return lifecycle.deleted_items(self.db, dataset)

    def reopen_item(self, item_id: str, author: str, reason: str,
                    base_version: int | None = None) -> int:
        return lifecycle.reopen_item(self.db, item_id, author, reason, base_version)

    def replace_item(self, item: dict, author: str, comment: str,
                     may_release: bool = False) -> str:
        return lifecycle.replace_item(self.db, item, author, comment, may_release)

    def dataset_counts(self, dataset: str) -> dict:
        return lifecycle.dataset_counts(self.db, dataset)

    def delete_dataset(self, dataset: str, expected_items: int) -> dict:
        return lifecycle.delete_dataset(self.db, dataset, expected_items)

    # Revisions and reviews
    def history(self, item_id: str, after: int = 0, upto: int | None = None) -> list[dict]:
        return revisions.history(self.db, item_id, after, upto)

    def revision(self, item_id: str, version: int) -> dict:
        return revisions.revision(self.db, item_id, version)

    def diff(self, item_id: str, version_a: int, version_b: int) -> list[dict]:
        return revisions.diff(self.db, item_id, version_a, version_b)

    @staticmethod
    def diff_items(a: dict, b: dict) -> list[dict]:
        return revisions.diff_items(a, b)

    def restore(self, item_id: str, version: int, author: str, base_version: int,
                may_release: bool = False) -> int:
        save_budget.check(self.db, author)
        return revisions.restore(self.db, item_id, version, author, base_version, may_release)

    def add_review(self, item_id: str, version: int, reviewer: str, verdict: str,
                   note: str = "", latest_only: bool = False,
                   set_status: bool = True) -> int:
        save_budget.check(self.db, reviewer)      # a verdict writes a revision too
        return revisions.add_review(self.db, item_id, version, reviewer, verdict, note,
                                    latest_only, set_status)

    def reviews(self, item_id: str) -> list[dict]:
        return revisions.reviews(self.db, item_id)

    # Users and drafts
    def add_user(self, name: str, role: str, password: str) -> None:
        users.add_user(self.db, name, role, password)

    def check_password(self, name: str, password: str) -> bool:
        return users.check_password(self.db, name, password)

    def get_user(self, name: str) -> dict:
        return users.get_user(self.db, name)

    def list_users(self) -> list[dict]:
        return users.list_users(self.db)

    def set_password(self, name: str, password: str) -> None:
        users.set_password(self.db, name, password)

    def set_role(self, name: str, role: str) -> None:
        users.set_role(self.db, name, role)

    def set_disabled(self, name: str, disabled: bool) -> bool:
        return users.set_disabled(self.db, name, disabled)

    def save_draft(self, user: str, item_id: str, base_version: int | None, data: dict,
                   session: str | None = None, seen: int | None = None,
                   force: bool = False, comment: str | None = None) -> int:
        return drafts.save_draft(self.db, user, item_id, base_version, data, session, seen,
                                 force, comment)

    def get_draft(self, user: str, item_id: str) -> dict | None:
        return drafts.get_draft(self.db, user, item_id)

    def delete_draft(self, user: str, item_id: str, session: str | None = None,
                     seen: int | None = None, force: bool = False) -> None:
        """Drop the draft, and the images only it named (store/media_cleanup.py)."""
        data = drafts.delete_draft(self.db, user, item_id, session, seen, force)
        media_cleanup.forget_unused(self.db, self.media_dir, media_cleanup.images_of(data))

    def list_drafts(self, user: str) -> list[dict]:
        return drafts.list_drafts(self.db, user)

    def others_drafts(self, item_id: str, user: str) -> list[dict]:
        return drafts.others_drafts(self.db, item_id, user)

    # Statistics
    def stats(self, dataset: str | None = None) -> dict:
        return stats.stats(self.db, dataset)

    # Scores (issue 4): verdicts per response x protocol x judge
    def upsert_scores(self, rows: list[dict]) -> int:
        return scores.upsert_scores(self.db, rows)

    def delete_scores(self, run_id: str, protocol: str | None = None,
                      judge: str | None = None) -> int:
        return scores.delete_scores(self.db, run_id, protocol, judge)

    def scoring_responses(self, run_id: str, *, with_clues: bool = False,
                          with_text: bool = False) -> list[dict]:
        return scores.scoring_responses(self.db, run_id, with_clues=with_clues,
                                        with_text=with_text)

    def scoring_items(self, run_id: str, *, with_clues: bool = False) -> dict[str, dict]:
        return scores.scoring_items(self.db, run_id, with_clues=with_clues)

    def image_sizes(self, shas: list[str]) -> dict[str, tuple[int, int]]:
        return scores.image_sizes(self.db, shas)

    def run_scores(self, run_id: str, protocol: str | None = None, judge: str | None = None,
                   *, full: bool = False) -> list[dict]:
        return scores.run_scores(self.db, run_id, protocol, judge, full=full)

    def score_values(self, run_id: str, protocol: str, judge: str) -> list[tuple]:
        return scores.score_values(self.db, run_id, protocol, judge)

    def unread_right_answers(self, run_id: str, protocol: str, judge: str,
                             members: list[str]) -> set[int]:
        return scores.unread_right_answers(self.db, run_id, protocol, judge, members)

    def ungraded_work(self, run_id: str, judge: str, members: list[str]) -> set[int]:
        return scores.ungraded_work(self.db, run_id, judge, members)

    def panel_votes(self, run_id: str, protocol: str, judge: str) -> list[tuple[int, str]]:
        return scores.panel_votes(self.db, run_id, protocol, judge)

    def judges_answered(self, run_id: str, protocols: list[str], judges: list[str]
                        ) -> set[tuple[str, int]]:
        return scores.judges_answered(self.db, run_id, protocols, judges)

    def judges_asked(self, run_id: str, protocols: list[str], judges: list[str]) -> int:
        return scores.judges_asked(self.db, run_id, protocols, judges)

    def work_without_score(self, run_id: str, protocol: str, judge: str) -> list[tuple]:
        return scores.work_without_score(self.db, run_id, protocol, judge)

    def item_groups(self) -> tuple[tuple, dict[str, tuple]]:
        return scores.item_groups(self.db)

    def items_state(self) -> tuple:
        return scores.items_state(self.db)

    def score_judges(self, run_id: str) -> list[dict]:
        return scores.score_judges(self.db, run_id)

    def scored_runs(self) -> list[str]:
        return scores.scored_runs(self.db)

    def scored_runs_by_dataset(self) -> dict[str, list[str]]:
        return scores.scored_runs_by_dataset(self.db)

    def dataset_item_ids(self, dataset: str) -> frozenset:
        return scores.dataset_item_ids(self.db, dataset)
