"""Helpers shared by the benchmark scripts (not a test module; no pytest here).

Every script in bench/ is a CLI (`--help`) that prints human-readable progress on stderr and a
single JSON summary line as the last line of stdout.
"""
from __future__ import annotations

import json
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "bench" / "out"
DEFAULT_JSON = REPO.parent / "shared" / "data" / "mmr-life" / "MMR_Life.json"
DEFAULT_TREE = OUT / "mmr-life"
DEFAULT_DB = OUT / "mmr.db"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]

if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))


def log(*parts) -> None:
    print(*parts, file=sys.stderr, flush=True)


def percentile(values, q: float) -> float:
    """Linear-interpolated percentile (q in 0..100), like numpy's default."""
    data = sorted(values)
    if not data:
        return float("nan")
    if len(data) == 1:
        return data[0]
    pos = (len(data) - 1) * q / 100
    lo = int(pos)
    hi = min(lo + 1, len(data) - 1)
    return data[lo] + (data[hi] - data[lo]) * (pos - lo)


def summarize(values, unit_scale: float = 1.0, digits: int = 1) -> dict:
    """n, median, p95, min, max (scaled, e.g. seconds -> ms with unit_scale=1000)."""
    vals = [v * unit_scale for v in values]
    if not vals:
        return {"n": 0}
    return {"n": len(vals), "median": round(statistics.median(vals), digits),
            "p95": round(percentile(vals, 95), digits), "min": round(min(vals), digits),
            "max": round(max(vals), digits)}


def machine() -> dict:
    """What the figures were measured on."""
    info = {"nproc": os.cpu_count(), "python": platform.python_version(),
            "platform": platform.platform(),
            "loadavg_1_5_15": [round(x, 2) for x in os.getloadavg()]}
    try:
        with open("/proc/meminfo") as f:
            kb = int(next(line for line in f if line.startswith("MemTotal")).split()[1])
        info["memory_gib"] = round(kb / 1024 / 1024, 1)
    except (OSError, StopIteration, ValueError):
        pass
    try:
        with open("/proc/cpuinfo") as f:
            info["cpu"] = next(line for line in f if line.startswith("model name")).split(":", 1)[1].strip()
    except (OSError, StopIteration):
        pass
    for mod in ("gradio", "gradio_client", "playwright"):
        try:
            from importlib.metadata import version
            info[mod] = version(mod)
        except Exception:
            pass
    try:
        out = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True, timeout=20)
        info["chromium"] = out.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    return info


def emit(summary: dict) -> None:
    """The JSON summary line, always last on stdout."""
    print(json.dumps(summary, ensure_ascii=False, sort_keys=False), flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`python app.py serve --db DB --port P --no-auth` in a subprocess (like tests/live_server)."""

    def __init__(self, db: Path, *flags: str, env: dict | None = None, timeout: float = 90):
        db = Path(db).resolve()
        if not db.exists():
            # the server would seed the demo dataset into a new file: refuse instead
            raise SystemExit(f"database {db} does not exist")
        self.db = db
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = db.with_suffix(".server.log")
        self._log = open(self.log_path, "w")
        started = time.perf_counter()
        self.proc = subprocess.Popen(
            [sys.executable, str(REPO / "app.py"), "serve", "--db", str(db),
             "--port", str(self.port), "--no-auth", *flags],
            cwd=db.parent, stdout=self._log, stderr=subprocess.STDOUT,
            env={**os.environ, "GRADIO_ANALYTICS_ENABLED": "False", **(env or {})},
        )
        self._wait(timeout)
        self.startup_s = time.perf_counter() - started

    def _wait(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()}")
            try:
                with urllib.request.urlopen(self.url + "/", timeout=2):
                    return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"server did not start: {self.log_path.read_text()}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self._log.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
