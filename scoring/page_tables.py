"""The Results page's tables: one function for what the page shows and what it downloads.

The page draws its main table, its General-vs-rigorous chart and its clue-injection heatmap
from tables, and offers every kind as a download. Both go through `page_table`, with the
page's reading (judge, samples rule, extraction, human row) and breakdown, so a download is
the table the page shows: the same runs, items and n (the injection download once held 14
items while the heatmap showed the 6 its runs shared).
"""
from __future__ import annotations

from judges.tables import Table

from scoring import tables
from scoring.shown_judge import shown_judge_note

PAGE_KINDS = ("main", "subtask", "drop", "injection", "ablation", "verbench", "leaderboard")


def page_table(store, run_ids: list[str], kind: str, protocol: str, chosen: dict,
               by: str = "domain", within=None, compared=None) -> Table:
    """The table `kind` of the Results page. chosen: the page's reading (`judge`,
    `samples_rule`, `extraction`, `human`: `ui.results_handlers.reading`); within: the items
    of a download's dataset (None: the runs' own); compared: the main table's
    `tables.compared_results` for these runs and this reading, when already computed."""
    judge = chosen["judge"]
    if kind in ("main", "subtask"):
        group = tables.group_key(by or "domain") if kind == "main" else "by_subtask"
        compared = compared or tables.compared_results(
            store, run_ids, protocol, judge, chosen["samples_rule"], chosen["extraction"],
            within)
        table = tables.main_table(store, run_ids, group, protocol, **chosen, within=within,
                                  compared=compared)
        # read with another judge than the runs' default one: said (its n can drop unseen),
        # counting the responses to the table's items only
        note = shown_judge_note(store, run_ids, protocol, judge, compared[2].items)
        if note:
            table.notes = f"{note} {table.notes}".strip()
        return table
    if kind == "drop":
        return tables.drop_table(store, run_ids, within, judge, chosen["samples_rule"])
    if kind == "injection":
        return tables.page_injection_table(store, run_ids, protocol, judge,
                                           chosen["samples_rule"], chosen["extraction"],
                                           within=within)
    if kind == "ablation":
        return tables.ablation_table(store, run_ids, within, judge, protocol,
                                     chosen["samples_rule"])
    if kind == "verbench":
        return tables.verbench_results(store, run_ids, within, judge)
    if kind == "leaderboard":
        return tables.leaderboard_table(store, run_ids, chosen["human"], within=within,
                                        judge=judge, samples_rule=chosen["samples_rule"])
    raise ValueError(f"table must be one of {', '.join(PAGE_KINDS)}")


def table_runs(made: list[Table]) -> list[str]:
    """The runs the tables show, in the order they first appear: each row's `run_id` (main,
    drop, leaderboard, VER-Bench) and each cell's `<column>_run_id` (injection, ablation).
    A download's name counts these, not the runs asked for: 'leaderboard-…-5-runs' held a
    3-run table, two runs left out (no scores under its protocol, or in another group)."""
    found: dict[str, None] = {}
    for table in made:
        for row in table.rows:
            for key, value in row.items():
                if value and (key == "run_id" or key.endswith("_run_id")):
                    found[value] = None
    return list(found)
