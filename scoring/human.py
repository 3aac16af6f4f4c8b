"""Human baselines: per-item human results, shown as an extra, unranked row of the tables.

A baseline file is JSON: {"label": ..., "results": {item_id: true/false}} or a list of
{"item_id", "correct"} (as questionnaires are scored elsewhere); 1 and 0 count as true and
false. The command line reads a file (`--human FILE`); the Results tab keeps the baselines it
is given in the database (the store's human baselines), each under a name made from its
label, so they are there after a restart and can be chosen by label. Adding a baseline with
the label of a kept one replaces it in one transaction; another label that makes the same
name is refused. A file is checked completely (format, results, every item known) before
anything is written, so a refused file leaves the database as it was; each refusal names
what is wrong (the entry, the key, the item). A baseline is grouped like a run by the
items' current domains, subtasks and types. In a table it is compared on the items the
runs share, as runs are (`baseline_on_items`): its n, and the items its participants did
not answer counted apart, adding up to the table's items.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from domain.limits import MAX_BASELINE_TEXT
from judges.stats import summarise
from scoring.results import GROUPS, ResultsError
from store import NotFoundError

MAX_FILE_BYTES = 20 * 1024 * 1024
LABEL_MAX = MAX_BASELINE_TEXT        # domain/limits.py: every limit in one place
ENTRY = '{"item_id": "<an item id>", "correct": true or false}'
FORMAT = ('a human baseline is {"label": ..., "results": {item_id: true/false}} or a list of '
          '{"item_id", "correct"} (README, Results: "Human baseline")')


def _short(value) -> str:
    """A value as it may be quoted in a message: JSON, at most 60 characters."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


def _correct(item_id: str, value) -> bool:
    if isinstance(value, bool) or (type(value) is int and value in (0, 1)):
        return bool(value)
    raise ResultsError(f"item {_short(item_id)}: the result must be true or false, not "
                       f"{_short(value)}")


SHOWN_PROBLEMS = 10    # a refused file's message lists this many problems, then counts the rest


def listed(problems: list[str]) -> str:
    """One problem as it is; several counted and listed, the first SHOWN_PROBLEMS of them
    ("3 problems: …; …; …", "… and 4 more"), so that a file is fixed in one go rather than
    one refusal at a time."""
    if len(problems) == 1:
        return problems[0]
    more = len(problems) - SHOWN_PROBLEMS
    return (f"{len(problems)} problems: " + "; ".join(problems[:SHOWN_PROBLEMS])
            + (f"; and {more} more" if more > 0 else ""))


def _entry(n: int, entry) -> tuple[str, bool]:
    """(item id, correct) of list entry `n`; ResultsError naming what is wrong with it."""
    if not isinstance(entry, dict):
        raise ResultsError(f"entry {n} is {_short(entry)}, not {{\"item_id\", \"correct\"}}")
    missing = [key for key in ("item_id", "correct") if key not in entry]
    if missing:
        keys = ", ".join(_short(str(key)) for key in entry) or "none"
        raise ResultsError(f"entry {n} has no {' and no '.join(map(_short, missing))} "
                           f"(its keys: {keys}); each entry is {ENTRY}")
    item_id = entry["item_id"]
    if not isinstance(item_id, str) or not item_id:
        raise ResultsError(f"entry {n}: item_id must be a non-empty string, not "
                           f"{_short(item_id)}")
    return item_id, _correct(item_id, entry["correct"])


def _from_list(entries: list, known=None) -> dict:
    results: dict = {}
    problems = []
    for n, entry in enumerate(entries, 1):
        try:
            item_id, correct = _entry(n, entry)
        except ResultsError as error:
            problems.append(str(error))
            continue
        if results.setdefault(item_id, correct) != correct:
            problems.append(f"item {_short(item_id)} is given twice, once right and once "
                            "wrong")
    problems += _unknown(results, known)
    if problems:
        raise ResultsError(listed(problems))
    return results


def _check_flat(found: dict) -> list[str]:
    """A map without "results" holds item ids at its top level: a key whose value is an
    object or a list is no item but a misnamed "results" (or another field), and is named
    as such rather than as an item whose result is not true or false. The problems found."""
    return [f"the key {_short(key)} holds {_short(value)}: the results go under \"results\" "
            "as {item_id: true/false} (or item ids at the top level, each true or false)"
            for key, value in found.items() if isinstance(value, (dict, list))]


def _from_map(found: dict, flat: bool, known=None) -> dict:
    """{item_id: correct} of a results map; ResultsError listing every entry that is wrong."""
    problems = _check_flat(found) if flat else []
    if problems:
        raise ResultsError(listed(problems))
    results = {}
    for item_id, value in found.items():
        try:
            results[item_id] = _correct(item_id, value)
        except ResultsError as error:
            problems.append(str(error))
    problems += _unknown(found, known)
    if problems:
        raise ResultsError(listed(problems))
    return results


def _unknown(item_ids, known) -> list[str]:
    """The problem of the ids not among `known` (the database's items; None: not checked),
    listed with the entries' own problems: a file with bad values and unknown ids named only
    the values, and the ids at the next try."""
    missing = [] if known is None else [i for i in item_ids if i not in known]
    if not missing:
        return []
    shown = ", ".join(_short(item_id) for item_id in missing[:SHOWN_PROBLEMS])
    more = len(missing) - SHOWN_PROBLEMS
    return [f"{len(missing)} item(s) of the human baseline are not in the database: {shown}"
            + (f" and {more} more" if more > 0 else "")]


