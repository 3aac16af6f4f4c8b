"""What an item id may be, and how an id that may not is shown.

An id is text without control, invisible or text-direction characters (Unicode categories
Cc and Cf: a zero-width space, a right-to-left override, ...): they make one id look like
another, or, printed, turn the rest of the line around. The store refuses such an id
(store/validation.py), an import skips it with this reason (formats/importer.py), and every
report shows it with those characters written out (`visible`), never as they are.
"""
from __future__ import annotations

import unicodedata

from .limits import MAX_ITEM_ID

HIDDEN_CATEGORIES = ("Cc", "Cf")
HIDDEN_CHARACTER = "id has a control or invisible character"
SPACES_AROUND = "id has leading or trailing spaces"
NO_ID = "missing or empty id"
TOO_LONG = f"id is longer than the limit of {MAX_ITEM_ID} characters"
SHOWN_MAX = 80
"""The most of an over-long id a message shows (an id within MAX_ITEM_ID is shown whole)."""


def has_hidden_characters(text: str) -> bool:
    """True if `text` holds a control character or an invisible format character."""
    return any(unicodedata.category(ch) in HIDDEN_CATEGORIES for ch in text)


def id_problem(item_id) -> str | None:
    """Why `item_id` is no valid item id (one of the sentences above), None when it is."""
    if not isinstance(item_id, str) or not item_id.strip():
        return NO_ID
    if len(item_id) > MAX_ITEM_ID:         # first: the other checks read every character
        return TOO_LONG
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


def typed_id_refusal(item_id) -> str | None:
    """Why an id someone typed (the id box, `?item=`, a new or duplicate id, a command's
    ITEM) is refused before it is looked up, in words that never quote it ("the id is
    1,000,000 characters; ids are at most 200"); None for an id that may be looked up.
    Why: "no item with id '…'" sent back a megabyte id, its line breaks and U+202E raw."""
    text = str(item_id)
    if len(text) > MAX_ITEM_ID:
        return f"the id is {len(text):,} characters; ids are at most {MAX_ITEM_ID:,}"
    hidden = sorted({ord(ch) for ch in text if unicodedata.category(ch) in HIDDEN_CATEGORIES})
    if hidden:
        names = ", ".join(f"U+{code:04X}" for code in hidden[:5])
        return (f"the id holds control, invisible or text-direction characters ({names}); "
                "ids hold none")
    return None


def shown_id(item_id) -> str:
    """`item_id` for a message: `visible`, and an id over the limit cut to its first
    SHOWN_MAX characters and its length ("aaaa… (12,000,000 characters)"): a message never
    carries megabytes of it."""
    text = str(item_id)
    if len(text) > MAX_ITEM_ID:
        return f"{visible(text[:SHOWN_MAX])}… ({len(text):,} characters)"
    return visible(text)
