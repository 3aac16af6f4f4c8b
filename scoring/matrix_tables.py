"""Tables whose rows are solvers (or models) and whose cells are runs: clue injection
(DailyClue Table 3: columns clue source, deltas against No Clue) and the reasoning-setting
ablation (Fig. 6: No-CoT / CoT / Clue-guided CoT, Structured when a run has it; its table
in `scoring.ablation`, built from the cells here). The runs of
a table are compared on the items all of them share (as the main table compares its runs:
one rule, on the Results page, in its downloads and on the command line; rows on items of
their own made a CoT change's sign differ between the page and `table --kind injection`);
each cell names its run and its n. A row's cells share samples and repeats (a single draw is
never set beside a 3-sample majority vote), and of several runs that fit one cell the one
shown is chosen by the rule the notes state (`scoring.cell_runs`).
"""
from __future__ import annotations

from domain.vocabulary import counted
from judges.cells import delta_notes
from judges.paper_tables import clue_injection_table, unrankable
from judges.tables import Table

from scoring.commands import table_command
from scoring.count_notes import preset_notes
from scoring.cell_runs import one_run_per_cell, own_rows
from scoring.compared import UNFINISHED, VERBENCH_NO_ACCURACY, clue_source, \
    grouped, labels, left_out_note, on_scored_by_all, on_shared, run_state, \
    source_titles, summaries, unfinished_note
from scoring.extraction import CLUELAB
from scoring.results import ResultsError
from scoring import source_clues
from scoring.panel_members import panel_note, result_judge
from scoring.solver_rows import solver_rows
from scoring.table_marks import copies, copies_note, on_page_items, with_judges


def cells_by_solver(store, found: dict, solver_of, column_of, what: str, show_command,
                    split: bool = False):
    """{(solver, column): accuracy %}, {solver: n}, {(solver, column): the cell's run (id,
    name, n, judge and its result on the shared items)}, notes and the `Shared` items: every
    run of `found`, a cell's or not, compared on the items all of them share (a run no cell
    shows cut the page's items, whose main table has it, and not `table`'s). solver_of(config) names a run's row, column_of(config)
    its column; of several runs in one cell one is shown by the rule the notes state, the
    notes naming the others and the command that shows another
    (`scoring.cell_runs.one_run_per_cell`, show_command(run ids):
    `scoring.commands.table_command` of this table). `split`: each other run of a cell
    has a row of its own, labelled by its run (`scoring.cell_runs.own_rows`), none left out."""
    configs = {rid: store.get_run(rid)["config"] for rid in found}
    # every run of the table, in a cell or not, limits the items (as the main table's rows
    # do): the page, its downloads and `table` compare on one set of items, said with its n
    found, shared = on_shared(found, labels(store, list(found)))
    cells_runs: dict[tuple, list] = {}
    for rid, config in configs.items():
        cells_runs.setdefault((solver_of(config), column_of(config)), []).append(rid)
    scored = {rid: result["summary"]["overall"].n for rid, result in found.items()}
    describe = lambda key: f"{key[0]} with {what} {key[1]}"     # noqa: E731
    if split:       # every run in a row, the rows' labels unique (`own_rows`)
        left_out, (rows, cell_note) = set(), own_rows(store, cells_runs, scored, describe)
    else:           # a row per solver_of, one run per cell (`one_run_per_cell`)
        rows = {rid: solver_of(config) for rid, config in configs.items()}
        left_out, cell_note = one_run_per_cell(store, cells_runs, scored, describe,
                                               show_command)
    found = {rid: result for rid, result in found.items() if rid not in left_out}
    names = labels(store, list(found))
    responses = store.response_counts()
    cells, n, runs_of = {}, {}, {}
    notes = [items_rule(shared)]
    notes += [cell_note] if cell_note else []
    for solver, runs in grouped(found, rows.get).items():
        n[solver] = shared.n
        for rid, result in runs.items():
            overall = result["summary"]["overall"]
            cell = (solver, column_of(configs[rid]))
            runs_of[cell] = {"run_id": rid, "run_name": (store.get_run(rid).get("name") or
                                                          "").strip(),
                             "run_label": names[rid],       # as the tables show it
                             "run_status": run_state(store.get_run(rid)), "n": overall.n,
                             **cached_replies(store, rid, responses.get(rid, 0), names),
                             "judge": result["judge"], "result": result}
            # a run with nothing scored keeps its cell ("–"): a clue-injection run whose
            # every item had no source clue vanished with its column, its ‡ and footnote
            cells[cell] = None if overall.accuracy is None else overall.accuracy * 100
    return cells, n, runs_of, " ".join(notes), shared


