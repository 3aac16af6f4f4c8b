"""Result tables across runs, as the papers print them (renderings in `judges.tables`).

- main: one row per run, overall and per domain (or subtask), with unparsed and error rates
  shown beside the accuracy (DailyClue Table 2);
- drop: general vs rigorous accuracy and the drop (DailyClue Fig. 7), grounded beside it;
- clue injection: rows solver model, columns clue source, deltas against No Clue (Table 3);
- ablation: No-CoT / CoT / clue-guided per model (Fig. 6), Structured when a run has it;
- VER-Bench: AC, CC, RQ, ER and the average (VER-Bench Table 1);
- leaderboard: every scored run, best overall first.
A human baseline (`scoring.human`) is an extra, unranked row. The main table follows the
chosen reading of each run: judge, samples rule and answer extraction (`scoring.results`).
Runs are labelled by their name, else by model and setting; a clash of labels adds the run
id, a run that did not finish says so ("(cancelled)") and the notes name it. A row that is a
run carries its `run_id` and `run_name` too (the CSV and JSON columns).

Every table compares its runs on the items they share (`scoring.compared`): the main table,
leaderboard, drop and VER-Bench tables on the items all their runs share, the injection and
ablation tables per row (one solver's or model's runs; the notes say when rows differ in n,
and on the Results page the injection rows are within the main table's items). The n is in
the table and its notes; runs that share no item are refused; runs a table leaves out are
named with the reason; the output does not depend on the order of the runs.
"""
from __future__ import annotations

from judges.stats import CI_RULE, COUNTING_RULES
from judges.tables import Column, Table, clue_injection_table, leaderboard, results_table
from judges.tables import rigorous_drop_table, verbench_table

from scoring.compared import SETTING_TITLES, check_one_per_cell, clue_source, grouped, \
    labels, on_shared, run_names, solver_label, summaries, unfinished_note
from scoring.extraction import CLUELAB, describe
from scoring.results import GROUPS, ResultsError, on_items

GROUP_CHOICES = GROUPS          # what a table can break down by: the groups every record has


def _rates(table: Table, summaries_by_label: dict[str, dict]) -> Table:
    table.columns += [Column("unparsed_rate", "Unparsed %", rank=False),
                      Column("error_rate", "Error %", rank=False),
                      Column("unscored", "Unscored", digits=0, rank=False)]
    for row in table.rows:
        overall = summaries_by_label[row["model"]]["overall"]
        row["unparsed_rate"] = overall.unparsed_rate * 100 if overall.n else None
        row["error_rate"] = overall.error_rate * 100 if overall.n else None
        row["unscored"] = overall.unscored
    table.notes = COUNTING_RULES + (" " + CI_RULE if table.show_ci else "")
    return table


def with_run_ids(store, table: Table, names: dict[str, str]) -> Table:
    """Each row that is a run gets its `run_id`, `run_name` (names: {run_id: label}) and
    `endpoint_model` (the model id its endpoint asked for: the exports' `model`), and the
    notes name the runs that did not finish."""
    by_label = {label: rid for rid, label in names.items()}
    given = run_names(store, names)
    for row in table.rows:
        rid = by_label.get(row.get("model"))
        if rid is not None:
            row["run_id"], row["run_name"] = rid, given[rid]
            row["endpoint_model"] = store.get_run(rid)["config"]["endpoint"].get("model")
    table.notes = " ".join(p for p in (table.notes, unfinished_note(store, names)) if p)
    return table


JUDGES_DIFFER = ("Rows use different judges (Judge column): their numbers were not read the "
                 "same way; read them all with one judge (--judge, or Judge on the Results "
                 "page) to compare them.")


def with_judges(table: Table, judges: list[str]) -> Table:
    """A Judge column (judges: one text per row, in row order) and, when rows differ in it,
    a note saying so: a table never mixes judges without saying which row used which."""
    table.columns.append(Column("judge", "Judge", numeric=False))
    for row, judge in zip(table.rows, judges):
        row["judge"] = judge
    if len({j for j in judges if j}) > 1:
        table.notes = " ".join(p for p in (table.notes, JUDGES_DIFFER) if p)
    return table


