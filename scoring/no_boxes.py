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

GROUNDED = "grounded"


def asks_for_boxes(config: dict) -> bool:
    """Did the run's prompts ask the model for clue boxes?"""
    return config.get("setting") == "structured" or (
        config.get("clues") == "self" and config.get("clue_pass_setting") == "structured")


def reason(config: dict) -> str:
    """Why grounded-rigorous is n/a for a run with this config, '' when it applies."""
    if asks_for_boxes(config):
        return ""
    return (f"grounded-rigorous is n/a: setting {config.get('setting')} asks for no boxes "
            "(only the structured setting, or clues=self with a structured first pass, does)")


def run_reason(store, run_id: str, protocol: str) -> str:
    """`reason` for the run's grounded-rigorous numbers, '' for any other protocol."""
    return reason(store.get_run(run_id)["config"]) if protocol == GROUNDED else ""


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
    """The sentence under a table for its rows whose grounded-rigorous is n/a ({label:
    reason}), '' when there is none."""
    found = {label: why for label, why in reasons.items() if why}
    if not found:
        return ""
    return ("Grounded-rigorous is n/a (–), not 0%, for " + "; ".join(
        f"{label}: {why.removeprefix('grounded-rigorous is n/a: ')}"
        for label, why in found.items()) + ".")


NA_CELL = "–"
NA_WHY = "not applicable, its run asked for no boxes"
"""Said once by a list with `NA_CELL` cells (the cell said it in each row, on three lines)."""


def list_cell(value: str | None, config: dict) -> str:
    """A grounded verdict as a list of responses shows it: `NA_CELL` ("–", as every table
    and Inspect's verdict table show it) for a run that asked for no boxes, whether a judge
    stored a verdict ("wrong", measuring the prompt) or none (an LLM judge: the cell was
    empty); else the value ('' when none)."""
    if not asks_for_boxes(config):
        return NA_CELL
    return value or ""


def shown_verdicts(verdicts: list[dict], config: dict) -> list[dict]:
    """A response's verdicts as Inspect shows them: a grounded one of a run that asked for no
    boxes reads "–", its rationale giving the reason and the stored value (kept in
    `stored_value`), as every table does; the others as stored."""
    why = reason(config)
    if not why:
        return verdicts
    return [{**v, "value": "–", "stored_value": v["value"], "score": None,
             "rationale": f"{why}; stored verdict: {v['value']}. {v.get('rationale') or ''}"
             .strip()} if v["protocol"] == GROUNDED else v for v in verdicts]
