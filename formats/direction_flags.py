"""Imported texts that hold text-direction controls, flagged: kept as imported (a dataset's
own text is never rewritten on import), said so that a curator sees it before it travels.

Why: a question holding U+202E ("right-to-left override") was shown reversed on every
page ("RLO" read "OLR"), while a review note or a revision comment with one is refused
(domain.item_ids.direction_marks_problem): text can be made to read as other text.
"""
from __future__ import annotations

from domain.item_ids import DIRECTION_MARKS

from .report import problem


def direction_flags(item: dict) -> list[str]:
    """One problem naming the parts (never their text) whose text holds direction
    controls, and which ones; [] when none does."""
    parts = [("question", item.get("question")), ("gold answer", item.get("answer")),
             ("GT reasoning", item.get("gt_reasoning"))]
    parts += [(f"alias {n}", a) for n, a in enumerate(item.get("aliases") or [], start=1)]
    for n, clue in enumerate(item.get("clues") or [], start=1):
        parts += [(f"clue {n} text", clue.get("text")),
                  (f"clue {n} reasoning", clue.get("reasoning"))]
    parts += [(f"option {n}", o.get("text")) for n, o in enumerate(item.get("options") or [],
                                                                     start=1)]
    found, marks = [], set()
    for name, text in parts:
        here = {ord(ch) for ch in str(text or "") if ord(ch) in DIRECTION_MARKS}
        if here:
            found.append(name)
            marks |= here
    if not found:
        return []
    codes = ", ".join(f"U+{code:04X}" for code in sorted(marks)[:5])
    return [problem("text-direction characters", ", ".join(found[:8]) +
                    (f" and {len(found) - 8} more" if len(found) > 8 else ""),
                    f"{codes}: they can make text read as other text; kept as imported, "
                    "remove them if they are not the text's own")]
