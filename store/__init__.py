"""ClueLab's storage: the only package that touches SQLite and the media folder.

Use `Store.open(path)`; see docs/STORE_API.md for the contract.
"""
from .core import Store
from .draft_budget import DraftsFullError
from .drafts import DraftConflict
from .errors import (BusyError, ConflictError, DuplicateItemError, ImportProblem, MediaError,
                     NewDatasetRefusedError, NotFoundError, ReadOnlyError, ReleaseRefusedError, StoreError,
                     TooLargeError, ValidationError)
from .items import natural_key
from .media import ImageInfo
from .revisions import VERDICTS, diff_items
from .save_budget import SavingTooFastError
from .users import ROLES

__all__ = [
    "Store", "StoreError", "DraftConflict", "DraftsFullError", "BusyError", "NotFoundError", "ConflictError",
    "DuplicateItemError", "ImportProblem", "NewDatasetRefusedError", "MediaError", "ReadOnlyError",
    "ReleaseRefusedError", "SavingTooFastError", "TooLargeError", "ValidationError",
    "ImageInfo", "diff_items", "natural_key",
    "ROLES", "VERDICTS",
]
