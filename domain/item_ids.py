"""What an item id may be, and how an id that may not is shown.

An id is text without control, invisible or text-direction characters (Unicode categories
Cc and Cf: a zero-width space, a right-to-left override, ...): they make one id look like
another, or, printed, turn the rest of the line around. The store refuses such an id
(store/validation.py), an import skips it with this reason (formats/importer.py), and every
report shows it with those characters written out (`visible`), never as they are.
"""
from __future__ import annotations

import unicodedata

HIDDEN_CATEGORIES = ("Cc", "Cf")
HIDDEN_CHARACTER = "id has a control or invisible character"
SPACES_AROUND = "id has leading or trailing spaces"
NO_ID = "missing or empty id"


def has_hidden_characters(text: str) -> bool:
    """True if `text` holds a control character or an invisible format character."""
    return any(unicodedata.category(ch) in HIDDEN_CATEGORIES for ch in text)


def id_problem(item_id) -> str | None:
    """Why `item_id` is no valid item id (one of the sentences above), None when it is."""
    if not isinstance(item_id, str) or not item_id.strip():
        return NO_ID
    if has_hidden_characters(item_id):
        return HIDDEN_CHARACTER
    if item_id != item_id.strip():
        return SPACES_AROUND
    return None


def visible(text: str) -> str:
    """`text` with each control or invisible character written as its escape
    ("rtl\\u202eevil", "zero\\u200bwidth"): safe to print, and told apart from any other."""
    return "".join(
        (f"\\u{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08x}")
        if unicodedata.category(ch) in HIDDEN_CATEGORIES else ch for ch in str(text))
