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
    return line


FORMULA_ADVICE = ("open the TSV as text (every column as text in the spreadsheet's import), "
                  "never with formulas enabled")


def failed_import(reason: str) -> str:
    """The report area after an import that failed: what and why (the file named, what was
    expected; the reason says nothing was imported), shown as text."""
    return f"**Import failed: nothing was imported.**\n\n{messages.status(reason)}"
