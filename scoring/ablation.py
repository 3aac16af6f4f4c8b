"""The reasoning-setting ablation (DailyClue Fig. 6): rows a model with its samples and
repeats and how its runs drew their replies (sampling sent, image preparation:
`scoring.solver_rows`), columns No-CoT / CoT / Clue-guided CoT (Structured when a run has
it), each cell a run (`scoring.matrix_tables`: the cells, their runs and the items they
share). A row of the model and draws alone set a CoT run at temperature 0.2 beside No-CoT
and Clue-guided runs at the endpoint's default, and hid the CoT run drawn like them.

A column marks its best and second as the main table does (`judges.tables.MARK_RULE`): only
among cells of equal n, ties sharing the mark, never a failed run's cell (`Table.marks`).
Unmarked, a CoT column of 15.38 / 23.08 / 23.08 on 13 items each set nothing apart, where
the main table and the leaderboard bolded the same numbers.
"""
from __future__ import annotations

from judges.tables import MARK_RULE, Column, Table

from scoring.commands import table_command
from domain.vocabulary import IMAGE_MODE_TITLES
from scoring.compared import VERBENCH_NO_ACCURACY, SETTING_TITLES, labels, left_out_note, \
    model_label, summaries, unfinished_note
from scoring.count_notes import preset_notes
from scoring.matrix_tables import ROW_RULE, cells_by_solver, items_column, shown_runs, \
    unfinished_cells, with_cell_runs
from scoring.results import ResultsError
from scoring.solver_rows import solver_rows
from scoring.table_marks import on_page_items

ABLATION_SETTINGS = ("direct", "cot", "clue_guided")
ABLATION_ROWS = ("A row is a model with its samples and repeats (and preset) and how its "
                 "runs drew their replies (temperature, top_p, max_tokens, seed, the images' "
                 "size limit, format and quality): every cell of a row shares them, so a "
                 "single draw is never set beside a 3-sample majority vote or a 3-repeat "
                 "mean, nor a run at temperature 0.2 beside runs at the default: a model's "
                 "runs with other draws (or a preset, or other sampling) make a row of their "
                 "own, named by the model and what sets them apart")


def rows_note(rows: list[str], models: set[str]) -> str:
    """ABLATION_ROWS, with a row of this table as its example when one has draws, a preset or
    sampling beside its model ('m · 3 samples', 'm · T 0.2'); it named 'alpha-vlm · 3 samples', a model in none of
    the user's runs. rows: the table's row labels; models: the models alone."""
    example = next((row for row in rows if row not in models), None)
    return ABLATION_ROWS + (f" ('{example}' here)." if example else ".")


def no_run_columns(settings: list[str]) -> str:
    """The note naming the paper's settings (No-CoT, CoT, Clue-guided CoT) no run of the
    table has, whose columns are left out ('' when it has all three): shown, they were
    empty columns titled "No-CoT (n 0)"."""
    missing = [SETTING_TITLES[s] for s in ABLATION_SETTINGS if s not in settings]
    if not missing:
        return ""
    names = " and ".join([", ".join(missing[:-1]), missing[-1]] if len(missing) > 1
                         else missing)
    return (f"No run of this table has the setting {names}: "
            f"{'its column is' if len(missing) == 1 else 'those columns are'} left out.")


def _left_out(configs: dict, found: dict) -> dict[str, str]:
    """{run_id: why a scored run is not an ablation cell} (injected clues, another image
    mode, a setting the ablation has no column for)."""
    why = {}
    for rid in found:
        config = configs[rid]
        if config.get("clues", "none") != "none":
            why[rid] = "injected clues"
        elif config.get("image_mode", "full") != "full":
            why[rid] = f"image mode {IMAGE_MODE_TITLES.get(config['image_mode'], config['image_mode'])}"
        elif config["setting"] not in SETTING_TITLES:
            why[rid] = f"setting {config['setting']}"
    return why


def ablation_table(store, run_ids: list[str], within=None, judge: str | None = None,
                   protocol: str = "general", samples_rule: str = "majority") -> Table:
    """Rows a model with its samples and repeats (`model_label`) and the rest of how its
    runs drew their replies (`scoring.solver_rows`), columns No-CoT / CoT /
    Clue-guided CoT and Structured, each shown when a run has that setting (runs without
    injected clues on full images), every row on the items the table's runs share, under
    `protocol` (general unless asked). Runs left out (injected clues, another image mode, no
    scores under the protocol) are named in the notes with the reason."""
    configs = {rid: store.get_run(rid)["config"] for rid in dict.fromkeys(run_ids)}
    if protocol == "verbench":
        raise ResultsError(VERBENCH_NO_ACCURACY)
    found = summaries(store, run_ids, protocol, judge, samples_rule)
    left_out = _left_out(configs, found)
    found = on_page_items({rid: r for rid, r in found.items() if rid not in left_out}, within)
    settings = [s for s in SETTING_TITLES      # No-CoT, CoT, Clue-guided CoT, Structured
                if any(configs[rid]["setting"] == s for rid in found)]
    # a row's runs drew their replies alike (sampling, images): only the setting varies
    solver_of = solver_rows([configs[rid] for rid in found], model_label)
    cells, n, runs_of, notes, _ = cells_by_solver(
        store, found, solver_of, lambda c: SETTING_TITLES[c["setting"]],
        "setting", lambda ids: table_command("ablation", ids, protocol=protocol, judge=judge))
    columns = [Column("model", "Model", numeric=False)] + [
        Column(s, SETTING_TITLES[s]) for s in settings] + [
        Column("n", "n", digits=0, rank=False)]
    rows = [{"model": model, **{s: cells.get((model, SETTING_TITLES[s])) for s in settings},
             "n": n[model]}
            for model in sorted(n)]
    models = {configs[rid]["endpoint"]["model"] for rid in found}
    said = (rows_note(sorted(n), models), ROW_RULE,
            no_run_columns(settings), notes, unfinished_note(store, shown_runs(runs_of)),
            MARK_RULE, *preset_notes(found, labels(store, list(found))))
    table = Table(columns, rows,
                  caption=f"Reasoning setting ablation: accuracy (%), {protocol} protocol",
                  notes=" ".join(p for p in said if p),
                  left_out=left_out_note(store, run_ids, found, protocol, judge, left_out),
                  protocol=protocol, samples_rule=samples_rule)
    items_column(table)
    columns = {s: SETTING_TITLES[s] for s in settings}
    return unfinished_cells(with_cell_runs(store, table, runs_of, "model", columns), "model",
                            columns)
