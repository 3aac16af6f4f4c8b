"""The words items are made of: answer types and item statuses, each listed once.

The order is the one the annotation workspace's dropdowns show, and the one messages that list
the choices use.
"""
from __future__ import annotations

ANSWER_TYPES = ("multiple_choice", "yes_no", "open", "location", "numeric")
ITEM_STATUSES = ("draft", "candidate", "in_review", "verified", "rejected", "released")
"""draft: being written; candidate: written, waiting for a review; in_review: sent back (a
reviewer asked for a revision, or a verified item was changed); verified: approved by a
reviewer; rejected: rejected by a reviewer; released: frozen, read-only (admins)."""

SETTING_TITLES = {"direct": "No-CoT", "cot": "CoT", "clue_guided": "Clue-guided CoT",
                  "structured": "Structured"}
"""A prompt setting as the tables, the run form and the token estimate title it."""

IMAGE_MODE_TITLES = {"full": "full", "text_only": "text only", "clue_masked": "clues masked",
                     "clue_crops": "clue crops"}
"""An image mode (runner.config.IMAGE_MODES) as the run form and run labels say it: labels
read "images clue_masked"."""

REVIEW_VERDICTS = ("approve", "revise", "reject")
REVIEW_STATUS = {"approve": "verified", "revise": "in_review", "reject": "rejected"}
"""The status a review gives the item it reviews (when that version is still the latest)."""


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """"1 item", "3 items", "1 work row": a count with its noun in the number it takes
    (messages read "(1 items)")."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"