def compared_results(store, run_ids: list[str], protocol: str = "general",
                     judge: str | None = None, samples_rule: str = "majority",
                     extraction: str = CLUELAB, within=None):
    """(results on the shared items {run_id: run_summary}, {run_id: label}, Shared) of the
    runs scored under `protocol`; ResultsError when none is, or they share no item.
    `within`: only these items count (one dataset's, say)."""
    found = summaries(store, run_ids, protocol, judge, samples_rule, extraction)
    if not found:
        by = f" by judge {judge}" if judge else ""
        raise ResultsError(f"none of the runs has {protocol} scores{by}: score them first")
    names = labels(store, list(found))
    found, shared = on_shared(_on_page_items(found, within), names)
    return found, names, shared


def group_key(by: str) -> str:
    """"domain" -> "by_domain" (ResultsError for a group items do not have)."""
    name = by.removeprefix("by_")
    if name not in GROUP_CHOICES:
        raise ResultsError(f"break down by {', '.join(GROUP_CHOICES)}, not {by!r}")
    return f"by_{name}"


def main_table(store, run_ids: list[str], group: str = "by_domain", protocol: str = "general",
               judge: str | None = None, samples_rule: str = "majority", human=None,
               show_ci: bool = True, sort: bool = False, extraction: str = CLUELAB,
               compared=None, within=None) -> Table:
    """One row per run, Overall and one column per value of `group` (domain, subtask or
    reasoning type), on the items the runs share (and `within`, when given). `compared`: a
    `compared_results` answer already computed for these runs and reading."""
    group = group_key(group)
    found, names, shared = compared or compared_results(store, run_ids, protocol, judge,
                                                        samples_rule, extraction, within)
    by_label = {names[rid]: s["summary"] for rid, s in found.items()}
    if human:
        by_label[human["label"]] = human["summary"]
    maker = leaderboard if sort else results_table
    table = maker(by_label, group=group, show_ci=show_ci,
                  unranked=[human["label"]] if human else (),
                  caption=f"Accuracy (%), {protocol} protocol, {shared.n} items")
    table = _rates(table, by_label)
    if extraction != CLUELAB:
        table.caption += ", answers read by MMR-Life's regex"
    table.notes += " " + shared.note()
    if human:
        table.notes += " The human baseline is on the items its participants answered (n)."
    table.notes += " " + describe(extraction, None)
    judge_of = {names[rid]: s["judge"] for rid, s in found.items()}
    with_judges(table, [judge_of.get(row["model"], "") for row in table.rows])
    return with_run_ids(store, table, names)


def drop_table(store, run_ids: list[str], within=None) -> Table:
    """General, rigorous and grounded-rigorous accuracy per run, every number on the items
    scored under each of them in every run (and `within`, when given)."""
    found = {(rid, protocol): result for protocol in ("general", "rigorous", "grounded")
             for rid, result in _on_page_items(summaries(store, run_ids, protocol),
                                               within).items()}
    names = labels(store, [rid for rid, _ in found])
    found, shared = on_shared(found, {key: f"{names[key[0]]} ({key[1]})" for key in found},
                              "runs and protocols")

    def overall(rid, protocol):
        result = found.get((rid, protocol))
        return result["summary"]["overall"] if result else None

    general = [rid for rid in names if (rid, "general") in found]
    table = rigorous_drop_table({names[r]: overall(r, "general") for r in general},
                                {names[r]: overall(r, "rigorous") for r in general},
                                caption=f"General vs rigorous accuracy (%), {shared.n} items")
    table.columns.append(Column("grounded", "Grounded-rigorous"))
    for rid, row in zip(general, table.rows):
        acc = overall(rid, "grounded")
        row["grounded"] = acc.accuracy * 100 if acc and acc.accuracy is not None else None
        row["n"] = overall(rid, "general").n
    table.columns.append(Column("n", "n", digits=0, rank=False))
    table.notes = shared.note()
    with_judges(table, [_protocol_judges({p: found[(rid, p)]["judge"] for p in
                                          ("general", "rigorous", "grounded")
                                          if (rid, p) in found}) for rid in general])
    return with_run_ids(store, table, {rid: names[rid] for rid in general})


def _protocol_judges(judges: dict[str, str]) -> str:
    """One row's judges: 'offline' when every protocol used it, else 'general offline,
    rigorous llm:x'."""
    if len(set(judges.values())) == 1:
        return next(iter(judges.values()))
    return ", ".join(f"{protocol} {judge}" for protocol, judge in judges.items())


