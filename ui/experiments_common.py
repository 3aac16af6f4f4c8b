"""What the Experiments handlers share: their error, reading numbers from the form, and
keeping API keys off the page.

API keys: only the NAME of the environment variable is ever stored or shown; whatever reaches
the page goes through `redact`, which replaces the value of every endpoint's key variable, as
a second line of defence.
"""
from __future__ import annotations

import os

from ui.text import escape_md


class ExperimentError(ValueError):
    """A problem with what the user asked for; shown as a message, never a traceback."""


def code(text) -> str:
    """Inline code in Markdown for untrusted text. An HTML <code> element, not backticks
    (backslash escapes would show inside `…`); its content is still Markdown, so it gets
    escape_md: a model id `[x](http://…)` from a server's /models list is no link."""
    return f"<code>{escape_md(text)}</code>"


def blank(value) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def as_int(value, name: str, default=None):
    if blank(value):
        return default
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ExperimentError(f"{name}: {value!r} is not a number") from None
    if number != int(number):
        raise ExperimentError(f"{name}: must be a whole number, not {value}")
    return int(number)


def as_float(value, name: str):
    if blank(value):
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        raise ExperimentError(f"{name}: {value!r} is not a number") from None


def key_values(store, extra_env: tuple[str, ...] = ()) -> list[str]:
    """The secret values behind every endpoint's key variable, and behind `extra_env` (a
    form's variable not saved yet), to strip them from output."""
    names = {e["api_key_env"] for e in store.list_endpoints() if e.get("api_key_env")}
    names |= {n for n in extra_env if n}
    return [v for v in (os.environ.get(n, "").strip() for n in names) if len(v) >= 4]


def redact(store, value, extra_env: tuple[str, ...] = ()):
    """`value` (str, or nested lists/dicts of them) with every key value replaced by ***."""
    secrets = key_values(store, extra_env)
    if not secrets:
        return value

    def clean(v):
        if isinstance(v, str):
            for secret in secrets:
                v = v.replace(secret, "***")
            return v
        if isinstance(v, list):
            return [clean(x) for x in v]
        if isinstance(v, tuple):
            return tuple(clean(x) for x in v)
        if isinstance(v, dict):
            return {k: clean(x) for k, x in v.items()}
        return v

    return clean(value)
