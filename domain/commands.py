"""The command lines ClueLab quotes to its users: `python app.py WORD ...`, whole and runnable.

A message, a note under a table or a run's stop message says what to run next, and a user
pastes it into a shell. So each quoted command is built here, each word shell-quoted, and
names the database the process works on when it is not the default `cluelab.db`: quoted
from a command run with `--db runs/study.db`, "python app.py run --resume ID" failed ("database
cluelab.db does not exist") or, worse, read another database.
"""
from __future__ import annotations

import shlex
from pathlib import Path

APP = ("python", "app.py")
DEFAULT_DB = "cluelab.db"
_quoted_db: list[str | None] = [None]      # the process's database, when not the default


def quote_db(path: str | Path | None) -> None:
    """Make every command quoted from now on name `path` (the process's database), unless
    it is the default `cluelab.db`."""
    if path is None or str(path) == DEFAULT_DB:
        _quoted_db[0] = None
    else:
        _quoted_db[0] = str(Path(path).resolve())


def command(*words) -> str:
    """`python app.py WORD ... [--db DB]`, each word quoted for a POSIX shell when it needs it."""
    tail = ("--db", _quoted_db[0]) if _quoted_db[0] else ()
    return " ".join(shlex.quote(str(word)) for word in (*APP, *words, *tail))
