"""A dependency-free progress bar for long CLI work (imports, runs).

Drawn on stderr only when it is a terminal, so piped output and `--json` stay clean.
"""
from __future__ import annotations

import sys
import time


class TerminalProgress:
    def __init__(self, label: str, stream=None):
        self.label = label
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty()
        self.started = time.monotonic()
        self._last_draw = 0.0

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if done < total and now - self._last_draw < 0.1:
            return
        self._last_draw = now
        width = 30
        frac = done / total if total else 1.0
        bar = "#" * int(frac * width)
        rate = done / max(now - self.started, 1e-9)
        self.stream.write(
            f"\r{self.label} [{bar:<{width}}] {done}/{total} ({rate:.0f}/s)"
        )
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()
