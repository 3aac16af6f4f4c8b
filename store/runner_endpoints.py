"""Model endpoints and the price table (the runner's configuration that outlives runs).

An endpoint names an OpenAI-compatible server and model. Its API key is never stored: only
the *name* of the environment variable that holds it (`api_key_env`), so a database can be
shared, backed up or shown in a UI without leaking credentials.

Prices map a model id or glob pattern to USD per million input/output tokens; they are
user-editable because providers change them and local servers cost nothing.
"""
from __future__ import annotations

import fnmatch
import json
import re
from urllib.parse import urlsplit

import sqlite_utils

from .db import atomic, now, one, rows
from .errors import NotFoundError, ValidationError

ENDPOINT_FIELDS = ("base_url", "model", "api_key_env", "concurrency", "max_image_pixels",
                   "params")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:@+-]{0,63}$")
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _endpoint(row: dict) -> dict:
    return dict(row, params=json.loads(row["params"] or "{}"))


def url_has_credentials(url: str) -> bool:
    """Whether an http(s) URL carries user info (`user:pass@host`) before its host."""
    return "@" in urlsplit(url).netloc


def check_base_url(name: str, url: str) -> None:
    """ValidationError unless `url` is an http(s) URL without credentials (not quoted: a
    pasted key may be in it). Test connection checks the form's URL with it before trying."""
    if not re.match(r"^https?://[^/\s]+", url):
        raise ValidationError(f"endpoint {name}: base_url: not an http(s) URL, "
                              "e.g. http://localhost:8000/v1", field="base_url")
    if url_has_credentials(url):
        raise ValidationError(f"endpoint {name}: base_url: holds a user name or password "
                              "(user:pass@host); URLs are shown in messages and stored, so put "
                              "the key in an environment variable and name it in api_key_env",
                              field="base_url")


def _check_endpoint(name: str, fields: dict) -> None:
    """ValidationError naming the field; catches the mistakes a CLI user makes."""
    if not _NAME.match(name or ""):
        raise ValidationError(f"endpoint {name!r}: name: use letters, digits and _.:@+- "
                              "(at most 64 characters)", field="name")
    if fields.get("base_url") is not None:
        check_base_url(name, fields["base_url"])
    if "model" in fields and not (fields["model"] or "").strip():
        raise ValidationError(f"endpoint {name}: model: empty", field="model")
    env = fields.get("api_key_env")
    if env and not _ENV_NAME.match(env):
        raise ValidationError(  # the value is not repeated: it may be a pasted key
            f"endpoint {name}: api_key_env: not an environment variable name (give the NAME "
            "of the variable holding the key, e.g. OPENAI_API_KEY, never the key itself)",
            field="api_key_env")
    if "concurrency" in fields and not (isinstance(fields["concurrency"], int)
                                        and 1 <= fields["concurrency"] <= 4096):
        raise ValidationError(f"endpoint {name}: concurrency: must be 1..4096",
                              field="concurrency")
    pixels = fields.get("max_image_pixels")
    if pixels is not None and not (isinstance(pixels, int) and pixels >= 1024):
        raise ValidationError(f"endpoint {name}: max_image_pixels: must be >= 1024",
                              field="max_image_pixels")
    if "params" in fields and not isinstance(fields["params"], dict):
        raise ValidationError(f"endpoint {name}: params: must be a JSON object",
                              field="params")


def add_endpoint(db: sqlite_utils.Database, name: str, base_url: str, model: str,
                 api_key_env: str | None = None, concurrency: int = 8,
                 max_image_pixels: int | None = None, params: dict | None = None) -> dict:
    fields = {"base_url": base_url.rstrip("/"), "model": model, "api_key_env": api_key_env or None,
              "concurrency": concurrency, "max_image_pixels": max_image_pixels,
              "params": params or {}}
    _check_endpoint(name, fields)
    stamp = now()
    with atomic(db):
        if one(db, "SELECT 1 FROM endpoints WHERE name = ?", [name]):
            raise ValidationError(f"endpoint {name} already exists (edit it instead)",
                                  field="name")
        db.conn.execute(
            "INSERT INTO endpoints (name, base_url, model, api_key_env, concurrency, "
            "max_image_pixels, params, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?)",
            [name, fields["base_url"], model, fields["api_key_env"], concurrency,
             max_image_pixels, json.dumps(fields["params"], sort_keys=True), stamp, stamp])
    return get_endpoint(db, name)


