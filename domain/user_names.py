"""What a user name may be: the item ids' rule (domain/item_ids.py: no control, invisible or
text-direction character, no spaces around), and no character that reads as markup.

Why: `user add` took any name, and a name is written wherever its user acts: the server's
log (a CR/LF in it forged log lines), revisions' authors, messages and pages (a name like
`<img ...>` is markup wherever one place forgets to escape it). Names made before this rule
are still shown escaped everywhere.
"""
from __future__ import annotations

from domain.item_ids import has_hidden_characters, visible

MARKUP_CHARACTERS = "<>&\"'`"


def name_problem(name) -> str | None:
    """Why `name` is no valid user name (a sentence naming the rule), None when it is."""
    if not isinstance(name, str) or not name.strip():
        return "missing or empty"
    if has_hidden_characters(name):
        return ("a name may not hold control, invisible or text-direction characters "
                f"(line breaks among them): {visible(name)}")
    if name != name.strip():
        return "a name may not start or end with spaces"
    if any(ch in MARKUP_CHARACTERS for ch in name):
        return f"a name may not hold any of {' '.join(MARKUP_CHARACTERS)} (they read as markup)"
    return None
