"""The tables the papers print, built from results (rendered by `judges.tables.Table`):
DailyClue Table 2 (`results_table`, `leaderboard`), Table 3 (`clue_injection_table`), Fig. 7
(`rigorous_drop_table`) and VER-Bench Table 1 (`verbench_table`). Rows flagged `_unranked`
(a human baseline, a run with nothing scored or whose every answer failed: `unrankable`)
are printed but never marked best.
"""
from __future__ import annotations

from judges.stats import Accuracy
from judges.tables import Column, Table


def _percent(row: dict, key: str, acc: Accuracy | None, with_n: bool = False) -> None:
    row[key] = acc.accuracy * 100 if acc and acc.accuracy is not None else None
    if with_n:
        row[f"{key}_n"] = acc.n if acc else 0
    if acc and acc.ci_low is not None:
        row[f"{key}_ci_low"], row[f"{key}_ci_high"] = acc.ci_low * 100, acc.ci_high * 100


def unrankable(acc: Accuracy | None) -> bool:
    """A row that marks no best: nothing scored, or every scored answer an error (a run
    whose calls all failed has no accuracy worth ranking, and its "drop" of 0 is no win)."""
    return acc is None or not acc.n or acc.error == acc.n


def results_table(runs: dict[str, dict], group: str = "by_domain", *, caption: str = "",
                  show_ci: bool = False, unranked=(), notes: str = "") -> Table:
    """DailyClue Table 2: one row per run (its `summarise` output), Overall then one column per
    group value (domain or subtask), accuracies in %."""
    names = sorted({name for summary in runs.values() for name in summary.get(group, {})})
    columns = [Column("model", "Model", numeric=False), Column("overall", "Overall"),
               Column("n", "n", digits=0, rank=False)]
    columns += [Column(f"{group}:{name}", name) for name in names]
    rows = []
    for run, summary in runs.items():
        row = {"model": run, "n": summary["overall"].n,
               "_unranked": run in unranked or unrankable(summary["overall"])}
        _percent(row, "overall", summary["overall"])
        for name in names:
            _percent(row, f"{group}:{name}", summary.get(group, {}).get(name), with_n=True)
        rows.append(row)
    return Table(columns, rows, caption=caption, show_ci=show_ci, notes=notes)


def clue_injection_table(cells: dict[tuple[str, str], float], *, baseline: str = "No Clue",
                         caption: str = "", n: dict[str, int] | None = None,
                         deltas: dict[tuple[str, str], tuple] | None = None
                         ) -> Table:
    """DailyClue Table 3: rows solver, columns clue source, accuracy (%) with its change against
    the solver's `baseline` column. cells: {(solver, source): accuracy in %}; n: {solver:
    items its cells were computed on}, shown as a column. deltas: {(solver, source): (change
    in points, n[, the baseline's accuracy in % on those n items])}, each computed on the items both runs scored (`<source>_delta_n`); without
    it the change is cell minus baseline, for cells on one set of items (a paper's numbers).
    Rows and columns in the order of `cells`, the baseline last."""
    solvers = list(dict.fromkeys(s for s, _ in cells))
    sources = [s for s in dict.fromkeys(src for _, src in cells) if s != baseline] + [baseline]
    columns = [Column("solver", "Model", numeric=False)] + [
        Column(src, src, rank=False) for src in sources]
    if n is not None:
        columns.append(Column("n", "n", digits=0, rank=False))
    rows = []
    for solver in solvers:
        row, base = {"solver": solver}, cells.get((solver, baseline))
        for src in sources:
            row[src] = cells.get((solver, src))
            if src == baseline or row[src] is None:
                continue
            if deltas is not None:
                if (solver, src) in deltas:
                    delta, delta_n, *base = deltas[(solver, src)]
                    row[f"{src}_delta"], row[f"{src}_delta_n"] = delta, delta_n
                    if base:        # the baseline's accuracy on those items, in %
                        row[f"{src}_delta_base"] = base[0]
            elif base is not None:
                row[f"{src}_delta"] = row[src] - base
        if n is not None:
            row["n"] = n.get(solver)
        rows.append(row)
    return Table(columns, rows, caption=caption)


