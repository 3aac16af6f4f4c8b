"""The words items are made of: answer types and item statuses, each listed once.

The order is the one the annotation workspace's dropdowns show, and the one messages that list
the choices use.
"""
from __future__ import annotations

ANSWER_TYPES = ("multiple_choice", "yes_no", "open", "location", "numeric")
ITEM_STATUSES = ("draft", "candidate", "in_review", "verified", "rejected", "released")