def cached_replies(store, run_id: str, responses: int, names: dict) -> dict:
    """A cell's run's replies taken from the cache (another run's draws, not its own):
    {"cached": how many (CSV/JSON `<column>_from_cache`), "from_cache": which runs made them
    when that is every reply (`runner.provenance.sources_text`; '' otherwise: its row label
    says "from the cache"), "cache_line": `runner.provenance.cache_line` when only some were
    (per repeat and sample, what `report` says)}. A cell counted only when all of its replies
    were cached said `No Clue_from_cache = False` of a run with 28 of its 42 from another's."""
    from runner.provenance import cache_line, sources_text
    from scoring.compared import namer

    found = store.run_cache_sources(run_id)
    cached = sum(found.values())
    every = bool(responses) and cached >= responses
    return {"cached": cached, "from_cache": sources_text(store, found,
                                                         name=namer(store, names))
            if every else "",
            "cache_line": cache_line(store, store.get_run(run_id), namer(store, names))
            if cached and not every else ""}


ITEMS_WHERE = "in the Items column"   # where the notes say each row's items are counted
                                      # (the injection heatmap says it its own way)


def items_rule(shared) -> str:
    """The rule and n of a table whose cells are runs, as its notes say it (`Shared.note`:
    the n, and the run that limits it, whether a cell shows it or not)."""
    return ("One rule on the Results page, in its downloads and with `table`: every run of "
            "the table, those no cell shows included, is compared on the items all of them "
            f"share, and every row is on those items (counted {ITEMS_WHERE}). " + shared.note())


def shown_runs(runs_of: dict) -> list[str]:
    """The runs a table's cells show (of several for one cell, only the one shown)."""
    return [cell["run_id"] for cell in runs_of.values()]


def with_cell_runs(store, table: Table, runs_of: dict, key: str, columns: dict[str, str]
                   ) -> Table:
    """Each cell's run (CSV/JSON `<column>_run_id`, `_run_name`, `_run_status`), the scored items
    its accuracy is over (`<column>_n`, in the title or the cell) and each row's judges.
    columns: {column key: the column value `runs_of` is keyed by}."""
    judges, shown, notes = [], [], {}
    copied = copies(store, shown_runs(runs_of))     # another cell's draws: never best
    for row in table.rows:
        found = [runs_of.get((row[key], value)) for value in columns.values()]
        for (column, _), cell in zip(columns.items(), found):
            row[f"{column}_n"] = cell["n"] if cell else None
            row[f"{column}_run_id"] = cell["run_id"] if cell else None
            row[f"{column}_run_name"] = cell["run_name"] if cell else None
            row[f"{column}_run_label"] = cell["run_label"] if cell else None
            row[f"{column}_run_status"] = cell["run_status"] if cell else None
            row[f"{column}_from_cache"] = cell["cached"] if cell else None   # a count
            row[f"_{column}_all_cached"] = bool(cell and cell["from_cache"])
            if cell and (cell["run_status"] == "failed" or cell["run_id"] in copied
                         or unrankable(cell["result"]["summary"]["overall"])):
                row.setdefault("_unranked_cells", set()).add(column)    # never best
        judges.append(", ".join(sorted({c["judge"] for c in found if c})))
        shown.append(", ".join(sorted({result_judge(c["result"]) for c in found if c})))
        notes.update({c["run_id"]: panel_note(c["run_label"], c["judge"],
                                              c["result"].get("panel")) for c in found if c})
    cached = {c["run_id"]: f"{c['run_label']}: all its {c['from_cache']}"
              if c["from_cache"] else f"{c['run_label']}: {c['cache_line']}"
              for c in runs_of.values() if c["cached"]}
    table.exported += [f"{c}_run_{part}" for c in columns
                       for part in ("id", "name", "label", "status")]
    table.exported += [f"{c}_from_cache" for c in columns]
    with_judges(table, judges, shown, notes=" ".join(n for n in notes.values() if n))
    if cached:
        table.notes = f"{table.notes} From the cache: {'; '.join(cached.values())}.".strip()
    names = {c["run_id"]: c["run_label"] for c in runs_of.values()}
    table.notes = " ".join(p for p in (table.notes, copies_note(copied, names),
                                       named_cells(table, runs_of, key, columns)) if p)
    return table