def parse_baseline(data, known=None) -> tuple[str, dict]:
    """(label, {item_id: bool}) from decoded JSON; ResultsError naming the problem, or the
    entries' problems (`listed`), the ids not among `known` (when given) one of them."""
    if isinstance(data, list):
        label, results = "Human", _from_list(data, known)
    elif isinstance(data, dict):
        label = data.get("label")
        found = data["results"] if "results" in data else \
            {key: value for key, value in data.items() if key != "label"}
        if not isinstance(found, dict):
            raise ResultsError(f"results must be {{item_id: true/false}}, not {_short(found)}")
        if any(not key for key in found):
            raise ResultsError("an item id is empty")
        results = _from_map(found, flat="results" not in data, known=known)
    else:
        raise ResultsError(f"{FORMAT}; this file holds {_short(data)}")
    if not results:
        raise ResultsError(f"the baseline has no results; {FORMAT}")
    if label is not None and not isinstance(label, str):
        raise ResultsError(f"the label must be a text, not {_short(label)}")
    label = " ".join((label or "").split()) or "Human"
    if len(label) > LABEL_MAX:
        raise ResultsError(f"the label has {len(label)} characters; at most {LABEL_MAX}")
    return label, results


def read_baseline(path: str | Path, known=None) -> tuple[str, dict]:
    """(label, {item_id: correct}) from a baseline file; ResultsError, naming the file and
    the problem, when it is not one (`known`: the item ids it may name)."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise ResultsError(f"it is over {MAX_FILE_BYTES // 2**20} MB")
        data = json.loads(path.read_bytes().decode("utf-8-sig"))
        return parse_baseline(data, known)
    except OSError as error:
        problem = f"cannot read it ({error.strerror or error})"
    except UnicodeDecodeError as error:
        problem = f"it is not UTF-8 text (byte {error.start})"
    except json.JSONDecodeError as error:
        problem = f"it is not JSON ({error.msg} at line {error.lineno}, column {error.colno})"
    except RecursionError:
        problem = "its JSON is nested too deeply"
    except ResultsError as error:
        problem = str(error)
    raise ResultsError(f"{path.name} is not a human baseline file: {problem}")


def _item_groups(store, results: dict) -> dict[str, tuple]:
    """{item_id: (domain, subtask, reasoning_type)} of the items now; NotFoundError naming
    the baseline's items that do not exist."""
    groups = store.item_groups()[1]
    missing = [item_id for item_id in results if item_id not in groups]
    if missing:
        shown = ", ".join(_short(item_id) for item_id in missing[:SHOWN_PROBLEMS])
        more = len(missing) - SHOWN_PROBLEMS
        raise NotFoundError(f"{len(missing)} item(s) of the human baseline are not in the "
                            f"database: {shown}" + (f" and {more} more" if more > 0 else ""))
    return groups


def summarise_baseline(store, label: str, results: dict) -> dict:
    """{"label", "summary", "results"}: results summarised like a run (micro-averages,
    CIs), grouped by the items' current groups; NotFoundError naming the items that do not
    exist."""
    groups = _item_groups(store, results)
    records = [{"value": "correct" if correct else "wrong", **dict(zip(GROUPS, groups[i]))}
               for i, correct in results.items()]
    return {"label": label, "summary": summarise(records, GROUPS), "results": results}


def baseline_on_items(store, human: dict, items) -> dict:
    """The baseline as a table compares it: on `items` (the items the table's runs share)
    only, as a run is. {"label", "summary", "results", "not_answered", "outside"}: the
    summary of its answers to those items (its n), "not_answered" the items of `items` it
    has no answer for (a category of their own: no participant was asked, so they are
    neither wrong nor unscored) and "outside" its answers to other items, left out. Every
    counter adds up: n + unscored (0: a person's answer is right or wrong) + not answered
    is the number of `items`."""
    results = {item_id: correct for item_id, correct in human["results"].items()
               if item_id in items}
    summary = summarise_baseline(store, human["label"], results)
    return {**summary, "not_answered": len(items) - len(results),
            "outside": len(human["results"]) - len(results)}


def human_summary(store, path: str | Path) -> dict:
    """{"label", "summary", "results"} of a baseline file (the command line's `--human FILE`)."""
    return summarise_baseline(store, *read_baseline(path, set(store.item_groups()[1])))


def stored_summary(store, name: str) -> dict:
    """{"label", "summary", "results"} of the kept baseline called `name` (a `list_baselines` name)."""
    try:
        kept = store.get_human_baseline(name)
    except NotFoundError:
        raise ResultsError(f"no human baseline {name!r}") from None
    return summarise_baseline(store, kept["label"], kept["results"])


def list_baselines(store) -> list[tuple[str, str]]:
    """(label, name) of every kept baseline, by label."""
    return [(b["label"], b["name"]) for b in store.list_human_baselines()]


def baseline_name(label: str) -> str:
    """The name a baseline is kept under: its label with runs of other characters than
    letters, digits, `_`, `.` and `-` made one `-`."""
    return (re.sub(r"[^\w.-]+", "-", label).strip("-.") or "human")[:80]


def add_baseline(store, source: str | Path, author: str | None = None) -> str:
    """Check a baseline file (format, results, every item known) and keep it in the
    database; returns its name. The label of a kept baseline replaces that one; a name
    already kept for another label is refused (ResultsError). Nothing is written on error."""
    label, results = read_baseline(source, set(store.item_groups()[1]))
    name = baseline_name(label)
    with store.atomic():
        try:
            kept = store.get_human_baseline(name)
        except NotFoundError:
            kept = None
        if kept and kept["label"] != label:
            raise ResultsError(f"the name {kept['name']!r} is taken by the human baseline "
                               f"{kept['label']!r}; give this one another label")
        store.add_human_baseline(name, label, results, author, replace=True)
    return name
