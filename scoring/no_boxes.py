"""Grounded-rigorous accuracy only for runs that asked the model for boxes.

Grounded rigor asks whether a matched clue's box overlaps its GT box. Only the structured
setting asks the model for boxes (and a clues=self run whose first pass is structured: its
clues, boxes and all, are the model's own). Any other run's replies hold no box, so every
grounded verdict of it is "wrong": read as an accuracy, a 0% that measures the prompt, not
the model. Such a run's grounded-rigorous accuracy is not applicable: every table, report,
chart and export shows "–" and says why (`reason`), never 0%; its verdicts stay stored (a
researcher may still inspect them) and its counts still add up to its total.
"""
from __future__ import annotations

from dataclasses import replace

from judges.stats import Accuracy

GROUNDED, RIGOROUS = "grounded", "rigorous"


def asks_for_boxes(config: dict) -> bool:
    """Did the run's prompts ask the model for clue boxes?"""
    return config.get("setting") == "structured" or (
        config.get("clues") == "self" and config.get("clue_pass_setting") == "structured")


BOXES_RULE = "only the structured setting, or clues=self with a structured first pass, does"


def reason(config: dict) -> str:
    """Why grounded-rigorous is n/a for a run with this config, '' when it applies."""
    if asks_for_boxes(config):
        return ""
    return (f"grounded-rigorous is n/a: setting {config.get('setting')} asks for no boxes "
            f"({BOXES_RULE})")


def asks_for_clues(config: dict) -> bool:
    """Did the run's answer prompt ask for reasoning on visual clues? Not No-CoT (setting
    direct): DailyClue's rigorous protocol (§4.2, Eq. 1) checks "the visual clues extracted
    from the model's CoT process", and a No-CoT reply has none asked for; the paper gives
    No-CoT its accuracy alone (§5.2, Fig. 6), rigorous and its drop only to CoT runs (Fig. 7)."""
    return config.get("setting") != "direct"


CLUES_RULE = ("DailyClue's rigorous protocol checks the clues of the model's CoT; a No-CoT reply "
              "that names clues anyway is no reasoning asked for")


def rigorous_reason(config: dict) -> str:
    """Why rigorous accuracy (and the drop) is n/a for a run with this config, '' when it
    applies: a No-CoT run's clues, volunteered, gave it a rigorous 33.33 (review round 28)."""
    if asks_for_clues(config):
        return ""
    return (f"rigorous is n/a: setting {config.get('setting')} (No-CoT) asks for no clues "
            f"({CLUES_RULE})")


def protocol_reason(config: dict, protocol: str) -> str:
    """Why `protocol` has no accuracy for a run with this config ('' when it has): grounded
    for a run that asked for no boxes, rigorous for one that asked for no clues."""
    return reason(config) if protocol == GROUNDED else rigorous_reason(config) \
        if protocol == RIGOROUS else ""


def run_reason(store, run_id: str, protocol: str) -> str:
    """`protocol_reason` of the run's config."""
    return protocol_reason(store.get_run(run_id)["config"], protocol) \
        if protocol in (GROUNDED, RIGOROUS) else ""


def without_accuracy(summary: dict) -> dict:
    """A `summarise` output with every accuracy and interval taken out (n and counts kept:
    they still add up), so that no table reads the n/a protocol as 0%."""
    def blank(acc: Accuracy) -> Accuracy:
        return replace(acc, accuracy=None, ci_low=None, ci_high=None)

    return {key: blank(value) if isinstance(value, Accuracy) else
            {name: blank(acc) for name, acc in value.items()}
            for key, value in summary.items()}


def mark_not_applicable(table, reasons: dict[str, str], key: str) -> None:
    """A `judges.tables.Table`'s rows whose accuracy is n/a (their cells read "–"): the
    reason in its notes and, for CSV and JSON, in column `key` ({row label: reason})."""
    note = table_note(reasons)
    if not note:
        return
    table.notes += " " + note
    table.exported.append(key)
    for row in table.rows:
        row[key] = reasons.get(row["model"], "")


def table_note(reasons: dict[str, str]) -> str:
    """The sentences under a table for its rows whose grounded-rigorous (or rigorous) is n/a
    ({label: reason}), '' when there is none: each protocol's said once, the rows named by
    reason ("for A, B and C: setting cot asks for no boxes; for D: setting direct asks …"),
    the rule once at the end. It was said once per row: nine times in a drop table of nine
    CoT runs (review round 28)."""
    found = {label: why for label, why in reasons.items() if why}
    said = []
    for head, rule in (("grounded-rigorous", BOXES_RULE), ("rigorous", CLUES_RULE)):
        by_reason: dict[str, list[str]] = {}
        for label, why in found.items():
            if why.startswith(f"{head} is n/a: "):
                short = why.removeprefix(f"{head} is n/a: ").removesuffix(f" ({rule})")
                by_reason.setdefault(short, []).append(label)
        if by_reason:
            which = "; for ".join(f"{listed(labels)}: {why}" for why, labels in by_reason.items())
            said.append(f"{head.capitalize()} is n/a (–), not 0%, for {which} ({rule}).")
    return " ".join(said)


def listed(labels: list[str]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]


NA_CELL = "–"
NA_WHY = "not applicable, its run asked for no boxes"
"""Said once by a list with `NA_CELL` cells (the cell said it in each row, on three lines)."""
NA_WHY_CLUES = "not applicable, its run asked for no clues (No-CoT)"
ASKED_FOR_NO = {GROUNDED: "the run asked for no boxes",
                RIGOROUS: "the No-CoT run asked for no clues"}
"""Why a protocol `score` scored is n/a, in a few words ({protocol: words}): a No-CoT run's
rigorous line said "asked for no boxes", its note below it "asks for no clues"."""


def list_cell(value: str | None, config: dict) -> str:
    """A grounded verdict as a list of responses shows it: `NA_CELL` ("–", as every table
    and Inspect's verdict table show it) for a run that asked for no boxes, whether a judge
    stored a verdict ("wrong", measuring the prompt) or none (an LLM judge: the cell was
    empty); else the value ('' when none)."""
    if not asks_for_boxes(config):
        return NA_CELL
    return value or ""


def rigorous_cell(value: str | None, config: dict) -> str:
    """A rigorous verdict as a list of responses shows it: `NA_CELL` for a No-CoT run (its
    rigorous is n/a in every table: "correct" there measured clues it volunteered)."""
    return NA_CELL if not asks_for_clues(config) else value or ""


def shown_verdicts(verdicts: list[dict], config: dict) -> list[dict]:
    """A response's verdicts as Inspect shows them: a grounded one of a run that asked for no
    boxes, and a rigorous one of a No-CoT run, read "–", the rationale giving the reason and
    the stored value (kept in `stored_value`), as every table does; the others as stored."""
    why = {p: protocol_reason(config, p) for p in (GROUNDED, RIGOROUS)}
    return [{**v, "value": "–", "stored_value": v["value"], "score": None,
             "rationale": f"{why[v['protocol']]}; stored verdict: {v['value']}. "
                          f"{v.get('rationale') or ''}".strip()}
            if why.get(v["protocol"]) else v for v in verdicts]
