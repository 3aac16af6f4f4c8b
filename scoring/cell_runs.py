"""Which run a cell of the injection or ablation table shows when several fit it.

A cell is one row (a solver, or a model with its samples and repeats) under one column (a
clue source, or a setting); two runs of one model and setting fall in one cell. The cell
shows one of them by a rule the notes state, with each candidate's n, so a reader sees why
that one: a finished run before one that stopped, then the one with the most scored items of
the table's items (n), then the one that sent its own requests over one whose replies came
from the cache (another run's draws), then the newest. "The newest finished" alone filled a
CoT cell with a run answered wholly from the cache, a copy of another run's first repeat, on
13 items where the run it copied had 14: 23.08 where `--runs` showed 21.43.
"""
from __future__ import annotations

from scoring.compared import labels, run_state
from store.run_labels import short_ids

CELL_RULE = ("Several runs fit one cell; it shows, in this order, a finished run before one "
             "that did not finish, then the one with the most scored items (n), then the one "
             "with the fewest replies taken from the cache (another run's draws, not its "
             "own), then the newest.")
CELL_REMEDY = "To show another, leave the one shown out"


def cached_replies(store, run_id: str) -> int:
    """The run's results taken from the cache (both phases): draws another run made."""
    return sum(store.run_cache_sources(run_id).values())


def cell_order(store, run_ids, scored: dict[str, int], cached: dict[str, int]) -> list[str]:
    """The runs of one cell, the one shown first (`CELL_RULE`), whatever the order they came
    in. scored: {run id: its scored items on the table's items}; cached: {run id: replies
    it took from the cache}."""
    runs = {rid: store.get_run(rid) for rid in dict.fromkeys(run_ids)}
    newest = sorted(runs, key=lambda rid: (runs[rid]["created_at"], rid), reverse=True)
    return sorted(newest, key=lambda rid: (run_state(runs[rid]) != "done", -scored[rid],
                                           cached[rid]))


def _facts(rid: str, scored: dict, cached: dict) -> str:
    """'n 13', or 'n 13; 13 replies from the cache': what the rule decided on."""
    count = cached[rid]
    return f"n {scored[rid]}" + (f"; {count} repl{'y' if count == 1 else 'ies'} from the "
                                 "cache" if count else "")


OWN_ROWS = ("Several runs fit one cell; the row keeps one, chosen by the same rule (a "
            "finished run first, then the most scored items, then the fewest replies from the "
            "cache, then the newest), and each other run has a row of its own, labelled by its "
            "run as the main table labels it: no run is hidden and no two rows share a label "
            "(a label two rows would share adds, in brackets, the run that sets each apart).")


def own_rows(store, cells: dict, scored: dict[str, int], describe) -> tuple[dict, str]:
    """The clue-injection table's answer to several runs in one cell: ({run id: its row's
    label} of every run of `cells`, the note naming the runs each crowded cell keeps and
    moves, '' when no cell had several). A cell's row is its solver (cells: {(solver,
    column): run ids}); a run a crowded cell does not keep has a row of its own, labelled by
    its run (`labels`). Row labels are unique (`unique_rows`): an unnamed run's own label
    'vlm-a · CoT' was the label of the row keeping the named run 'a-cot', the two rows were
    one and 'a-cot' was in none."""
    names = labels(store, [rid for runs in cells.values() for rid in runs])
    crowded = [rid for runs in cells.values() if len(runs) > 1 for rid in runs]
    cached = {rid: cached_replies(store, rid) for rid in crowded}
    rows: dict[tuple, list] = {}          # ("solver", label) or ("run", run id): its runs
    kept_of: dict[tuple, list] = {}       # a solver's row: the runs its crowded cells keep
    decided = []
    for key in sorted(cells, key=str):
        row = ("solver", key[0])
        if len(cells[key]) < 2:
            rows.setdefault(row, []).extend(cells[key])
            continue
        kept, *others = cell_order(store, cells[key], scored, cached)
        rows.setdefault(row, []).append(kept)
        kept_of.setdefault(row, []).append(kept)
        rows.update({("run", rid): [rid] for rid in others})
        decided.append((key, kept, others))
    titles = unique_rows({row: row[1] if row[0] == "solver" else names[row[1]]
                          for row in rows}, rows, kept_of, names,
                         [run["id"] for run in store.list_runs()])
    row_of = {rid: titles[row] for row, runs in rows.items() for rid in runs}
    said = [f"{describe(key)} keeps {names[kept]} ({_facts(kept, scored, cached)}); "
            + ", ".join(f"{names[rid]} ({_facts(rid, scored, cached)})"
                        for rid in sorted(others, key=lambda r: names[r]))
            + " in a row of its own (rows: "
            + "; ".join(f"'{row_of[rid]}'" for rid in
                        [kept, *sorted(others, key=lambda r: names[r])])
            + ")." for key, kept, others in decided]
    return row_of, " ".join([OWN_ROWS, *said]) if said else ""