def update_endpoint(db: sqlite_utils.Database, name: str, **fields) -> dict:
    """Change some fields; unknown field names are refused rather than ignored."""
    unknown = set(fields) - set(ENDPOINT_FIELDS)
    if unknown:
        raise ValidationError(f"endpoint {name}: unknown fields {sorted(unknown)}")
    if "base_url" in fields and fields["base_url"]:
        fields["base_url"] = fields["base_url"].rstrip("/")
    if "api_key_env" in fields:
        fields["api_key_env"] = fields["api_key_env"] or None
    _check_endpoint(name, fields)
    with atomic(db):
        get_endpoint(db, name)
        for field, value in fields.items():
            if field == "params":
                value = json.dumps(value, sort_keys=True)
            db.conn.execute(f"UPDATE endpoints SET {field} = ?, updated_at = ? WHERE name = ?",
                            [value, now(), name])
    return get_endpoint(db, name)


def get_endpoint(db: sqlite_utils.Database, name: str) -> dict:
    row = one(db, "SELECT * FROM endpoints WHERE name = ?", [name])
    if row is None:
        known = [r["name"] for r in rows(db, "SELECT name FROM endpoints ORDER BY name")]
        raise NotFoundError(f"no endpoint named {name!r}"
                            + (f"; known: {', '.join(known)}" if known else
                               "; add one with `python app.py endpoint add`"))
    return _endpoint(row)


def list_endpoints(db: sqlite_utils.Database) -> list[dict]:
    return [_endpoint(r) for r in rows(db, "SELECT * FROM endpoints ORDER BY name")]


def delete_endpoint(db: sqlite_utils.Database, name: str) -> None:
    """Runs keep a snapshot of their endpoint, so deleting one never orphans results."""
    with atomic(db):
        get_endpoint(db, name)
        db.conn.execute("DELETE FROM endpoints WHERE name = ?", [name])


def set_price(db: sqlite_utils.Database, pattern: str, input_per_m: float,
              output_per_m: float) -> None:
    if not pattern or not pattern.strip():
        raise ValidationError("price: empty model pattern", field="pattern")
    for label, value in (("input", input_per_m), ("output", output_per_m)):
        if value is None or value < 0:
            raise ValidationError(f"price {pattern}: {label}: must be >= 0 USD per 1M tokens",
                                  field=label)
    with atomic(db):
        db.conn.execute(
            "INSERT INTO prices (pattern, input_per_m, output_per_m, updated_at) "
            "VALUES (?, ?, ?, ?) ON CONFLICT(pattern) DO UPDATE SET "
            "input_per_m = excluded.input_per_m, output_per_m = excluded.output_per_m, "
            "updated_at = excluded.updated_at",
            [pattern.strip(), float(input_per_m), float(output_per_m), now()])


def delete_price(db: sqlite_utils.Database, pattern: str) -> None:
    with atomic(db):
        if not db.conn.execute("DELETE FROM prices WHERE pattern = ?", [pattern]).rowcount:
            raise NotFoundError(f"no price for {pattern!r}")


def list_prices(db: sqlite_utils.Database) -> list[dict]:
    return rows(db, "SELECT pattern, input_per_m, output_per_m, updated_at FROM prices "
                    "ORDER BY pattern")


def price_for(db: sqlite_utils.Database, model: str) -> dict | None:
    """The price row that applies to `model`: an exact match first, else the longest
    matching glob (so 'gpt-4o-mini*' beats 'gpt-4o*'); None when no row matches."""
    prices = list_prices(db)
    exact = [p for p in prices if p["pattern"] == model]
    if exact:
        return exact[0]
    matching = [p for p in prices if fnmatch.fnmatchcase(model, p["pattern"])]
    return max(matching, key=lambda p: len(p["pattern"])) if matching else None
