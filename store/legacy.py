"""What databases written by older versions hold that the app no longer writes, read as the
app writes it now: the one place such a value is recognised.

`as_read`: before an unreadable import line's item (not JSON, or a JSON line with no
question) kept an empty question, the import gave it the made-up question
"[missing question]" (the store then required a question's text). Shown as the question's
own text, an annotator could keep it, and exports wrote it as a question. Such an item reads
with an empty question now, as a new import's does (its import problem says why), so that
the page, the checks past draft, runs and exports treat both alike. Read, not rewritten: the
history keeps what was saved; the next save of the item writes the empty question (or the
one typed).
"""
from __future__ import annotations

LEGACY_MISSING_QUESTION = "[missing question]"
"""The exact text older imports stored; an item whose question someone typed otherwise is
read as typed."""


def as_read(fields: dict) -> dict:
    """`fields` (an item, a revision's snapshot, a row with a "question") with the legacy
    placeholder question read as empty; changed in place and returned."""
    if fields.get("question") == LEGACY_MISSING_QUESTION:
        fields["question"] = ""
    return fields