DROP_NOTE = ("General and Rigorous: higher is better. Drop (General − Rigorous) is not "
             "marked: a smaller drop is better only at equal general accuracy.")
DROP_PROTOCOLS = {"general": "General", "rigorous": "Rigorous", "grounded": "Grounded-rigorous"}


def rigorous_drop_table(general: dict[str, Accuracy], rigorous: dict[str, Accuracy], *,
                        grounded: dict[str, Accuracy] | None = None,
                        unscored: dict[str, dict[str, int]] | None = None,
                        caption: str = "") -> Table:
    """DailyClue Fig. 7 as a table: general and rigorous accuracy (%) per run, the drop (not
    marked: a small drop is no merit when the general accuracy is low, and 0 when it is 0;
    `DROP_NOTE`), grounded-rigorous beside them when given, and the row's n.

    A row's accuracies are on one set of items, those every protocol of the row scored: a
    drop between 10/14 and 8/12 is no drop, so accuracies on different n are refused
    (ValueError). `unscored`: {run: {protocol: items it left unscored}}, a column each."""
    given = {"general": general, "rigorous": rigorous, **({"grounded": grounded}
                                                          if grounded is not None else {})}
    columns = [Column("model", "Model", numeric=False), Column("general", "General"),
               Column("rigorous", "Rigorous"), Column("drop", "Drop", rank=False)]
    if grounded is not None:
        columns.append(Column("grounded", "Grounded-rigorous"))
    columns.append(Column("n", "n", digits=0, rank=False))
    if unscored is not None:
        columns += [Column(f"unscored_{p}", f"Unscored {DROP_PROTOCOLS[p].lower()}", digits=0,
                           rank=False) for p in given]
    rows = []
    for run, acc in general.items():
        found = {p: by_run.get(run) for p, by_run in given.items()}
        sizes = {p: a.n for p, a in found.items() if a is not None}
        if len(set(sizes.values())) > 1:
            raise ValueError(f"{run}: the protocols' accuracies are on different items ("
                             + ", ".join(f"{p} n {n}" for p, n in sizes.items())
                             + "); compare them on the items all of them scored")
        row = {"model": run, "_unranked": unrankable(acc), "n": acc.n}
        for p, a in found.items():
            _percent(row, p, a)
        both = row["general"] is not None and row["rigorous"] is not None
        row["drop"] = row["general"] - row["rigorous"] if both else None
        for p in given if unscored is not None else ():
            row[f"unscored_{p}"] = unscored.get(run, {}).get(p)
        rows.append(row)
    return Table(columns, rows, caption=caption)


def verbench_table(runs: dict[str, dict], *, caption: str = "") -> Table:
    """VER-Bench Table 1: AC, CC, RQ, ER (x 10) and the average accuracy per run, with the
    items scored (n), those of n no answer was read from in any sample or repeat (Unparsed:
    in n, their AC 0; the paper averages over every item) and those the judge left without all four sub-scores
    (Unscored)."""
    columns = [Column("model", "Model", numeric=False)] + [
        Column(m, m, digits=1, percent=False) for m in ("AC", "CC", "RQ", "ER")] + [
        Column("average", "Average Accuracy", digits=1), Column("n", "n", digits=0, rank=False),
        Column("unparsed", "Unparsed", digits=0, rank=False),
        Column("unscored", "Unscored", digits=0, rank=False)]
    rows = [{"model": run, **{k: s.get(k) for k in ("AC", "CC", "RQ", "ER", "average", "n",
                                                    "unparsed", "unscored")},
             "average_ci_low": s.get("ci_low"), "average_ci_high": s.get("ci_high"),
             **({"average_ci_note": s["ci_note"]} if s.get("ci_note") else {})}
            for run, s in runs.items()]
    return Table(columns, rows, caption=caption, show_ci=True)


def leaderboard(runs: dict[str, dict], **kwargs) -> Table:
    """`results_table` sorted by overall accuracy, best first (unscored runs last)."""
    table = results_table(runs, **kwargs)
    table.rows.sort(key=lambda r: (r["overall"] is None, -(r["overall"] or 0)))
    return table
