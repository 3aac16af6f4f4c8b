"""Handing the memory a large image decode freed back to the system.

Why: glibc keeps freed blocks inside the process for reuse, and the arenas of worker threads
(where decodes run) are never shrunk on their own, so a server's size stayed at its largest
decode's: an attacker's review saw 405 MB at start grow to 1.8 GB after a few 196-megapixel
images, and stay there. malloc_trim(0) returns what is free (measured: a 9000x9000 PNG decoded
twice in two threads, 328 MB -> 19 MB). Elsewhere (musl, macOS) there is nothing to call.
"""
from __future__ import annotations

import ctypes
import ctypes.util

GIVE_BACK_FROM = 64 * 2**20
"""A decode that needed this much memory or more hands what it freed back to the system."""


def _libc_trim():
    """glibc's malloc_trim, or None where the C library has none."""
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None


_TRIM = _libc_trim()


def give_back(needed: int) -> None:
    """After a decode that needed `needed` bytes: return freed memory if it was large (a few
    milliseconds, only then)."""
    if _TRIM is not None and needed >= GIVE_BACK_FROM:
        _TRIM(0)
