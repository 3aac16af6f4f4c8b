"""A bound on the Inspect tab's folder of drawn images (`<media>/inspect-cache/`): at most
`max_bytes` and `max_files`, the least recently used files removed first.

Every cached file is named by a hash of what went into it (ui/inspect_overlay.py), so any
file may be removed at any time: it is drawn again when next needed. "Recently used" is the
file's access time, set on every cache hit (`used`), and its modification time left alone;
a file written is used too. After a write the running total is checked; when it exceeds a
bound, a background thread lists the folder and removes the oldest files until the folder is
at `LOW_WATER` of both bounds (so that pruning happens once in a while, not after every
write). Files used in the last `grace_s` seconds are kept even then, since the page that
asked for them may not have loaded them yet. Several processes may share the folder: each
keeps its own running total, and every pruning reads the folder as it is.

The bounds default to CLUELAB_INSPECT_CACHE_MB (512) and CLUELAB_INSPECT_CACHE_FILES (20,000).
"""
from __future__ import annotations

import os
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

LOW_WATER = 0.8
GRACE_S = 120.0
_PRUNER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="inspect-cache-prune")


def _env_int(name: str, default: int) -> int:
    try:
        return max(1, int(os.environ.get(name, default)))
    except ValueError:
        return default


def default_bounds() -> tuple[int, int]:
    """(max bytes, max files) from the environment."""
    return (_env_int("CLUELAB_INSPECT_CACHE_MB", 512) * 1024 * 1024,
            _env_int("CLUELAB_INSPECT_CACHE_FILES", 20_000))


class CacheBound:
    """Keeps one folder of cached files within a size and a count, LRU by access time."""

    def __init__(self, folder: Path, max_bytes: int | None = None,
                 max_files: int | None = None, grace_s: float | None = None):
        bytes_default, files_default = default_bounds()
        self.folder = Path(folder)
        self.max_bytes = int(max_bytes or bytes_default)
        self.max_files = int(max_files or files_default)
        self.grace_s = GRACE_S if grace_s is None else grace_s
        self._lock = threading.Lock()
        self._bytes: int | None = None   # unknown until the folder is first read
        self._files = 0
        self._pending: Future | None = None
        self._retry_at = 0.0

    def used(self, path: Path) -> bool:
        """Mark a cached file as just used; False when it is not there (any more)."""
        try:
            stat = os.stat(path)
            os.utime(path, ns=(time.time_ns(), stat.st_mtime_ns))
        except FileNotFoundError:
            return False
        return True

    def added(self, path: Path) -> None:
        """Count a file just written; start a pruning in the background when over a bound
        (or when the folder has not been read yet)."""
        try:
            size = os.stat(path).st_size
        except FileNotFoundError:
            return
        with self._lock:
            if self._bytes is not None:
                self._bytes += size
                self._files += 1
            over = self._bytes is None or self._bytes > self.max_bytes or \
                self._files > self.max_files
            if over and (self._pending is None or self._pending.done()) and \
                    time.monotonic() >= self._retry_at:
                self._pending = _PRUNER.submit(self.prune)

    def settle(self, timeout: float = 30.0) -> None:
        """Wait for a pruning started by `added` (tests, benchmarks)."""
        pending = self._pending
        if pending is not None:
            pending.result(timeout)

    def _listing(self) -> list[tuple[float, int, Path]]:
        found = []
        try:
            entries = list(os.scandir(self.folder))
        except FileNotFoundError:
            return found
        for entry in entries:
            try:
                if entry.is_file(follow_symlinks=False):
                    stat = entry.stat(follow_symlinks=False)
                    found.append((stat.st_atime, stat.st_size, Path(entry.path)))
            except FileNotFoundError:
                continue
        return found

    def prune(self) -> int:
        """Remove the least recently used files until the folder is within LOW_WATER of
        both bounds (if it is over one); returns how many were removed."""
        files = self._listing()
        total, count, removed = sum(size for _, size, _ in files), len(files), 0
        if total > self.max_bytes or count > self.max_files:
            keep_bytes, keep_files = self.max_bytes * LOW_WATER, self.max_files * LOW_WATER
            cutoff = time.time() - self.grace_s
            for atime, size, path in sorted(files, key=lambda f: f[0]):
                if total <= keep_bytes and count <= keep_files:
                    break
                if atime > cutoff:
                    break  # sorted by use: all the rest were used just now
                try:
                    if os.stat(path).st_atime > cutoff:  # used since the folder was read
                        continue
                    path.unlink()
                except FileNotFoundError:
                    pass  # another process pruned it
                total -= size
                count -= 1
                removed += 1
        with self._lock:
            self._bytes, self._files = total, count
            # still over (everything was used just now): do not list the folder again at once
            self._retry_at = time.monotonic() + (self.grace_s / 4 if total > self.max_bytes
                                                 or count > self.max_files else 0)
        return removed