def named_cells(table: Table, runs_of: dict, key: str, columns: dict[str, str]) -> str:
    """The note naming the cells a named run fills, by its name as the main table calls
    it ('Cells of named runs: nocot in vlm-a · No-CoT, No Clue; …'), '' when no cell's run
    has a name: a row is labelled by model and setting, so run "nocot" read as 'vlm-a ·
    No-CoT' here and as "nocot" in the main table, with nothing to tie the two."""
    said = [f"{cell['run_label']} in {row[key]}, {value}" for row in table.rows
            for value in columns.values()
            if (cell := runs_of.get((row[key], value))) and cell["run_name"]]
    return f"Cells of named runs: {'; '.join(said)}." if said else ""


NO_INJECTION = "none of the runs has injected clues (clue source other than No Clue)"


def injection_table(store, run_ids: list[str], samples_rule: str = "majority",
                    extraction: str = CLUELAB, judge: str | None = None,
                    items=None, items_are: str = "of the chosen dataset",
                    protocol: str = "general") -> Table:
    """Cells: accuracy (%) under `protocol` (general unless asked) of each solver (model, setting, image mode and the
    rest of how its runs drew their replies: `scoring.solver_rows`) under each clue
    source, every row on the items all the runs share (each run read with `judge`, else the
    judge they all share: `summaries`; and `samples_rule` and `extraction`): the items the
    main table of the same runs compares, so one run shows one accuracy on the page.
    `items`: compare only within these (a dataset's).
    ResultsError when no run has injected clues (there is nothing to compare)."""
    if protocol == "verbench":
        raise ResultsError(VERBENCH_NO_ACCURACY)
    found = summaries(store, run_ids, protocol, judge, samples_rule, extraction)
    if found and all(store.get_run(rid)["config"].get("clues", "none") == "none"
                     for rid in found):
        raise ResultsError(NO_INJECTION)
    found = on_page_items(found, items)
    configs = [store.get_run(rid)["config"] for rid in found]
    titles = source_titles(store, configs)
    # a row's runs drew their replies alike (sampling, images): its No Clue is like them
    cells, n, runs_of, notes, shared = cells_by_solver(
        store, found, solver_rows(configs), lambda c: clue_source(c, titles), "clue source",
        lambda ids: table_command("injection", ids, protocol=protocol, judge=judge),
        split=True)
    order = sorted(cells, key=lambda cell: (cell[0], cell[1] != "GT", cell[1] != "Self",
                                            cell[1]))
    table = clue_injection_table({cell: cells[cell] for cell in order}, n=n,
                                 deltas=_paired_deltas(runs_of),
                                 caption=f"Clue injection: accuracy (%), {protocol} protocol, "
                                         f"and change against No Clue, {shared.caption()}")
    table.protocol, table.samples_rule = protocol, samples_rule
    items_column(table)
    columns = {c.key: c.key for c in table.columns if c.numeric and c.key != "items"}
    with_cell_runs(store, table, runs_of, "solver", columns)
    source_clues.mark_table(store, table, runs_of, "solver", columns)
    for row in table.rows:       # a change's n is said where a cell's differs from it
        row["_baseline_n"] = row.get(f"{BASELINE}_n")
    within = f"Only the {counted(len(items), 'item')} {items_are} are used." if items is not None else ""
    presets = preset_notes(found, labels(store, list(found)))
    where = delta_notes(table.rows, "solver", {c: c for c in columns if c != BASELINE},
                        max((c.digits for c in table.columns if c.numeric), default=2))
    table.notes = " ".join(p for p in (within, ROW_RULE, DELTA_RULE, where,
                                       notes, unfinished_note(store, shown_runs(runs_of)),
                                       table.notes, *presets)
                           if p)
    table.left_out = left_out_note(store, run_ids, found, protocol, judge)
    return unfinished_cells(table, "solver", columns)


