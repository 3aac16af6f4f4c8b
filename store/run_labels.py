"""Telling runs apart and removing them: a run's name and note, what it holds, its deletion.

The id stays the key (names need not be unique, renaming changes nothing that refers to the
run). Deleting a run takes its work rows, responses, scores, scorings, failure tags, notes
and tag events with it (the schema's ON DELETE CASCADE), in one transaction; shared data
(items, the response cache, prompt templates, endpoints) stays. A run still executed by a
live process is refused: the caller judges liveness (`is_stale`, as in runner_runs).
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Callable

import sqlite_utils

from domain.item_ids import direction_marks_problem
from domain.limits import MAX_RUN_NAME, MAX_RUN_NOTE

from .db import atomic, rows, scalar
from .errors import ValidationError
from .runner_runs import get_run

MAX_NAME = MAX_RUN_NAME              # domain/limits.py: every limit in one place
MAX_NOTE = MAX_RUN_NOTE


def checked_labels(name: str | None = None, note: str | None = None) -> dict:
    """{'name': …, 'note': …} as a run keeps them (a name is one line, a note stripped; a
    None is left out), or ValidationError past the limits. `label_run` and `run --name/--note`
    (checked before the run is created, so a refused label creates nothing) share it."""
    changes = {}
    if name is not None:
        name = " ".join(name.split())
        if len(name) > MAX_NAME:
            raise ValidationError(f"a run name has at most {MAX_NAME} characters "
                                  f"({len(name)} given)", field="name")
        _refuse_marks("the run name", name, "name")
        changes["name"] = name
    if note is not None:
        note = note.strip()
        if len(note) > MAX_NOTE:
            raise ValidationError(f"a run note has at most {MAX_NOTE} characters "
                                  f"({len(note)} given)", field="note")
        _refuse_marks("the run note", note, "note")
        changes["note"] = note
    return changes


def _refuse_marks(what: str, text: str, field: str) -> None:
    """Text-direction controls in a run's name or note are refused, as in review notes and
    item texts: a name holding U+202E mirrored the app's own words around every label built
    from it ("… 2dd3 di · enod · lluf segami" in Inspect's picker; a review, round 25)."""
    if found := direction_marks_problem(what, text):
        raise ValidationError(found, field=field)


def label_run(db: sqlite_utils.Database, run_id: str, name: str | None = None,
              note: str | None = None) -> dict:
    """Set the run's name and/or note (None: unchanged; '' clears). A name is one line."""
    changes = checked_labels(name, note)
    with atomic(db):
        get_run(db, run_id)
        for column, value in changes.items():  # column names from the two keys above
            db.conn.execute(f"UPDATE model_runs SET {column} = ? WHERE id = ?", [value, run_id])
    return get_run(db, run_id)


def list_names(runs: list[dict]) -> dict[str, str]:
    """{run id: how a list names it}: its name, with ' · <id>' when another of `runs` has
    that name too, its id when it has none. Pure (the caller lists the runs)."""
    counts: dict[str, int] = {}
    for run in runs:
        name = (run.get("name") or "").strip()
        counts[name] = counts.get(name, 0) + 1
    names = {}
    for run in runs:
        name = (run.get("name") or "").strip()
        names[run["id"]] = (f"{name} · {run['id']}" if counts[name] > 1 else name) \
            if name else run["id"]
    return names


def clues_text(config: dict, names: dict[str, str]) -> str:
    """The clue source as every list, picker and table says it after "clues ": another
    run's clues as "of <that run's label>" ('clues of a-cot'; `names`: how the caller's
    list names runs, `scoring.compared.table_names`), one wording everywhere (the runs list
    said 'run:a-cot', the pickers 'of id 121e', the tables 'a-cot clues'); a deleted
    source by its id ('of run 20261206-100826-1d74'); 'none', 'gt', 'self' as stored."""
    clues = str(config.get("clues") or "none")
    if not clues.startswith("run:"):
        return clues
    source = clues[4:]
    return f"of {names[source]}" if source in names else f"of run {source}"


def runs_named(db: sqlite_utils.Database, name: str) -> list[str]:
    """The ids of the runs called `name` (spaces normalised as `label_run` stores them),
    oldest first: names need not be unique, so a caller resolving one must check the count."""
    name = " ".join(str(name).split())
    return [r["id"] for r in rows(db, "SELECT id FROM model_runs WHERE name = ? AND name != '' "
                                      "ORDER BY created_at, id", [name])]


def run_contents(db: sqlite_utils.Database, run_id: str) -> dict:
    """What deleting the run would remove, and the runs that used its clues (their resume
    would lack them): {work, responses, scores, tags, notes, clue_users}."""
    get_run(db, run_id)

    def count(sql: str) -> int:
        return scalar(db, sql, [run_id]) or 0

    users = [r[0] for r in db.conn.execute(
        "SELECT id FROM model_runs WHERE json_extract(config, '$.clues') = ? ORDER BY id",
        [f"run:{run_id}"])]
    return {
        "work": count("SELECT count(*) FROM run_work WHERE run_id = ?"),
        "responses": count("SELECT count(*) FROM run_responses WHERE run_id = ?"),
        "scores": count("SELECT count(*) FROM scores WHERE run_id = ?"),
        "tags": count("SELECT count(*) FROM response_tags t JOIN run_work w ON w.id = t.work_id "
                      "WHERE w.run_id = ?"),
        "notes": count("SELECT count(*) FROM response_notes WHERE run_id = ?"),
        "clue_users": users,
    }


def response_counts(db: sqlite_utils.Database) -> dict[str, int]:
    """{run_id: responses recorded} of the runs that have any (a run that failed its
    pre-flight made no request and is absent)."""
    return dict(db.conn.execute("SELECT run_id, count(*) FROM run_responses GROUP BY run_id"))


def same_readings(db: sqlite_utils.Database, run_id: str) -> dict[str, int]:
    """{source run: this run's results taken from the cache of that run's replies and read
    as that run read them}: the same status, answer, clues and box convention as the
    source's result of the same request (cache key). A reply read otherwise (another box
    convention, another extraction) is counted under no source."""
    return dict(db.conn.execute(
        "SELECT r.cached_from, count(*) FROM run_responses r WHERE r.run_id = ? "
        "AND r.cached = 1 AND coalesce(r.cached_from, '') != '' AND EXISTS (SELECT 1 FROM "
        "run_responses s WHERE s.run_id = r.cached_from AND s.cache_key = r.cache_key "
        "AND s.status = r.status AND s.answer IS r.answer AND s.clues = r.clues "
        "AND s.box_convention IS r.box_convention) GROUP BY r.cached_from", [run_id]))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def contents_text(contents: dict) -> str:
    """'6 responses (of 6 work rows), 12 scores, 1 failure tag and 0 notes'."""
    return (f"{_plural(contents['responses'], 'response')} (of "
            f"{_plural(contents['work'], 'work row')}), {_plural(contents['scores'], 'score')}, "
            f"{_plural(contents['tags'], 'failure tag')} and {_plural(contents['notes'], 'note')}")


def delete_run(db: sqlite_utils.Database, run_id: str,
               is_stale: Callable[[str | None, float | None], bool]) -> dict:
    """Delete the run and everything that is only its own; returns what was removed
    (run_contents). Refused while a live process executes it: pause or cancel it first."""
    with atomic(db):
        run = get_run(db, run_id)
        if run["status"] == "running" and not is_stale(run["owner"], run["heartbeat"]):
            raise ValidationError(f"run {run_id} is running (process {run['owner']}): cancel "
                                  "it first, then delete it", field="id")
        removed = run_contents(db, run_id)
        db.conn.execute("DELETE FROM model_runs WHERE id = ?", [run_id])
    return removed


RUNNER_ID = re.compile(r"\d{8}-\d{6}-[0-9a-f]{4}")
"""A run id as `runner.planning` makes it: the time, then four random hex digits."""


def short_ids(run_ids) -> dict[str, str]:
    """{run id: its short id}: the random part of an id the runner made ('fa73' of
    '20261207-064538-fa73'), the whole id when another of `run_ids` has the same part or the
    id has another form. Pure: the run pickers pass every run they list, the tables every
    stored run, so a short id read anywhere finds one run (`runs_with_short_id`)."""
    tails = {rid: rid[-4:] if RUNNER_ID.fullmatch(rid) else rid for rid in run_ids}
    counts = Counter(tails.values())
    return {rid: tail if counts[tail] == 1 else rid for rid, tail in tails.items()}


def runs_with_short_id(db: sqlite_utils.Database, tail: str) -> list[str]:
    """The ids of the runner-made runs whose random part ('fa73' of '20261207-064538-fa73',
    the short id the run pickers show: ui/run_choices.short_ids) is `tail`, oldest first."""
    tail = str(tail).strip().lower()
    if len(tail) != 4 or any(c not in "0123456789abcdef" for c in tail):
        return []
    return [r["id"] for r in rows(db, "SELECT id FROM model_runs WHERE id GLOB ? "
                                      "ORDER BY created_at, id",
                                  ["[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]-"
                                   "[0-9][0-9][0-9][0-9][0-9][0-9]-" + tail])]
