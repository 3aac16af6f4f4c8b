"""The rule an option label made in the editor is held to (the options table, Selected
option with Set option image); imports keep, and flag, their files' labels."""
from __future__ import annotations

from .item_ids import label_problem

LABEL_RULE = ("an option label is 1 to 4 capital letters A–Z or digits 0–9 (a reply names "
              "it, as in \"Answer: B\"; VLMEvalKit's TSV has a column for each letter)")
"""The rule a new option label is held to (new_label_problem)."""


def new_label_problem(label: str) -> str | None:
    """Why `label` may not be the label of an option made or relabelled in the editor (the
    options table, Selected option with Set option image), None when it may: a character
    that reads as markup (label_problem), else LABEL_RULE. Why: "<b>x</b>", a 150-character
    sentence and "A\u200b" beside the real "A" (two options that both read "A") were saved
    through Set option image. Imports keep, and flag, their files' labels."""
    label = str(label)
    if found := label_problem(label):
        return f"{found}; {LABEL_RULE}"
    if not (1 <= len(label) <= 4 and all(ch in "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                         for ch in label)):
        return f"option label {named(label)} is not one: {LABEL_RULE}"
    return None


def named(label: str) -> str:
    """The label quoted, its characters past ASCII named by code: "'Ｅ' (U+FF25)" (a refusal
    that named no label left the annotator guessing which cell; one that quoted "E​"
    read as "E")."""
    shown = repr(label[:40])
    codes = [f"U+{ord(ch):04X}" for ch in dict.fromkeys(label) if ord(ch) > 127]
    return f"{shown} ({', '.join(codes)})" if codes else shown