def _cells_by_solver(store, found: dict, solver_of, column_of, what: str):
    """{(solver, column): accuracy %}, {solver: n} and notes: each solver's runs compared on
    the items they share. solver_of(config) names a run's row, column_of(config) its
    column; two runs in one cell are refused. When rows were computed on different numbers
    of items, the notes say so (compare cells within a row)."""
    configs = {rid: store.get_run(rid)["config"] for rid in found}
    names = labels(store, list(found))
    cells_runs: dict[tuple, list] = {}
    for rid, config in configs.items():
        cells_runs.setdefault((solver_of(config), column_of(config)), []).append(names[rid])
    check_one_per_cell(cells_runs, lambda key: f"{key[0]} with {what} {key[1]}")
    given = run_names(store, found)
    cells, n, runs_of, notes = {}, {}, {}, []
    for solver, runs in grouped(found, lambda rid: solver_of(configs[rid])).items():
        runs, shared = on_shared(runs, {rid: names[rid] for rid in runs})
        n[solver] = shared.n
        if shared.partial:
            notes.append(f"{solver}: {shared.note()}")
        for rid, result in runs.items():
            overall = result["summary"]["overall"]
            cell = (solver, column_of(configs[rid]))
            runs_of[cell] = {"run_id": rid, "run_name": given[rid], "n": overall.n,
                             "judge": result["judge"]}
            if overall.accuracy is not None:
                cells[cell] = overall.accuracy * 100
    if len(set(n.values())) > 1:
        notes.append("Rows are on different items (see items): compare the cells of a row, "
                     "not a column.")
    return cells, n, runs_of, " ".join(notes)


def _with_cell_runs(table: Table, runs_of: dict, key: str, columns: dict[str, str]) -> Table:
    """Each cell's run (CSV/JSON `<column>_run_id`, `<column>_run_name`), the scored items
    its accuracy is over (`<column>_n`, in the title or the cell) and each row's judges.
    columns: {column key: the column value `runs_of` is keyed by}."""
    judges = []
    for row in table.rows:
        found = [runs_of.get((row[key], value)) for value in columns.values()]
        for (column, _), cell in zip(columns.items(), found):
            row[f"{column}_n"] = cell["n"] if cell else None
            row[f"{column}_run_id"] = cell["run_id"] if cell else None
            row[f"{column}_run_name"] = cell["run_name"] if cell else None
        judges.append(", ".join(sorted({c["judge"] for c in found if c})))
    table.exported += [f"{c}_run_{part}" for c in columns for part in ("id", "name")]
    return with_judges(table, judges)


NO_INJECTION = "none of the runs has injected clues (clue source other than No Clue)"


def _on_page_items(found: dict, items) -> dict:
    """Each result restricted to `items` (the items the page's main table compares)."""
    if items is None:
        return found
    return {rid: on_items(result, frozenset(items)) for rid, result in found.items()}


def injection_table(store, run_ids: list[str], samples_rule: str = "majority",
                    extraction: str = CLUELAB, judge: str | None = None,
                    items=None, items_are: str = "the main table compares") -> Table:
    """Cells: general accuracy (%) of each solver (model, setting, image mode) under each clue
    source, every row on the items its runs share (each run read with its latest scoring,
    or `judge`, `samples_rule` and `extraction`). `items`: compare only within these (the
    items a page's main table is on, so that one run shows one accuracy on the page).
    ResultsError when no run has injected clues (there is nothing to compare)."""
    found = summaries(store, run_ids, "general", judge, samples_rule, extraction)
    if found and all(store.get_run(rid)["config"].get("clues", "none") == "none"
                     for rid in found):
        raise ResultsError(NO_INJECTION)
    found = _on_page_items(found, items)
    cells, n, runs_of, notes = _cells_by_solver(store, found, solver_label,
                                                lambda c: clue_source(store, c), "clue source")
    order = sorted(cells, key=lambda cell: (cell[0], cell[1] != "GT", cell[1] != "Self",
                                            cell[1]))
    table = clue_injection_table({cell: cells[cell] for cell in order}, n=n,
                                 caption="Clue injection: accuracy (%) and change against "
                                         "No Clue")
    _items_column(table)
    _with_cell_runs(table, runs_of, "solver", {c.key: c.key for c in table.columns
                                               if c.numeric and c.key != "items"})
    within = f"Only the {len(items)} items {items_are} are used." if items is not None else ""
    table.notes = " ".join(p for p in (within, ROW_RULE.format(what="solver"), notes,
                                       unfinished_note(store, found), table.notes) if p)
    return table


