"""`user add` refuses a name that would forge log lines or read as markup (domain/
user_names.py: the item ids' rule, and no markup characters), saying why; the name, as the
message shows it, has its hidden characters written out."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.live_server import ROOT


def user_add(db, name: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "app.py"), "user", "add", name,
                           "--role", "annotator", "--db", str(db)], capture_output=True,
                          text=True, env={**os.environ, "CLUELAB_PASSWORD": "long-enough-1"})


@pytest.mark.parametrize("name, said", [
    ("eve\r\n2026-01-01 INFO cluelab: forged", "eve\\u000d\\u000a2026"),
    ("tab\there", "control, invisible or text-direction"),
    ("rtl\u202eevil", "rtl\\u202eevil"),
    ("zero\u200bwidth", "zero\\u200bwidth"),
    ("<img src=x onerror=alert(1)>", "read as markup"),
    ("a&b", "read as markup"),
    ("o'brien", "read as markup"),
    (" ann", "spaces"),
])
def test_user_add_refuses_a_name_that_forges_lines_or_reads_as_markup(tmp_path, name, said):
    got = user_add(tmp_path / "u.db", name)
    assert got.returncode == 2 and got.stdout == ""
    assert got.stderr.startswith("error: user: name: ") and said in got.stderr
    assert "\r" not in got.stderr and "\u202e" not in got.stderr and "\u200b" not in got.stderr


def test_user_add_takes_an_ordinary_name(tmp_path):
    for name in ("ann", "Anna-Lena.Müller", "r2d2_bot", "Zoë Ng"):
        assert user_add(tmp_path / "u.db", name).returncode == 0, name
