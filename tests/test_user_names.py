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


def user_command(db, *words: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "app.py"), "user", *words, "--db",
                           str(db)], capture_output=True, text=True,
                          env={**os.environ, "CLUELAB_PASSWORD": "long-enough-2"})


def test_user_add_refuses_a_name_that_reads_as_an_existing_one_or_is_too_long(tmp_path):
    """ADMIN1 and ａdmin1 (fullwidth) beside admin1, and a 300-character name, were taken (a
    security review): a reader takes them for one name, and a name is no longer than an id."""
    db = tmp_path / "u.db"
    assert user_add(db, "admin1").returncode == 0
    for name in ("ADMIN1", "\uff41dmin1", "Admin\uff11"):
        got = user_add(db, name)
        assert got.returncode == 2, name
        assert "reads as the existing user admin1" in got.stderr, got.stderr
    got = user_add(db, "n" * 300)
    assert got.returncode == 2 and "at most 200 characters; this one is 300" in got.stderr
    assert "n" * 100 not in got.stderr
    assert user_add(db, "n" * 200).returncode == 0
    listed = user_command(db, "list").stdout
    assert "ADMIN1" not in listed and "\uff41dmin1" not in listed


def test_names_taken_before_the_rule_stay_usable_by_their_exact_name(tmp_path):
    import sqlite3
    db = tmp_path / "u.db"
    assert user_add(db, "admin1").returncode == 0
    long_name = "m" * 300
    with sqlite3.connect(db) as con:                 # as a database made before the rule
        for name in ("ADMIN1", long_name):
            con.execute("INSERT INTO users (name, role, password_hash, salt, created_at) "
                        "SELECT ?, role, password_hash, salt, created_at FROM users "
                        "WHERE name = 'admin1'", [name])
    assert user_command(db, "role", "ADMIN1", "researcher").returncode == 0
    assert user_command(db, "password", long_name).returncode == 0
    assert user_command(db, "disable", long_name).returncode == 0
    with sqlite3.connect(db) as con:
        roles = dict(con.execute("SELECT name, role FROM users"))
    assert roles == {"admin1": "annotator", "ADMIN1": "researcher", long_name: "annotator"}
    assert user_add(db, "someone-else").returncode == 0