ROW_RULE = ("Each row compares one {what}'s runs on the items they share (items); a cell's "
            "accuracy is over its scored items (n), the rest of the row's items are "
            "unscored.")


def _items_column(table: Table) -> None:
    """The row's shared items as the column "items" (the n of a cell is its scored items)."""
    for column in table.columns:
        if column.key == "n":
            column.key, column.title = "items", "Items"
    for row in table.rows:
        row["items"] = row.pop("n", None)


ABLATION_SETTINGS = ("direct", "cot", "clue_guided")


def ablation_table(store, run_ids: list[str], within=None) -> Table:
    """Rows model, columns No-CoT / CoT / Clue-guided CoT, and Structured when a run has that
    setting (runs without injected clues on full images), every row on the items its runs
    share. Runs left out (injected clues, another image mode, no general scores) are named
    in the notes with the reason."""
    configs = {rid: store.get_run(rid)["config"] for rid in dict.fromkeys(run_ids)}
    names = labels(store, list(configs))
    found = summaries(store, run_ids, "general")
    left_out = {}                  # {run_id: why it is not in the table}
    for rid in names:
        config = configs[rid]
        if rid not in found:
            left_out[rid] = "no general scores"
        elif config.get("clues", "none") != "none":
            left_out[rid] = "injected clues"
        elif config.get("image_mode", "full") != "full":
            left_out[rid] = f"image mode {config['image_mode']}"
        elif config["setting"] not in SETTING_TITLES:
            left_out[rid] = f"setting {config['setting']}"
    found = _on_page_items({rid: r for rid, r in found.items() if rid not in left_out}, within)
    settings = ABLATION_SETTINGS + tuple(
        s for s in SETTING_TITLES if s not in ABLATION_SETTINGS
        and any(configs[rid]["setting"] == s for rid in found))
    cells, n, runs_of, notes = _cells_by_solver(store, found, lambda c: c["endpoint"]["model"],
                                                lambda c: SETTING_TITLES[c["setting"]],
                                                "setting")
    columns = [Column("model", "Model", numeric=False)] + [
        Column(s, SETTING_TITLES[s], rank=False) for s in settings] + [
        Column("n", "n", digits=0, rank=False)]
    models = sorted({model for model, _ in cells})
    rows = [{"model": model, **{s: cells.get((model, SETTING_TITLES[s])) for s in settings},
             "n": n[model]}
            for model in models]
    left = ("Left out: " + ", ".join(f"{names[rid]} ({why})" for rid, why in left_out.items())
            + ".") if left_out else ""
    table = Table(columns, rows, caption="Reasoning setting ablation: accuracy (%)",
                  notes=" ".join(p for p in (ROW_RULE.format(what="model"), notes, left,
                                             unfinished_note(store, found)) if p))
    _items_column(table)
    return _with_cell_runs(table, runs_of, "model",
                           {s: SETTING_TITLES[s] for s in settings})


def verbench_results(store, run_ids: list[str], within=None) -> Table:
    found = _on_page_items(summaries(store, run_ids, "verbench"), within)
    names = labels(store, list(found))
    found, shared = on_shared(found, names)
    table = verbench_table({names[r]: s["summary"] for r, s in found.items()},
                           caption=f"VER-Bench scores, {shared.n} items")
    table.notes = shared.note()
    return with_run_ids(store, table, names)


def leaderboard_table(store, run_ids: list[str] | None = None, human=None,
                      within=None, judge: str | None = None) -> Table:
    """The main table sorted best first, without intervals (its notes name none)."""
    run_ids = run_ids if run_ids is not None else store.scored_runs()
    table = main_table(store, run_ids, judge=judge, human=human, show_ci=False, sort=True,
                       within=within)
    table.caption = table.caption.replace("Accuracy (%), general protocol",
                                          "Leaderboard: general accuracy (%)")
    return table


def render(table: Table, fmt: str) -> str:
    renderers = {"md": table.to_markdown, "markdown": table.to_markdown,
                 "latex": table.to_latex, "csv": table.to_csv, "json": table.to_json}
    if fmt not in renderers:
        raise ResultsError(f"format must be md, latex, csv or json, not {fmt!r}")
    return renderers[fmt]()
