"""Starting a run in its own process, so that it outlives the UI request (and the browser).

The UI plans and creates a run, then hands it to `python app.py run --resume ID`, started
in a new session: closing the browser, reloading the page or restarting the UI server does
not stop it, any user can watch its counters in `model_runs`, and pause/cancel reach it
through `model_runs.control`. Its output goes to a log file beside the database.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

APP = Path(__file__).resolve().parent.parent / "app.py"


def log_path(db_path: str | Path, run_id: str) -> Path:
    db_path = Path(db_path)
    return db_path.with_name(f"{db_path.stem}-runs") / f"{run_id}.log"


def start_detached(db_path: str | Path, run_id: str, retry_errors: bool = False) -> int:
    """Start (or resume) `run_id` in a detached process; returns its pid."""
    log = log_path(db_path, run_id)
    log.parent.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, str(APP), "run", "--db", str(db_path), "--resume", run_id,
               "--json"] + (["--retry-errors"] if retry_errors else [])
    with open(log, "ab") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, start_new_session=True,
                                   cwd=str(APP.parent))
    return process.pid


def hand_over(store, run_id: str, pid: int) -> dict:
    """Make the process `pid` just started for `run_id` its owner at once (status
    'running'), so that every view shows the run running from the moment it was resumed,
    not its stopped state for the ~2 s the process takes to start and claim it itself. The
    process finds itself the owner and goes on; one that dies first leaves the run
    'interrupted' (its pid gone), as any run whose process died."""
    from runner.leases import owner_is_stale, owner_of

    return store.claim_run(run_id, owner_of(pid), owner_is_stale)
