"""Users, roles and password checks.

Passwords are hashed with scrypt (memory-hard, in the standard library) and a random salt per
user; the parameters are stored with the hash ('scrypt$n$r$p$<hex>') so they can be raised
later without breaking existing accounts. Hashes never leave this module.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets

import sqlite_utils

from domain.user_names import name_problem

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
        db.execute("INSERT INTO users (name, role, password_hash, salt, created_at) "
                   "VALUES (?, ?, ?, ?, ?)", [name, role, _hash(password, salt), salt.hex(), now()])


def set_password(db: sqlite_utils.Database, name: str, password: str) -> None:
    _check_password(name, password)
    salt = secrets.token_bytes(16)
    with atomic(db):
        get_user(db, name)
        db.execute("UPDATE users SET password_hash = ?, salt = ? WHERE name = ?",
                   [_hash(password, salt), salt.hex(), name])


def set_role(db: sqlite_utils.Database, name: str, role: str) -> None:
    _check_role(name, role)
    with atomic(db):
        get_user(db, name)
        db.execute("UPDATE users SET role = ? WHERE name = ?", [role, name])


def check_password(db: sqlite_utils.Database, name: str, password: str) -> bool:
    """True if `password` is the user's password; False for a wrong one or an unknown user.
    An unknown name costs the same hash as a known one, so the time of a refusal does not
    tell which names exist."""
    row = one(db, "SELECT password_hash, salt FROM users WHERE name = ?", [name])
    if not isinstance(password, str):
        return False
    if row is None:
        _hash(password, _NO_SALT)
        return False
    _, n, r, p, _digest = row["password_hash"].split("$")
    expected = _hash(password, bytes.fromhex(row["salt"]), int(n), int(r), int(p))
    return hmac.compare_digest(expected, row["password_hash"])


def get_user(db: sqlite_utils.Database, name: str) -> dict:
    """{name, role, created_at}; NotFoundError if unknown."""
    row = one(db, "SELECT name, role, created_at FROM users WHERE name = ?", [name])
    if row is None:
        raise NotFoundError(f"user {name} not found")
    return row


def list_users(db: sqlite_utils.Database) -> list[dict]:
    return rows(db, "SELECT name, role, created_at FROM users ORDER BY name")
