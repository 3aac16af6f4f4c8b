"""What every table of runs carries, whichever table it is: each run row's `run_id` and
`run_name`, a failed run's row never marked best, the notes naming the runs that failed or
did not finish, a Judge column (and, when rows differ in it, no best marked and a note saying
why), and the restriction to the items a page compares. Used by `scoring.tables` and `scoring.matrix_tables`.
"""
from __future__ import annotations

from judges.tables import MARK_RULE, Column, Table

from scoring.compared import failed_runs, run_state, unfinished_note
from scoring.results import on_items


def with_run_ids(store, table: Table, names: dict[str, str]) -> Table:
    """Each row that is a run gets its `run_id`, `run_name` (its own name, '' when none),
    `run_label` (its label as the table shows it), `run_status` (names: {run_id: label}) and
    `endpoint_model` (the model id its endpoint asked for: the exports' `model`), a failed
    run's row is never marked best, and the notes name the runs that failed or did not
    finish."""
    by_label = {label: rid for rid, label in names.items()}
    failed = failed_runs(store, names)
    copied = copies(store, names)
    for row in table.rows:
        rid = by_label.get(row.get("model"))
        if rid is not None:
            run = store.get_run(rid)
            # run_name: the run's own name ('' when it has none, never the made-up label,
            # which a spreadsheet then took for a name); run_label: how tables show it, the
            # row's label, "(cancelled)" and all (the CSV said "m · CoT" beside the table's
            # "m · CoT (cancelled)")
            row["run_id"], row["run_name"] = rid, (run.get("name") or "").strip()
            row["run_label"] = names[rid]
            row["run_status"] = run_state(run)
            row["endpoint_model"] = run["config"]["endpoint"].get("model")
            row["_unranked"] = row.get("_unranked") or rid in failed or rid in copied
            row["from_cache"] = sum(store.run_cache_sources(rid).values())
    if any("from_cache" in row for row in table.rows) and "from_cache" not in table.exported:
        table.exported.append("from_cache")     # the count of the run's cached replies
    table.notes = " ".join(p for p in (table.notes, unfinished_note(store, names),
                                       cache_note(store, names), copies_note(copied, names))
                           if p)
    return table


def copies(store, run_ids) -> dict[str, list[str]]:
    """{run id: the runs that made its replies} of the runs of `run_ids` every reply of which
    was taken from the cache, made by other runs of `run_ids`, and read as they read it: the
    same draws, the same results, shown twice. Such a copy was marked best jointly with its
    source; it is no result of its own. A run reading cached replies otherwise (another box
    convention: another grounded score) is a result of its own, and was left unmarked
    beside its worse-scoring source, which took the mark."""
    responses = store.response_counts()
    found = {}
    for rid in run_ids:
        sources = store.run_same_readings(rid)
        whole = sources and sum(sources.values()) >= responses.get(rid, 0) > 0
        if whole and set(sources) <= set(run_ids) - {rid}:
            found[rid] = sorted(sources)
    return found


def copies_note(copied: dict[str, list[str]], names: dict[str, str]) -> str:
    """The note saying which rows are not marked best (`copies`), '' when none."""
    said = [f"{names[rid]} (every reply from {', '.join(names[s] for s in sources)})"
            for rid, sources in sorted(copied.items(), key=lambda pair: names[pair[0]])]
    if not said:
        return ""
    return ("Not marked best or second, being copies of runs shown here, not results of "
            f"their own: {'; '.join(said)}; the mark goes to the run that made the replies.")


def cache_note(store, names: dict[str, str]) -> str:
    """'From the cache: m · CoT: replies from the cache (…): repeat 0: 14 of 14 from …; ….'
    for the runs of `names` ({run id: label}) with replies taken from the cache, '' when
    none: in the notes, so that a LaTeX or Markdown table says a run is partly another run's
    draws (it reached only `table`'s stderr, and the page's LaTeX export never said it)."""
    return "".join(f"From the cache: {'; '.join(lines)}." for lines in [cache_lines(store, names)]
                   if lines)


def cache_lines(store, names: dict[str, str]) -> list[str]:
    """'<label>: <runner.provenance.cache_line>' per run of `names` with a cached reply, its
    source runs named as the table labels runs; `table` prints those its table's notes lack."""
    from runner.provenance import cache_line
    from scoring.compared import namer

    name = namer(store, names)
    found = ((label, cache_line(store, store.get_run(rid), name)) for rid, label in names.items())
    return [f"{label}: {line}" for label, line in found if line]


JUDGES_DIFFER = ("No judge scored every run, so each row is read with its own (Judge column) "
                 "and no best or second is marked: score the runs with one judge to compare "
                 "them.")


def with_judges(table: Table, judges: list[str], shown: list[str] | None = None,
                answered: list[str] | None = None, notes: str = "") -> Table:
    """A Judge column (judges: one judge id per row, in row order; `shown`: the text the
    column shows instead, a panel with how many of its members answered:
    `scoring.panel_members`; `answered`: CSV/JSON's `judges_answered`, '1 of 2'; `notes`:
    the sentences on panels not whole). When rows differ in judge (no judge scored every
    run: `scoring.results.common_judge`), their numbers are not comparable: the table
    marks no best or second, and one line says why instead of the marking rule."""
    table.columns.append(Column("judge", "Judge", numeric=False, latex_key="_judge_id"))
    for row, judge, text in zip(table.rows, judges, shown or judges):
        row["judge"], row["_judge_id"] = text, judge   # LaTeX: the id, the rest in notes
    if answered and any(answered):
        table.exported.append("judges_answered")
        for row, count in zip(table.rows, answered):
            row["judges_answered"] = count
    if notes:
        table.notes = f"{table.notes} {notes}".strip()
    if len({j for j in judges if j}) > 1:
        table.ranked = False
        notes = table.notes.replace(MARK_RULE, "").replace("  ", " ").strip()
        table.notes = " ".join(p for p in (notes, JUDGES_DIFFER) if p)
    table.notes = " ".join(p for p in (table.notes, table.unequal_n_note()) if p)
    return table


def on_page_items(found: dict, items) -> dict:
    """Each result restricted to `items` (the items the page's main table compares)."""
    if items is None:
        return found
    return {rid: on_items(result, frozenset(items)) for rid, result in found.items()}
