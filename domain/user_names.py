"""What a user name may be: the item ids' rule (domain/item_ids.py: no control, invisible or
text-direction character, no spaces around), and no character that reads as markup.

Why: `user add` took any name, and a name is written wherever its user acts: the server's
log (a CR/LF in it forged log lines), revisions' authors, messages and pages (a name like
`<img ...>` is markup wherever one place forgets to escape it). Names made before this rule
are still shown escaped everywhere.

A new name is also at most as long as an item id, and is no other user's told apart only by
case or by look-alike characters (`name_key`: ADMIN1, ａdmin1 and admin1 are one name to a
reader, and a log line or an author by one reads as the other). Existing accounts keep
their names, and are found by them exactly (store/users.py refuses only new ones).
"""
from __future__ import annotations

import unicodedata

from domain.item_ids import MARKUP_CHARACTERS, has_hidden_characters, visible
from domain.limits import MAX_ITEM_ID


def name_problem(name) -> str | None:
    """Why `name` is no valid user name (a sentence naming the rule), None when it is."""
    if not isinstance(name, str) or not name.strip():
        return "missing or empty"
    if len(name) > MAX_ITEM_ID:            # first: the other checks read every character
        return f"a name is at most {MAX_ITEM_ID:,} characters; this one is {len(name):,}"
    if has_hidden_characters(name):
        return ("a name may not hold control, invisible or text-direction characters "
                f"(line breaks among them): {visible(name)}")
    if name != name.strip():
        return "a name may not start or end with spaces"
    if any(ch in MARKUP_CHARACTERS for ch in name):
        return f"a name may not hold any of {' '.join(MARKUP_CHARACTERS)} (they read as markup)"
    return None


def name_key(name: str) -> str:
    """What a reader takes `name` for: its NFKC form case-folded (and normalised again, as
    case folding may undo NFKC), so "ADMIN1", "ａdmin1" (fullwidth) and "admin1" share it."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