def unfinished_cells(table: Table, key: str, columns: dict) -> Table:
    """Each row's label names its cells whose run did not finish (or failed), with the
    cell's n: 'm · CoT (No Clue: cancelled, n 2)': a row labelled by model and setting
    alone read as a finished run's (`with_cell_runs` set each cell's status and n); and
    those whose run took every reply from the cache, 'm · CoT (GT: from the cache)': its
    accuracy is another run's draws, not a draw of its own."""
    titles = {c.key: c.title for c in table.columns}
    for row in table.rows:
        said = [f"{titles.get(column, column)}: {row[f'{column}_run_status']}, n "
                f"{row.get(f'{column}_n')}" for column in columns
                if row.get(f"{column}_run_status") in UNFINISHED]
        said += [f"{titles.get(column, column)}: from the cache" for column in columns
                 if row.get(f"{column}_from_cache") and row.get(f"_{column}_all_cached")]
        if said:
            row[key] = f"{row[key]} ({'; '.join(said)})"
    return table


BASELINE = "No Clue"
DELTA_RULE = ("A change against No Clue is computed on the items both runs scored; a cell "
              "shows the change alone, and when those items are not all the items of both "
              "cells (either left some unscored), the notes say on which, with No Clue's own "
              "accuracy there (\"+0.00 vs 62.50 without clue, on these 8 items\": the cell's "
              "n, No Clue scored more; \"vs 60.00 without clue, on the 13 items both runs "
              "scored\": the cell's run and its No Clue run).")


def _paired_deltas(runs_of: dict) -> dict:
    """{(solver, source): (change against the solver's No Clue in points, n, No Clue's
    accuracy on those n items in %)}: each on the
    items both runs scored (`on_scored_by_all`), so that the change subtracts two
    accuracies on one set of items."""
    deltas = {}
    for (solver, source), cell in runs_of.items():
        base = runs_of.get((solver, BASELINE))
        if source == BASELINE or base is None:
            continue
        paired, n = on_scored_by_all({"base": base["result"], "cell": cell["result"]})
        accs = [paired[k]["summary"]["overall"].accuracy for k in ("base", "cell")]
        if None not in accs:
            deltas[(solver, source)] = ((accs[1] - accs[0]) * 100, n, accs[0] * 100)
    return deltas


ROW_RULE = ("A cell's accuracy is over its run's scored items (n); of the items its row "
            "compares (counted " + ITEMS_WHERE + "), those not in n are unscored.")


def items_column(table: Table) -> None:
    """The row's shared items as the column "items" (the n of a cell is its scored items)."""
    for column in table.columns:
        if column.key == "n":
            column.key, column.title = "items", "Items"
    for row in table.rows:
        row["items"] = row.pop("n", None)