def unique_rows(base: dict, rows: dict, kept_of: dict, names: dict[str, str],
                every: list[str] = ()) -> dict:
    """{row key: a label no other row has}. base: {row key: its label}; rows: {row key: its
    run ids} (no run in two rows); kept_of: {row key: the runs that set it apart}, else its
    runs do. A label two rows share adds, as `labels` does to run labels, the runs that set
    each apart in brackets: their labels, or their short ids (`store.run_labels.short_ids`,
    among `every` stored run id) where a label is the row's own."""
    def tagged(row, runs) -> str:
        tags = sorted(ids[rid] if names[rid] == base[row] or
                      names[rid].startswith(f"{base[row]} [") else names[rid] for rid in runs)
        return f"{base[row]} [{', '.join(tags)}]"

    def clashing(found: dict) -> set:
        counts: dict[str, int] = {}
        for label in found.values():
            counts[label] = counts.get(label, 0) + 1
        return {row for row, label in found.items() if counts[label] > 1}

    ids = short_ids([rid for runs in rows.values() for rid in runs] + every)
    found = dict(base)
    # a row whose crowded cell moved a run out names the run it kept, as the moved run's row
    # and the main table name theirs: 'vlm-a · CoT' beside 'vlm-a · CoT [<id>]' left the
    # reader to guess which run the plain one was (a review, round 19)
    for row in set(kept_of) | clashing(found):
        found[row] = tagged(row, kept_of.get(row) or rows[row])
    for row in clashing(found):              # still shared: every run's id (none in two rows)
        found[row] = f"{base[row]} [{', '.join(sorted(ids[rid] for rid in rows[row]))}]"
    return found


def one_run_per_cell(store, cells: dict, scored: dict[str, int], describe, show_command
                     ) -> tuple[set, str]:
    """A table cell shows one run (`cell_order`). Returns (the runs not shown, a note stating
    the rule and, for each cell several runs fit, the run shown and the others with what the
    rule decided on, and how to show another: the whole command that prints the table
    without the runs shown in those cells, `show_command(run ids)`; '' when no cell had
    several). cells: {cell key: run ids}; scored: {run id: its scored items on the table's
    items}; describe(cell key) says what the cell is."""
    names = labels(store, [rid for runs in cells.values() for rid in runs])
    crowded_runs = [rid for runs in cells.values() if len(runs) > 1 for rid in runs]
    cached = {rid: cached_replies(store, rid) for rid in crowded_runs}
    left_out, said, crowded = set(), [], set()
    for key in sorted(cells, key=str):
        if len(cells[key]) < 2:
            continue
        shown, *others = cell_order(store, cells[key], scored, cached)
        left_out.update(others)
        crowded.add(shown)
        said.append(f"{describe(key)} shows {names[shown]} ({_facts(shown, scored, cached)}), "
                    "not " + ", ".join(f"{names[rid]} ({_facts(rid, scored, cached)})"
                                      for rid in sorted(others, key=lambda r: names[r]))
                    + ".")
    if not said:
        return left_out, ""
    rest = sorted(rid for runs in cells.values() for rid in runs if rid not in crowded)
    return left_out, " ".join([CELL_RULE, *said, f"{CELL_REMEDY} ({show_command(rest)})."])
