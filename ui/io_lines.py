"""What the Import / Export page says: the export's dataset list and summary line, and an
import that failed, kept in the report area (a toast fades)."""
from __future__ import annotations

from ui import messages


def dataset_choices(store) -> list[tuple[str, str]]:
    """The export's dataset list: ("demo (14 items)", "demo") for each dataset with items."""
    return [(f"{name} ({count} item{'s' * (count != 1)})", name)
            for name, count in store.dataset_sizes().items()]


def export_line(summary: dict) -> str:
    """What the download holds, in one line: "demo: 14 items" ("all datasets: …")."""
    count, formulas = summary.get("items", 0), summary.get("formula_cells", 0)
    line = f"{summary.get('dataset') or 'all datasets'}: {count} item{'s' * (count != 1)}"
    if formulas:
        line += (f" · {formulas} cell{'s' * (formulas != 1)} begin{'s' * (formulas == 1)} "
                 f"with = + - or @, kept as written: {FORMULA_ADVICE}")
    if said := controls_said(summary):
        line += f" · {said}"
    if said := lost_options_said(summary):
        line += f" · {said}"
    return line


def controls_said(summary: dict) -> str:
    """The export's words for its cells holding invisible control characters (an import's,
    flagged there), "" when none does."""
    count = summary.get("control_cells", 0)
    return (f"{count} cell{'s' * (count != 1)} hold{'s' * (count == 1)} invisible control "
            "characters (a NUL, ESC…), kept as imported: some readers stop at a NUL (see the "
            "items' import problems)") if count else ""


def lost_options_said(summary: dict, most: int = 10) -> str:
    """The export's words for the options it left out (VLMEvalKit's option columns are
    single capital letters A–Z; "1" or "AA" has none): each item and its labels, "" when
    none was. Why: the TSV dropped them without a word."""
    lost = summary.get("lost_options") or {}
    if not lost:
        return ""
    named = "; ".join(f"{item_id}: {', '.join(labels)}"
                      for item_id, labels in list(lost.items())[:most])
    more = f"; and {len(lost) - most} more items" if len(lost) > most else ""
    return (f"{len(lost)} item{'s' * (len(lost) != 1)} lost options whose label is no "
            f"single capital letter A–Z (VLMEvalKit's option columns): {named}{more}")


FORMULA_ADVICE = ("open the TSV as text (every column as text in the spreadsheet's import), "
                  "never with formulas enabled")


def failed_import(reason: str) -> str:
    """The report area after an import that failed: what and why (the file named, what was
    expected; the reason says nothing was imported), shown as text."""
    return f"**Import failed: nothing was imported.**\n\n{messages.status(reason)}"
