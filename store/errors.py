"""Typed exceptions raised by the store.

Callers (importers, UI handlers) catch these to show a precise message instead of a traceback,
so every message names the thing it is about (item id, field, file name). All of them derive
from `StoreError`, so "anything the store refused" is one `except` clause.
"""
from __future__ import annotations


class StoreError(Exception):
    """Base class of every error the store raises on purpose."""


class NotFoundError(StoreError, KeyError):
    """An item, image, revision or user does not exist.

    Also a `KeyError`, so code written against a mapping-like API keeps working.
    """

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class ValidationError(StoreError, ValueError):
    """An item (or user, review…) breaks a rule; nothing was written.

    `item_id` and `field` say where, for UIs that highlight the field.
    """

    def __init__(self, message: str, item_id: str | None = None, field: str | None = None):
        super().__init__(message)
        self.item_id = item_id
        self.field = field


class TooLargeError(ValidationError):
    """A text or a list is over its size limit (domain/limits.py); nothing was written.

    `reason` says which and the limit ("Question is 25,000 characters; the limit is 20,000")
    and never quotes the value, so an import report may show it as it is."""

    def __init__(self, message: str, item_id: str | None, field: str | None, reason: str):
        super().__init__(message, item_id, field)
        self.reason = reason


class ConflictError(StoreError):
    """A save was based on an old version: someone else saved in between.

    Optimistic locking: the UI shows who changed the item and when, and the user merges;
    the store never silently overwrites.
    """

    def __init__(self, item_id: str, current_version: int | None, updated_by: str | None,
                 updated_at: str | None, base_version: int | None = None,
                 message: str | None = None):
        self.item_id = item_id
        self.current_version = current_version
        self.updated_by = updated_by
        self.updated_at = updated_at
        self.base_version = base_version
        if message is None:
            message = (f"item {item_id} was changed by {updated_by} at {updated_at} "
                       f"(version {current_version}); you edited version {base_version}")
        super().__init__(message)


class ReadOnlyError(ValidationError):
    """The item is released (read-only until an admin reopens it) or deleted; nothing written."""

    def __init__(self, message: str, item_id: str):
        super().__init__(message, item_id, "status")


class ReleaseRefusedError(ValidationError):
    """A write would set an item's status to `released` and its writer may not release items
    (an admin's act: ui/access.py, ACTS release_item); nothing written."""

    def __init__(self, item_id: str):
        super().__init__(f"item {item_id}: status: `released` (read-only until an admin "
                         f"reopens it) is set only by those who may release items",
                         item_id, "status")


class NewDatasetRefusedError(ValidationError):
    """A new item (made or duplicated on the Annotate page) would make a dataset, and its
    writer may not make datasets: datasets are made by importing (ui/access.py, ACTS
    make_dataset); nothing written. `dataset` is the name that is not there."""

    def __init__(self, item_id: str, dataset: str):
        super().__init__(f"there is no dataset '{dataset}'; datasets are made by importing",
                         item_id, "dataset")
        self.dataset = dataset


class DuplicateItemError(ConflictError):
    """`create_item` was given an id that already exists (a kind of conflict)."""

    def __init__(self, item_id: str, current_version: int, updated_by: str | None,
                 updated_at: str | None):
        super().__init__(item_id, current_version, updated_by, updated_at,
                         message=(f"item {item_id} already exists (version {current_version}, "
                                  f"last changed by {updated_by} at {updated_at})"))


class MediaError(StoreError, ValueError):
    """An image file was refused (not an image, corrupt, truncated, too large).

    `name` is the file name the caller gave, so an import report can point at the file.
    """

    def __init__(self, name: str, reason: str):
        self.name = name
        self.reason = reason
        super().__init__(f"{name}: {reason}")


class BusyError(StoreError):
    """Another connection held the write lock for longer than the busy timeout.

    Usually a long import running in one transaction; the user can simply retry.
    """


class ImportProblem(StoreError):
    """One problem found while importing one item (used by `formats/`).

    Both a record and an exception: an importer may `raise` it to skip an item, or collect
    instances into a report (and into the item's `problems` list via `str(problem)`).
    """

    def __init__(self, item_id: str | None, reason: str):
        self.item_id = item_id
        self.reason = reason
        super().__init__(f"{item_id}: {reason}" if item_id else reason)

    def as_dict(self) -> dict:
        return {"item_id": self.item_id, "reason": self.reason}

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, ImportProblem)
                and (self.item_id, self.reason) == (other.item_id, other.reason))

    def __hash__(self) -> int:
        return hash((self.item_id, self.reason))

    def __repr__(self) -> str:
        return f"ImportProblem(item_id={self.item_id!r}, reason={self.reason!r})"
