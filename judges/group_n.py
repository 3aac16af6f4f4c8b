"""Where a table of groups says each group's n (`judges.tables.Table` asks): one rule for
the whole table, in the column titles when every column's cells have one n, else in every
cell, and the note that says which. Every cell with an n counts, "–" ones too: a run whose
items in a group were all unscored rests on n 0, and left out, its column was titled
"(n 1)" under a note that every row had that n. Also which cells a column's marks rank
(`ranked_cell`), whose n must be one for any to be marked.
"""
from __future__ import annotations

N_IN_TITLES = "Each group's n is in its column title: it is the same for every row."
N_IN_CELLS = ("Each cell says its n: the rows' n differ within a group (runs with different "
              "numbers of unscored items there).")
N_IN_CELLS_HUMAN = ("Each cell says its n: the rows' n differ within a group (the human "
                    "baseline did not answer every compared item there: see Not answered).")
N_IN_CELLS_BOTH = ("Each cell says its n: the rows' n differ within a group (runs with "
                   "different numbers of unscored items there, and the human baseline did "
                   "not answer every compared item: see Not answered).")


def ranked_cell(row: dict, key: str) -> bool:
    """Whether the row's cell `key` takes part in its column's marking and in the n it is
    marked on (`Table.marks`, `Table.unequal_n`): a number, in a row not `_unranked`, and
    not one of the row's `_unranked_cells` (a table whose cells are runs: a failed run's
    cell is never best, its row's other cells may be)."""
    return isinstance(row.get(key), (int, float)) and not row.get("_unranked") \
        and key not in row.get("_unranked_cells", ())


def _cells(rows: list[dict], key: str) -> list[dict]:
    """The rows whose cell in column `key` has an n (`<key>_n`; "–" cells included)."""
    return [r for r in rows if r.get(f"{key}_n") is not None]


def titles_n(rows: list[dict], columns) -> dict[str, int]:
    """{column key: n} of the columns whose cells carry an n when, in every such column,
    all of them have one n: then each title says it (and no cell does). When any column's
    cells differ in n, {}: every cell says its own, so a table never shows some n in
    titles and others in cells. A group no row scored (every cell "–") says n 0."""
    found = {}
    for col in columns:
        values = {r[f"{col.key}_n"] for r in _cells(rows, col.key)}
        if len(values) > 1:
            return {}
        if values:
            found[col.key] = values.pop()
        elif any(f"{col.key}_n" in r for r in rows):
            found[col.key] = 0
    return found


def n_rule(rows: list[dict], columns) -> str:
    """The note saying where the groups' n is ('' when no cell carries one)."""
    if not any(k.endswith("_n") and k != "_n" for row in rows for k in row):
        return ""
    if titles_n(rows, columns):
        return N_IN_TITLES
    human, runs = _short_rows(rows, columns)
    if human and not runs:
        return N_IN_CELLS_HUMAN
    return N_IN_CELLS_BOTH if human else N_IN_CELLS


def _short_rows(rows: list[dict], columns) -> tuple[bool, bool]:
    """(a human row, a run row) has a smaller n than another row in some group: the true
    reasons the cells differ. A row with items "not_answered" is the human baseline (whose
    n is short of the answers it lacks); any other row's is short of its unscored items."""
    human = runs = False
    for col in columns:
        key = f"{col.key}_n"
        cells = _cells(rows, col.key)
        most = max((r[key] for r in cells), default=0)
        for row in (r for r in cells if r[key] < most):
            if row.get("not_answered"):
                human = True
            else:
                runs = True
    return human, runs
