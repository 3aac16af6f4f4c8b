"""domain/commands.py: the commands ClueLab quotes run as written, on the right database."""
from __future__ import annotations

import shlex
from pathlib import Path

from domain.commands import command, quote_db


def test_a_quoted_command_names_a_database_that_is_not_the_default(tmp_path):
    try:
        assert command("runs", "--show", "a b") == "python app.py runs --show 'a b'"
        quote_db(tmp_path / "my study.db")
        assert shlex.split(command("run", "--resume", "r1")) == [
            "python", "app.py", "run", "--resume", "r1", "--db",
            str((tmp_path / "my study.db").resolve())]
        quote_db("cluelab.db")
        assert command("runs") == "python app.py runs"
        quote_db(Path("sub") / "x.db")                 # relative: resolved, as the shell's
        assert command("runs").endswith(shlex.quote(str(Path("sub/x.db").resolve())))
    finally:
        quote_db(None)
