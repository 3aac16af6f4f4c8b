"""Users, roles and password checks.

Passwords are hashed with scrypt (memory-hard, in the standard library) and a random salt per
user; the parameters are stored with the hash ('scrypt$n$r$p$<hex>') so they can be raised
later without breaking existing accounts. Hashes never leave this module.

An account can be disabled (it cannot log in, and the server ends its logins at their next
request) and enabled again. `login_epoch` counts the events that end an account's logins (a
new password, a disable): a login remembers the epoch it was made in (ui/login_route.py), and
one of an older epoch is over, so the server, a process of its own, needs no word from the
command line that changed it.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets

import sqlite_utils

from domain.item_ids import visible
from domain.user_names import name_key, name_problem

from .db import atomic, now, one, rows
from .errors import NotFoundError, ValidationError

ROLES = ("admin", "researcher", "annotator", "participant")
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2 ** 14, 8, 1
_NO_SALT = secrets.token_bytes(16)      # hashed against for an unknown name (check_password)


def _hash(password: str, salt: bytes, n: int = SCRYPT_N, r: int = SCRYPT_R,
          p: int = SCRYPT_P) -> str:
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=r, p=p, dklen=32)
    return f"scrypt${n}${r}${p}${digest.hex()}"


def _check_role(name: str, role: str) -> None:
    if role not in ROLES:
        raise ValidationError(f"user {name}: role: unknown role {role!r}; "
                              f"expected one of {', '.join(ROLES)}", field="role")


def _check_password(name: str, password: str) -> None:
    if not isinstance(password, str) or not password:
        raise ValidationError(f"user {name}: password: missing or empty", field="password")


def add_user(db: sqlite_utils.Database, name: str, role: str, password: str) -> None:
    """Create a user; ValidationError for a name domain/user_names.py refuses or one taken,
    an unknown role or no password."""
    if (problem := name_problem(name)) is not None:       # domain/user_names.py: one rule
        raise ValidationError(f"user: name: {problem}", field="name")
    _check_role(name, role)
    _check_password(name, password)
    salt = secrets.token_bytes(16)
    with atomic(db):
        if one(db, "SELECT 1 AS x FROM users WHERE name = ?", [name]):
            raise ValidationError(f"user {name}: name: already exists", field="name")
        key = name_key(name)
        alike = next((r["name"] for r in rows(db, "SELECT name FROM users ORDER BY name")
                      if name_key(r["name"]) == key), None)
        if alike is not None:
            raise ValidationError(f"user {name}: name: reads as the existing user "
                                  f"{visible(alike)} (names that differ only by case or by "
                                  "look-alike characters are one name to a reader)",
                                  field="name")
        db.execute("INSERT INTO users (name, role, password_hash, salt, created_at) "
                   "VALUES (?, ?, ?, ?, ?)", [name, role, _hash(password, salt), salt.hex(), now()])


def m0015_user_access(db: sqlite_utils.Database) -> None:
    """Disabled accounts, and the epoch of logins (ended by a new password or a disable)."""
    db.execute("ALTER TABLE users ADD COLUMN disabled_at TEXT")
    db.execute("ALTER TABLE users ADD COLUMN login_epoch INTEGER NOT NULL DEFAULT 0")


def set_password(db: sqlite_utils.Database, name: str, password: str) -> None:
    """A new password; every login of the account made before it ends."""
    _check_password(name, password)
    salt = secrets.token_bytes(16)
    with atomic(db):
        get_user(db, name)
        db.execute("UPDATE users SET password_hash = ?, salt = ?, "
                   "login_epoch = login_epoch + 1 WHERE name = ?",
                   [_hash(password, salt), salt.hex(), name])


def set_disabled(db: sqlite_utils.Database, name: str, disabled: bool) -> bool:
    """Disable the account (it cannot log in; its logins end) or enable it again; False when
    it already was so (nothing changes)."""
    with atomic(db):
        if (get_user(db, name)["disabled_at"] is not None) == disabled:
            return False
        if disabled:
            db.execute("UPDATE users SET disabled_at = ?, login_epoch = login_epoch + 1 "
                       "WHERE name = ?", [now(), name])
        else:
            db.execute("UPDATE users SET disabled_at = NULL WHERE name = ?", [name])
    return True


def set_role(db: sqlite_utils.Database, name: str, role: str) -> None:
    _check_role(name, role)
    with atomic(db):
        get_user(db, name)
        db.execute("UPDATE users SET role = ? WHERE name = ?", [role, name])


def check_password(db: sqlite_utils.Database, name: str, password: str) -> bool:
    """True if `password` is the user's password; False for a wrong one, an unknown user or
    a disabled one. An unknown name costs the same hash as a known one, so the time of a
    refusal does not tell which names exist (nor whether an account is disabled)."""
    row = one(db, "SELECT password_hash, salt, disabled_at FROM users WHERE name = ?", [name])
    if not isinstance(password, str):
        return False
    if row is None:
        _hash(password, _NO_SALT)
        return False
    _, n, r, p, _digest = row["password_hash"].split("$")
    expected = _hash(password, bytes.fromhex(row["salt"]), int(n), int(r), int(p))
    return hmac.compare_digest(expected, row["password_hash"]) and row["disabled_at"] is None


def get_user(db: sqlite_utils.Database, name: str) -> dict:
    """{name, role, created_at, disabled_at (None: enabled), login_epoch}; NotFoundError if
    unknown."""
    row = one(db, "SELECT name, role, created_at, disabled_at, login_epoch FROM users "
              "WHERE name = ?", [name])
    if row is None:
        raise NotFoundError(f"user {name} not found")
    return row


def list_users(db: sqlite_utils.Database) -> list[dict]:
    return rows(db, "SELECT name, role, created_at, disabled_at FROM users ORDER BY name")
