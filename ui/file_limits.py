"""The settings that bound files on the server: how long uploads and downloads are kept, and
sizes ("200mb" in an environment variable, "200 MB" in a message).

Sizes take Gradio's own spelling (CLUELAB_MAX_UPLOAD is handed to Gradio as it is): a whole
number with an optional unit b, kb, mb, gb, tb (powers of 1024, any case).
"""
from __future__ import annotations

import os
import re

UNITS = {"": 1, "B": 1, "KB": 2**10, "MB": 2**20, "GB": 2**30, "TB": 2**40}


def keep_seconds() -> int:
    """How long an upload or a download is kept: CLUELAB_UPLOAD_KEEP_S (3600)."""
    return max(1, int(os.environ.get("CLUELAB_UPLOAD_KEEP_S", "3600")))


def parse_size(text: str) -> int:
    """Bytes of a size such as "4gb", "200 MB" or "1048576"; ValueError if it is none."""
    found = re.fullmatch(r"\s*(\d+)\s*([A-Za-z]*)\s*", str(text))
    if not found or found.group(2).upper() not in UNITS:
        raise ValueError(f"not a size: {text!r} (a number with b, kb, mb, gb or tb)")
    return int(found.group(1)) * UNITS[found.group(2).upper()]


def size_setting(name: str, default: str) -> int:
    """Bytes of the size the environment variable `name` sets (`default` when unset)."""
    return parse_size(os.environ.get(name) or default)


def shown_size(n: int) -> str:
    """A size for a message: "200 MB", "4 GB", "1.5 GB", "512 KB"."""
    for unit in ("TB", "GB", "MB", "KB"):
        if n >= UNITS[unit]:
            value = n / UNITS[unit]
            return f"{value:.0f} {unit}" if value == int(value) or value >= 100 \
                else f"{value:.1f} {unit}"
    return f"{n} bytes"
