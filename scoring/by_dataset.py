"""Which runs a table is about when none are named: one dataset's, in groups that share items.

Runs on two datasets share no item, so "every scored run" in one table can only be refused.
What a researcher means by `leaderboard` with no `--runs` is one table per dataset, each on
that dataset's items and the items its runs share there; `--dataset NAME` picks one. Within
a dataset too, runs may not share all their items (a run cancelled after 94 items beside two
runs on a 10-item sample, or halfway through the items of two finished runs): they are split
into groups (`judges.pairing.sharing_groups`: finished runs first, then those with the most
items; a run joins a group only when it has all the group's items, so none narrows the
others' n), one table per group, each saying its n. A format that holds one table (CSV, JSON) cannot carry several: for
several datasets the message names them and the flag; for several groups of one dataset it
holds the first (the most runs) and `remarks` name the runs of the others and how to print
them (the whole command, `scoring.commands.table_command`). Named runs (`--runs`) are taken
as given, within `--dataset` when both are set.
"""
from __future__ import annotations

from dataclasses import dataclass

from judges.pairing import recorded_items, sharing_groups
from judges.tables import latex_escape, markdown_cell

from scoring.commands import command
from scoring.compared import finished_newest_first, labels, summaries
from scoring.results import ResultsError

ONE_TABLE_FORMATS = ("csv", "json")
GROUP_RULE = ("a run joins a table only when it has every item the table compares, so that "
              "no run narrows the others' n")


@dataclass(frozen=True)
class Selection:
    dataset: str | None        # None: the runs as named, on all their items
    run_ids: list
    within: frozenset | None   # the dataset's items (None: no restriction)
    group: int = 1             # which of the dataset's groups of runs (1-based) ...
    groups: int = 1            # ... of how many


def _listed(by_dataset: dict[str, list]) -> str:
    return ", ".join(f"{name} ({len(runs)} run{'s' if len(runs) != 1 else ''})"
                     for name, runs in by_dataset.items())


def protocol_of(kind: str, protocol: str) -> str:
    """The protocol a kind of table reads (its runs are grouped by the items scored under
    it): the main, subtask, injection and ablation tables the one asked for, VER-Bench its
    own, the others (drop: general against the rigorous ones) the general protocol."""
    return protocol if kind in ("main", "subtask", "injection", "ablation") else \
        "verbench" if kind == "verbench" else "general"


def selections(store, run_ids: list[str] | None, dataset: str | None,
               fmt: str = "md", protocol: str = "general") -> list[Selection]:
    """The tables to print: the runs named, or one Selection per dataset and group of its
    runs scored under `protocol` (`grouped`). ResultsError for a dataset no scored run is
    on, or several datasets in a one-table format."""
    by_dataset = store.scored_runs_by_dataset()
    if dataset is not None and dataset not in by_dataset:
        known = _listed(by_dataset) or "none"
        raise ResultsError(f"no scored run is on dataset {dataset!r}; datasets with scored "
                           f"runs: {known}")
    if run_ids:
        within = store.dataset_item_ids(dataset) if dataset is not None else None
        return [Selection(dataset, list(run_ids), within)]
    if dataset is not None:
        by_dataset = {dataset: by_dataset[dataset]}
    if not by_dataset:
        raise ResultsError(no_scores_yet(store, protocol))
    if len(by_dataset) > 1 and fmt in ONE_TABLE_FORMATS:
        raise ResultsError(f"scored runs are on {len(by_dataset)} datasets: "
                           f"{_listed(by_dataset)}. A {fmt} file holds one table: choose "
                           f"one with --dataset NAME (or name runs with --runs A,B)")
    return [selection for name, runs in by_dataset.items()
            for selection in grouped(store, name, runs, protocol)]


def no_scores_yet(store, protocol: str) -> str:
    """Why there is no table at all, with the command that scores the newest run that has
    responses (a real run id: a placeholder such as ID runs nowhere), or, with no such run,
    where to start one."""
    counts = store.response_counts()
    newest = next((run["id"] for run in store.list_runs() if counts.get(run["id"])), None)
    if newest is None:
        return "no run has scores yet, nor any response: start one (python app.py run --help)"
    return (f"no run has scores yet (to score the newest: "
            f"{command('score', '--run', newest, '--protocol', protocol)})")


