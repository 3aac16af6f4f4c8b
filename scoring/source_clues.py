"""Injected clues the source run did not have: an injection table says so.

A run that injects another run's clues (clues=run:ID) asks nothing of an item the source run
failed on (or whose reply there listed no clue); the row is kept with a reason saying so
(`store.runner_work.NO_SOURCE_CLUE`). Such an item is the source run's failure, not this
run's: it is unscored (`scoring.offline.rule_verdict`), never counted as its error, and the
injection table marks the cell, names the run, the source and the count in a footnote, and
exports `<column>_no_source_clue` (the compared items left unasked so).
"""
from __future__ import annotations

import re

from scoring.compared import plain_name, source_labels, title
from runner.source_names import named_reason as runner_named_reason
from store.runner_work import NO_SOURCE_CLUE

MARK = "‡"


def missing_items(store, run_id: str, result: dict) -> int:
    """The items of `result` (a run's summary, as compared) its clue source had no clue for."""
    items = {r["item_id"] for r in result.get("records") or []}
    return len(items & set(store.no_source_clue_items(run_id)))


def note(store, cells: dict[str, int]) -> str:
    """The footnote ({run_id: items}), '' when every source had its clues."""
    found = {rid: n for rid, n in cells.items() if n}
    if not found:
        return ""
    parts = []
    for rid, n in found.items():
        source = store.get_run(rid)["config"].get("clues", "")[4:]
        # as "clues of …" names it (with its id when another run has its label); a deleted
        # source run by its id
        source = source_labels(store.list_runs()).get(source, source)
        parts.append(f"{plain_name(store, rid, rid)}: {n} item{'s' if n != 1 else ''} its "
                     f"source run {source} has no clue for")
    return (f"{MARK} No source clue: {'; '.join(parts)} (that run's reply failed or listed "
            f"none there), so they were not asked: unscored, out of the cell's n, and not "
            f"counted as errors of the run.")


def mark_table(store, table, runs_of: dict, key: str, columns: dict[str, str]) -> None:
    """Mark the cells whose run left compared items unasked for want of a source clue,
    add the footnote and the CSV/JSON column `<column>_no_source_clue` (`with_cell_runs`'
    arguments)."""
    counts = {}
    for row in table.rows:
        for column, value in columns.items():
            cell = runs_of.get((row[key], value))
            n = missing_items(store, cell["run_id"], cell["result"]) if cell else 0
            row[f"{column}_no_source_clue"] = n if cell else None
            if n:
                counts[cell["run_id"]] = n
                # a cell left empty by it ("–": nothing scored) is marked too, as why it is
                # empty (`Table._cell`): a run whose source had no clue at all showed no column
                flags = row.setdefault("_flags" if row.get(column) is not None
                                       else "_why_empty", {})
                flags[column] = flags.get(column, "") + MARK
    table.exported += [f"{column}_no_source_clue" for column in columns]
    text = note(store, counts)
    if text:
        table.notes = f"{table.notes} {text}".strip()
        table.footnotes.append(text)


def source_title(store, run_id: str) -> str:
    """A clue source run in a sentence: "run a-guided" (its name, else its table label, as
    `scoring.compared.title` names runs), "run 20261207-134531-eaf1 (deleted)" when gone."""
    named = title(store, run_id)
    return named if named.startswith(f"run {run_id}") else f"run {named}"


def named_reason(store, reason: str | None) -> str | None:
    """A row's reason with the clue source run named as the tables name it ("no clues from
    run a-guided for this item (...)"; runner.source_names, with the tables' `title`)."""
    return runner_named_reason(store, reason, source_title)


def named_in(store, text: str) -> str:
    """`text` (a note of `score`) with every clue source run it names by id ("no clues from
    run 20261208-005015-8998") named as the tables and Inspect name it ("no clues from run
    deadline2"): `score` named by id the run every table called by its label."""
    def name(match: re.Match) -> str:
        return "no clues from " + source_title(store, match.group(1))

    return re.sub(r"no clues from run (\d{8}-\d{6}-[0-9a-f]+)", name, text) \
        if NO_SOURCE_CLUE in text else text
