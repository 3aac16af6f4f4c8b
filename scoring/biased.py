"""Rigorous accuracy biased low: a clue judge whose replies on right answers could not be read.

Only right answers are sent to the clue judge (a wrong answer is wrong under rigorous without
asking), so the verdicts its unreadable replies left unscored are all right answers: the
accuracy of the rest counts the wrong ones in full and leaves right ones out, so it reads low
(a review saw 0.00, n 8, with the 6 right answers unscored). `score` said so; every table,
chart, report and export of rigorous (and grounded-rigorous, built on it) accuracy says so
too: a mark (`MARK`) on the accuracy, a footnote naming the run and the count, and, in CSV and
JSON, the column `UNREAD_KEY` (the items left out so).
"""
from __future__ import annotations

from domain.vocabulary import counted
from domain.judge_ids import format_judge, parse_judge

PROTOCOLS = ("rigorous", "grounded")
MARK = "†"
UNREAD_KEY = "unread_right_answers"


def unread_work(store, run_id: str, protocol: str, judge: str) -> set[int]:
    """The responses of the run whose `protocol` verdict by `judge` is unscored because the
    clue judge's reply on them (a right answer) could not be read; empty for other protocols."""
    if protocol not in PROTOCOLS:
        return set()
    parsed = parse_judge(judge)
    members = [format_judge(m) for m in parsed.members] if parsed.is_panel else [judge]
    return store.unread_right_answers(run_id, protocol, judge, members)


def unread_items(result: dict, group: str | None = None) -> dict[str, int]:
    """{group name (or "overall"): items} whose record is unscored for an unread clue
    judge reply, in a `run_summary` result (its records, as compared)."""
    found: dict[str, set] = {}
    for r in result.get("records") or []:
        if r.get("unread_right"):
            found.setdefault("overall", set()).add(r["item_id"])
            if group:
                found.setdefault(str(r[group] or "(none)"), set()).add(r["item_id"])
    return {name: len(items) for name, items in found.items()}


def note(counts: dict[str, int], protocol: str) -> str:
    """The footnote under a table or chart ({row label: items}), '' when no row is biased."""
    found = {label: n for label, n in counts.items() if n}
    if not found:
        return ""
    which = "Rigorous" if protocol == "rigorous" else "Grounded-rigorous" \
        if protocol == "grounded" else "Rigorous and grounded-rigorous"
    # items, not responses: `score` counts responses (repeats and samples apart); each says
    runs = "; ".join(f"{label}: {n} item{'s' if n != 1 else ''} with a right answer "
                     f"unscored" for label, n in found.items())
    each = "it" if sum(found.values()) == 1 else "each"
    return (f"{MARK} {which} accuracy, {runs}: the clue judge gave no verdict on {each}, its "
            f"reply unreadable (never cached: scoring again asks the judge again) or every "
            f"clue it extracted missing from the reply (a readable reply, cached: score "
            f"--no-cache asks the judge afresh, or score with another judge; `score` counts "
            f"each reason). Only right answers are left out, so the accuracy is biased low.")


def mark_table(table, counts: dict[str, int], columns, protocol: str) -> None:
    """Mark the cells of `columns` ({row label: [column keys]} or one list for every row) of
    the rows in `counts` ({row label: items}) that hold an accuracy (a group whose every
    item was left unscored is "–", n 0: a mark there read "biased low" on no value), add
    the footnote and the CSV/JSON column."""
    marked = {}                 # {row label: the cells its mark goes on}
    for row in table.rows:
        keys = columns.get(row.get("model"), []) if isinstance(columns, dict) else columns
        valued = [k for k in keys if row.get(k) is not None]   # "–" (n 0): no accuracy to
        if counts.get(row.get("model"), 0) and valued:         # be low, no mark
            marked[row.get("model")] = valued
    # the footnote names the rows it marks: a row whose cells are all "–" (the drop table
    # hides a drop over wrong answers only) got "biased low" on no value
    text = note({label: n for label, n in counts.items() if label in marked}, protocol)
    if not text:
        return
    table.notes = f"{table.notes} {text}".strip()
    table.footnotes.append(text)
    table.exported.append(UNREAD_KEY)
    for row in table.rows:
        row[UNREAD_KEY] = counts.get(row.get("model"), 0)
        if row.get("model") in marked:
            row["_flags"] = {**row.get("_flags", {}), **dict.fromkeys(marked[row["model"]],
                                                                      MARK)}


def label(name: str, n: int) -> str:
    """A chart's series or group label with the mark when its run is biased."""
    return f"{name} {MARK}" if n else name


def right_without_verdict(general: dict, rigorous: dict) -> tuple[int, int]:
    """(items with a right answer the clue judge gave no rigorous verdict on, items with a
    right answer) of one run: items, as the tables and the row's Unscored count (a note of
    16 right answers, 4 repeats of 4 items, stood beside Unscored rigorous 4). A wrong answer
    is wrong under rigorous without the clue judge, a right one is not: the items both
    protocols scored hold the wrong answers in full and the right ones only where the judge
    gave a verdict. (An item without GT clues leaves every answer unscored, right or wrong:
    no bias, not counted.)"""
    from judges.pairing import record_key
    from judges.verdict import CORRECT

    unread = {record_key(r) for r in rigorous.get("records") or [] if r.get("unread_right")}
    right = [record_key(r) for r in general.get("records") or [] if r["value"] == CORRECT]
    return len({item for item, repeat in right if (item, repeat) in unread}), \
        len({item for item, _ in right})


DROP_HIDDEN = "–"
DROP_UNPAIRED = ("Rigorous, Drop and Grounded-rigorous are not shown ({mark}) for a run whose "
                 "right answers are not all judged: on the items its protocols scored, its "
                 "wrong answers count in full and its right ones only where the clue judge "
                 "gave a verdict, so rigorous accuracy and the drop read that run wrong "
                 "(low, or 0.00 beside 0.00 when no right answer has one); its General is "
                 "over all the items general scored, its own n.")


def drop_unpaired_note(missing: dict[str, tuple[int, int, str]]) -> str:
    """The drop table's footnote for the rows whose Rigorous and Drop it empties ({row
    label: (items with a right answer without a rigorous verdict, items with a right answer,
    the judge)}), '' when none."""
    if not missing:
        return ""
    each = "; ".join(f"{label}: {counted(n, 'item')} with a right answer "
                     f"ha{'ve' if n != 1 else 's'} no clue verdict from {judge}, the drop "
                     "over the rest would count " + ("wrong answers only" if n == right else
                                                     f"{n} of its {right} items with a right "
                                                     "answer out")
                     for label, (n, right, judge) in missing.items())
    return f"{DROP_UNPAIRED.format(mark=DROP_HIDDEN)} {each}."
