"""Who is executing a run: this process's owner id, and whether another owner is gone.

The store records `owner` ('host:pid') and a heartbeat for the executing process; this
module supplies the judgement the store cannot make without the OS: on this host a process
is gone when its pid no longer exists (or is a zombie); on another host we can only trust
the heartbeat. Inside one process, `active()` refuses a second execution of the same run
(two UI threads), which the owner id alone cannot tell apart.
"""
from __future__ import annotations

import contextlib
import os
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Iterator

def owner_of(pid: int) -> str:
    """The owner id of the process `pid` on this host ('host:pid')."""
    return f"{socket.gethostname()}:{pid}"


OWNER = owner_of(os.getpid())
STALE_AFTER = 60.0
"""Seconds without a heartbeat after which an owner on another host is presumed dead."""

_active: set[str] = set()
_lock = threading.Lock()


class RunBusy(RuntimeError):
    """The run is already being executed by this process."""


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a killed child its parent has not reaped yet still answers kill(0)
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        return state != "Z"
    except (OSError, IndexError):
        return True


def owner_is_stale(owner: str | None, heartbeat: float | None) -> bool:
    """True when the recorded owner of a run can no longer be executing it."""
    if not owner:
        return True
    host, _, pid = owner.rpartition(":")
    if host == socket.gethostname() and pid.isdigit():
        if int(pid) == os.getpid():
            return False  # this very process: `active()` guards against re-entry
        return not pid_alive(int(pid))
    return heartbeat is None or time.time() - heartbeat > STALE_AFTER


@contextlib.contextmanager
def active(run_id: str) -> Iterator[None]:
    with _lock:
        if run_id in _active:
            raise RunBusy(f"run {run_id} is already being executed by this process")
        _active.add(run_id)
    try:
        yield
    finally:
        with _lock:
            _active.discard(run_id)


def warn(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr, flush=True)


def effective_status(run: dict) -> str:
    """The status to show: a run recorded as 'running' whose process is gone is
    'interrupted' (resumable), which the database alone cannot know."""
    if run["status"] == "running" and owner_is_stale(run.get("owner"), run.get("heartbeat")):
        return "interrupted"
    return run["status"]
