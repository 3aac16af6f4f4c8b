"""Which rule reads the chosen letter of a multiple-choice answer: ClueLab's or MMR-Life's.

ClueLab's extraction (`domain.extract`, the default) is stored with every response and scored
by the rule judges. MMR-Life's authors read the *last* `Answer: X`, `\\boxed{X}` or `X.` in the
text (`judges.mmr_life`), so `# Answer: C\\nThis matches the blue cube.` reads as E. To set our
numbers beside the paper's, a report can re-read the run's multiple-choice responses with the
authors' regex: their general-protocol verdicts are replaced by `mmr_life_rule` verdicts before
samples are aggregated (so the "mmr_life" samples rule then reproduces the paper's scoring), and
the report says how many verdicts the two rules disagree on.

Only multiple-choice items are re-read (MMR-Life has no other kind); a failed call stays an
`error`, a reply cut off by max_tokens (truncated) stays as scored (its answer only from a
whole explicit statement: the authors' `X.` would read a fragment, `scoring.offline`), and an
item whose gold names no option stays as scored. Rigorous and grounded verdicts
also depend on the clue matching, which this does not redo: the authors' rule applies to the
general protocol only.
"""
from __future__ import annotations

from collections import Counter

from judges.mmr_life import mmr_life_rule
from judges.rules import gold_label
from judges.verdict import Verdict

CLUELAB, MMR_LIFE = "cluelab", "mmr-life"
EXTRACTIONS = (CLUELAB, MMR_LIFE)
TITLES = {CLUELAB: "ClueLab's extraction (the final explicit answer statement)",
          MMR_LIFE: "MMR-Life's regex (the authors' rule: the last `Answer: X`, "
                    "`\\boxed{X}` or `X.` in the text)"}


class ExtractionError(ValueError):
    """The extraction rule cannot be applied as asked; the message says why."""


def check(extraction: str, protocol: str) -> None:
    if extraction not in EXTRACTIONS:
        raise ExtractionError(f"extraction must be one of {', '.join(EXTRACTIONS)}, "
                              f"not {extraction!r}")
    if extraction == MMR_LIFE and protocol != "general":
        raise ExtractionError("MMR-Life's extraction applies to the general protocol only "
                              "(rigorous and grounded verdicts also need the clue matching)")


def mmr_life_verdicts(responses: list[dict], items: dict[str, dict]) -> dict[int, Verdict]:
    """{work_id: the authors' verdict} for the multiple-choice responses (with their text)."""
    out = {}
    for r in responses:
        item = items.get(r["item_id"])
        if item is None or item["answer_type"] != "multiple_choice" or \
                r["status"] in ("error", "truncated"):
            continue
        gold = gold_label(item["answer"], item.get("options"))
        if gold is not None:
            out[r["work_id"]] = mmr_life_rule(r.get("text"), gold)
    return out


def run_verdicts(store, run_id: str) -> dict[int, Verdict]:
    """The authors' verdicts on a run's multiple-choice responses, read from the store."""
    return mmr_life_verdicts(store.scoring_responses(run_id, with_text=True),
                             store.scoring_items(run_id))


def reread(rows: list[dict], verdicts: dict[int, Verdict]) -> dict:
    """Replace the value and answer of each score row that has an MMR-Life verdict (in place);
    returns how the two rules differ: {"compared", "differ", "answers_differ", "changes"}
    where changes counts "ours → theirs" value pairs."""
    changes: Counter = Counter()
    compared = answers_differ = 0
    for row in rows:
        theirs = verdicts.get(row["work_id"])
        if theirs is None:
            continue
        compared += 1
        if theirs.value != row["value"]:
            changes[f"{row['value']} → {theirs.value}"] += 1
        if (theirs.answer or None) != (row["answer"] or None):
            answers_differ += 1
        row["value"], row["answer"] = theirs.value, theirs.answer
    return {"compared": compared, "differ": sum(changes.values()),
            "answers_differ": answers_differ, "changes": dict(sorted(changes.items()))}


def describe(extraction: str, diff: dict | None) -> str:
    """One line for reports: which rule read the answers and, for MMR-Life's, what changed."""
    line = f"Answers read by {TITLES[extraction]}."
    if diff is None:
        return line
    detail = ", ".join(f"{k} {v}" for k, v in diff["changes"].items())
    return (line + f" {diff['differ']} of {diff['compared']} multiple-choice verdicts differ "
            f"from ClueLab's extraction" + (f" ({detail})" if detail else "") +
            f"; the letter read differs in {diff['answers_differ']}.")
