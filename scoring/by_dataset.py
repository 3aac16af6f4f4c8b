"""Which runs a table is about when none are named: one dataset's, each dataset on its own.

Runs on two datasets share no item, so "every scored run" in one table can only be refused.
What a researcher means by `leaderboard` with no `--runs` is one table per dataset, each on
that dataset's items and the items its runs share there; `--dataset NAME` picks one. A format
that holds one table (CSV, JSON) cannot carry several: then the message names the datasets
and the flag. Named runs (`--runs`) are taken as given, within `--dataset` when both are set.
"""
from __future__ import annotations

from dataclasses import dataclass

from judges.tables import latex_escape, markdown_cell

from scoring.results import ResultsError

ONE_TABLE_FORMATS = ("csv", "json")


@dataclass(frozen=True)
class Selection:
    dataset: str | None        # None: the runs as named, on all their items
    run_ids: list
    within: frozenset | None   # the dataset's items (None: no restriction)


def _listed(by_dataset: dict[str, list]) -> str:
    return ", ".join(f"{name} ({len(runs)} run{'s' if len(runs) != 1 else ''})"
                     for name, runs in by_dataset.items())


def selections(store, run_ids: list[str] | None, dataset: str | None,
               fmt: str = "md") -> list[Selection]:
    """The tables to print: one Selection per dataset, or the one asked for. ResultsError
    for a dataset no scored run is on, or several datasets in a one-table format."""
    by_dataset = store.scored_runs_by_dataset()
    if dataset is not None and dataset not in by_dataset:
        known = _listed(by_dataset) or "none"
        raise ResultsError(f"no scored run is on dataset {dataset!r}; datasets with scored "
                           f"runs: {known}")
    within = store.dataset_item_ids(dataset) if dataset is not None else None
    if run_ids:
        return [Selection(dataset, list(run_ids), within)]
    if dataset is not None:
        return [Selection(dataset, by_dataset[dataset], within)]
    if not by_dataset:
        raise ResultsError("no run has scores yet: python app.py score --run ID")
    if len(by_dataset) == 1:
        (name, runs), = by_dataset.items()
        return [Selection(name, runs, None)]
    if fmt in ONE_TABLE_FORMATS:
        raise ResultsError(f"scored runs are on {len(by_dataset)} datasets: "
                           f"{_listed(by_dataset)}. A {fmt} file holds one table: choose "
                           f"one with --dataset NAME (or name runs with --runs A,B)")
    return [Selection(name, runs, store.dataset_item_ids(name))
            for name, runs in by_dataset.items()]


def heading(selection: Selection, fmt: str, several: bool) -> str:
    """The line before a dataset's table when several are printed ('' otherwise)."""
    if not several or selection.dataset is None:
        return ""
    return (f"% dataset {latex_escape(selection.dataset)}\n" if fmt == "latex" else
            f"## Dataset {markdown_cell(selection.dataset)}\n\n")