def grouped(store, dataset: str, run_ids: list[str], protocol: str) -> list[Selection]:
    """The dataset's runs in groups that share items (`judges.pairing.sharing_groups` on the
    items each has records for under `protocol`); runs without such scores go with the
    first group (its table leaves them out and says so where it does)."""
    within = store.dataset_item_ids(dataset)
    items = {rid: recorded_items(result["records"]) & within
             for rid, result in summaries(store, run_ids, protocol).items()}
    items = {rid: found for rid, found in items.items() if found}
    order = finished_newest_first(store, items, size=lambda rid: len(items[rid]))
    groups = sharing_groups(items, order) or [[]]
    groups[0] += [rid for rid in run_ids if rid not in items]
    return [Selection(dataset, sorted(runs), within, k, len(groups))
            for k, runs in enumerate(groups, 1)]


def heading(selection: Selection, fmt: str, several: bool) -> str:
    """The line before a table when several are printed ('' otherwise): its dataset and,
    when the dataset's runs are in several groups, which group, with the rule before the
    first."""
    if not several or selection.dataset is None:
        return ""
    title = f"dataset {selection.dataset}"
    if selection.groups > 1:
        count = len(selection.run_ids)
        title += (f", group {selection.group} of {selection.groups} "
                  f"({count} run{'s' if count != 1 else ''})")
    rule = ""
    if selection.groups > 1 and selection.group == 1:
        rule = (f"The scored runs of dataset {selection.dataset} share too few items for "
                f"one table: one table per group ({GROUP_RULE}).")
    if fmt == "latex":
        return f"% {latex_escape(title)}\n" + (f"% {latex_escape(rule)}\n" if rule else "")
    title = title[0].upper() + title[1:]
    return f"## {markdown_cell(title)}\n\n" + (f"{markdown_cell(rule)}\n\n" if rule else "")


def one_table(chosen: list[Selection], store, fmt: str, command
              ) -> tuple[list[Selection], list[str]]:
    """In a one-table format, the first group of a dataset split in several, and the
    remarks naming the runs of the others with the command that prints them (command(run
    ids, dataset): the whole command line); the selections as they are otherwise."""
    if fmt not in ONE_TABLE_FORMATS or len(chosen) < 2:
        return chosen, []
    first, others = chosen[0], chosen[1:]
    names = labels(store, [rid for s in others for rid in s.run_ids])
    remarks = [f"dataset {first.dataset}: this {fmt} holds group 1 of {first.groups} "
               f"({len(first.run_ids)} runs); the scored runs share too few items for one "
               f"table ({GROUP_RULE})."]
    for s in others:
        remarks.append(f"not in it, group {s.group}: "
                       + "; ".join(f"{names[rid]} [{rid}]" for rid in s.run_ids)
                       + f": print it with {command(s.run_ids, s.dataset)}")
    return [first], remarks


def tables_text(store, run_ids: list[str] | None, dataset: str | None, fmt: str, make,
                protocol: str = "general", *, command) -> tuple[str, list[str]]:
    """Every table of the selection (`selections`; make(selection) builds one) rendered in
    `fmt`, each after its heading, and remarks: what a one-table format leaves out
    (`one_table`, with command(run ids, dataset), the command line that prints the table
    of those runs in this format), the runs a CSV's table left out (`Table.left_out`, which
    the other formats print under the table) and each table that could not be made, with
    why. ResultsError when none could be made (with that one table's reason when there was
    one)."""
    from store import StoreError

    from scoring.tables import render

    chosen = selections(store, run_ids, dataset, fmt, protocol)
    chosen, remarks = one_table(chosen, store, fmt, command)
    texts, several = [], len(chosen) > 1
    for selection in chosen:
        try:
            table = make(selection)
            text = render(table, fmt)
        except (ResultsError, StoreError, OSError, ValueError) as error:
            if not several:
                raise ResultsError(str(error)) from None
            where = f"dataset {selection.dataset}" + (
                f", group {selection.group}" if selection.groups > 1 else "")
            remarks.append(f"{where}: {error}")
            continue
        if fmt == "csv" and table.left_out:    # a CSV holds rows only: said beside it
            remarks.append(table.left_out)
        texts.append(heading(selection, fmt, several) + text)
    if not texts:
        raise ResultsError("; ".join(remarks))
    return "\n".join(texts), remarks
