"""Runs: creation (with all their work rows, in one transaction), status, live counters,
pause/cancel requests and the ownership lease that keeps two processes off one run.

Why a lease: "never pay twice" needs exactly one process dispatching a run's work. The
executing process writes its `owner` ('host:pid') and a `heartbeat` with every batch commit;
another process may take the run over only when the owner is known dead or silent. The
decision whether an owner is alive is the caller's (`is_stale`), since it needs the OS.
"""
from __future__ import annotations

import json
import time
from typing import Callable, Iterable

import sqlite_utils

from domain.item_ids import DIRECTION_MARKS

from .db import atomic, now, one, rows
from .errors import ConflictError, NotFoundError, ValidationError

RUN_STATUSES = ("created", "running", "paused", "cancelled", "stopped", "failed", "done")
CONTROLS = ("pause", "cancel")


def _run(row: dict) -> dict:
    out = dict(row)
    for key in ("config", "execution", "totals", "retried"):
        out[key] = json.loads(out.get(key) or "{}")
    # a name or note saved before they were refused text-direction controls
    # (store/run_labels.py) is read without them: every label is built from these
    for key in ("name", "note"):
        if out.get(key):
            out[key] = "".join(ch for ch in out[key] if ord(ch) not in DIRECTION_MARKS)
    return out


def create_run(db: sqlite_utils.Database, run_id: str, config_id: str, config: dict,
               execution: dict, endpoint: str, work: Iterable[tuple], author: str | None
               ) -> int:
    """Insert the run and every work row `(phase, item_id, repeat, sample, seed,
    item_version)` at once, so a run never exists half-planned. Returns the number of work
    rows. (`item_version` may be left out: None.)"""
    with atomic(db):
        if one(db, "SELECT 1 FROM model_runs WHERE id = ?", [run_id]):
            raise ValidationError(f"run {run_id} already exists", field="id")
        db.conn.execute(
            "INSERT INTO model_runs (id, config_id, config, execution, endpoint, status, "
            "totals, created_at, created_by) VALUES (?, ?, ?, ?, ?, 'created', '{}', ?, ?)",
            [run_id, config_id, json.dumps(config, sort_keys=True),
             json.dumps(execution, sort_keys=True), endpoint, now(), author])
        cursor = db.conn.executemany(
            "INSERT INTO run_work (run_id, phase, item_id, repeat, sample, seed, item_version) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)", ((run_id, *w, None)[:7] for w in work))
        count = cursor.rowcount
    return count


def get_run(db: sqlite_utils.Database, run_id: str) -> dict:
    row = one(db, "SELECT * FROM model_runs WHERE id = ?", [run_id])
    if row is None:
        raise NotFoundError(f"no run {run_id!r}")
    return _run(row)


def list_runs(db: sqlite_utils.Database, limit: int | None = None) -> list[dict]:
    # newest first; runs made within one second (created_at's resolution) in the order they
    # were made (rowid), not by their ids' random suffixes
    sql = "SELECT * FROM model_runs ORDER BY created_at DESC, rowid DESC"
    params: list = []
    if limit is not None:
        sql += " LIMIT ?"
        params.append(int(limit))
    return [_run(r) for r in rows(db, sql, params)]


def claim_run(db: sqlite_utils.Database, run_id: str, owner: str,
              is_stale: Callable[[str | None, float | None], bool]) -> dict:
    """Make `owner` the executing process of the run (status 'running').

    Refused with ConflictError while another live owner runs it. Clears any pause/cancel
    request, since claiming is an explicit start or resume; except when `owner` holds the
    run already: the page hands a run to the process it starts (runner/background.hand_over)
    and the process claims it again when it is up, seconds later. A pause asked in between
    was cleared by that second claim, and the run went on to 'done' while the page had said
    it was pausing.
    """
    with atomic(db):
        run = get_run(db, run_id)
        keep = run["status"] == "running" and run["owner"] == owner
        if (run["status"] == "running" and run["owner"] not in (None, owner)
                and not is_stale(run["owner"], run["heartbeat"])):
            raise ConflictError(
                run_id, None, run["owner"], None,
                message=(f"run {run_id} is being executed by {run['owner']} (last heartbeat "
                         f"{time.time() - (run['heartbeat'] or 0):.0f} s ago); "
                         "pause it first, or wait until that process has stopped"))
        db.conn.execute(
            "UPDATE model_runs SET status = 'running', owner = ?, heartbeat = ?, "
            "control = CASE WHEN ? THEN control END, message = '', "
            "started_at = coalesce(started_at, ?), finished_at = NULL "
            "WHERE id = ?", [owner, time.time(), keep, now(), run_id])
    return get_run(db, run_id)


def finish_run(db: sqlite_utils.Database, run_id: str, owner: str, status: str,
               message: str, totals: dict) -> None:
    """Leave the run in a final or resumable state and release the lease."""
    if status not in RUN_STATUSES:
        raise ValidationError(f"unknown run status {status!r}")
    with atomic(db):
        db.conn.execute(
            "UPDATE model_runs SET status = ?, message = ?, totals = ?, owner = NULL, "
            "heartbeat = ?, control = NULL, finished_at = ? WHERE id = ? AND "
            "(owner IS NULL OR owner = ?)",
            [status, message, json.dumps(totals, sort_keys=True), time.time(), now(), run_id,
             owner])


def set_execution(db: sqlite_utils.Database, run_id: str, execution: dict) -> None:
    """Replace the run's execution settings (a resume may change budget or deadline)."""
    with atomic(db):
        db.conn.execute("UPDATE model_runs SET execution = ? WHERE id = ?",
                        [json.dumps(execution, sort_keys=True), run_id])


def request_control(db: sqlite_utils.Database, run_id: str, control: str | None,
                    message: str | None = None) -> dict:
    """Ask the executing process to pause or cancel (it polls this column), or clear it.

    A run that nobody executes changes state at once: pausing a 'created' run makes it
    'paused', cancelling a stopped run makes it 'cancelled'; its message then becomes
    `message` when given (what the run was left with), else stays.
    """
    if control is not None and control not in CONTROLS:
        raise ValidationError(f"unknown run control {control!r}; expected pause or cancel")
    with atomic(db):
        run = get_run(db, run_id)
        if run["status"] == "running":
            db.conn.execute("UPDATE model_runs SET control = ? WHERE id = ?", [control, run_id])
        elif control == "cancel" and run["status"] != "done":
            db.conn.execute("UPDATE model_runs SET status = 'cancelled', control = NULL, "
                            "message = coalesce(?, message) WHERE id = ?", [message, run_id])
        elif control == "pause" and run["status"] == "created":
            db.conn.execute("UPDATE model_runs SET status = 'paused', control = NULL, "
                            "message = coalesce(?, message) WHERE id = ?", [message, run_id])
    return get_run(db, run_id)


def read_control(db: sqlite_utils.Database, run_id: str) -> str | None:
    row = db.conn.execute("SELECT control FROM model_runs WHERE id = ?", [run_id]).fetchone()
    return row[0] if row else None


def runs_with_config(db: sqlite_utils.Database, config_id: str) -> list[dict]:
    return [_run(r) for r in rows(db, "SELECT * FROM model_runs WHERE config_id = ? "
                                      "ORDER BY created_at", [config_id])]
