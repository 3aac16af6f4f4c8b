"""A run's spread over its repeats in words, one text for `report` and the Results page:
the page showed no spread where `report` printed "over 2 repeats (n 3): 16.67 ± 23.57"."""
from __future__ import annotations


def repeats_text(spread: dict) -> str:
    """'over 4 repeats (n 14): 18.27 ± 3.21 (mean ± SD of the 4 per-repeat accuracies)',
    and why when it is on fewer items than the accuracy (scoring.results.repeat_spread).
    The SD is the sample standard deviation (n - 1) of one accuracy per repeat."""
    overall = spread["overall"]
    if not overall["n"]:
        return f"over repeats: no item was scored in every repeat; {spread['note']}"
    k = overall["repeats"]
    line = (f"over {k} repeats (n {overall['n']}): {_percent(overall['mean'])} ± "
            f"{_percent(overall['std'])} (mean ± SD of the {k} per-repeat accuracies)")
    return f"{line}; {spread['note']}" if spread["note"] else line


def _percent(value) -> str:
    return "–" if value is None else f"{value * 100:.2f}"
