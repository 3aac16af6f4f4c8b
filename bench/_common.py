"""Helpers shared by the benchmark scripts (not a test module; no pytest here).

Every script in bench/ is a CLI (`--help`) that prints human-readable progress on stderr and a
single JSON summary line as the last line of stdout. They are run from the repository root as
modules, `python -m bench.<script>`, so the repository's packages import as themselves; a script
that starts another bench script (or itself) in a child process does it the same way
(`module_command`).
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



def module_command(module: str, *args: str) -> list[str]:
    """`python -m bench.<module> ARGS`, for a child process started with `cwd=REPO` (or
    `module_env()`), which is where `-m` looks for the `bench` package."""
    return [sys.executable, "-m", f"bench.{module}", *args]


def module_env(**extra: str) -> dict:
    """This process's environment with the repository on PYTHONPATH, for a `module_command`
    child whose working directory is not the repository (a server runs beside its database)."""
    return {**os.environ, "PYTHONPATH": str(REPO), **extra}


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
    info["code"] = code_state()
    return info


def code_state() -> dict:
    """Commit and uncommitted changes of the code measured (read-only git commands)."""
    state = {}
    try:
        state["commit"] = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO,
                                         capture_output=True, text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "store", "formats", "ui",
                                "cli", "app.py"], cwd=REPO, capture_output=True, text=True,
                               timeout=10).stdout.split("\n")
        state["uncommitted"] = [line.strip() for line in dirty if line.strip()]
    except (OSError, subprocess.SubprocessError):
        pass
    return state


def emit(summary: dict) -> None:
    """The JSON summary line, always last on stdout."""
    print(json.dumps(summary, ensure_ascii=False, sort_keys=False), flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`python app.py serve --db DB --port P --no-auth` in a subprocess (like tests/live_server);
    with `module`, that bench module (e.g. `_patched_server`) in place of app.py."""

    def __init__(self, db: Path, *flags: str, env: dict | None = None, timeout: float = 90,
                 module: str | None = None):
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
        serve = ["serve", "--db", str(db), "--port", str(self.port), "--no-auth", *flags]
        env = {"GRADIO_ANALYTICS_ENABLED": "False", **(env or {})}
        self.proc = subprocess.Popen(
            module_command(module, *serve) if module else [sys.executable, str(REPO / "app.py"), *serve],
            cwd=db.parent, stdout=self._log, stderr=subprocess.STDOUT,
            env=module_env(**env) if module else {**os.environ, **env},
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


class RawGradioClient:
    """The browser's side of Gradio's queue protocol (sse_v3), with nothing added.

    Like the page's JS client: one keep-alive HTTP connection pool, `POST /queue/join` with the
    event's input values (state inputs sent as null: the server keeps them per session), then
    `GET /queue/data?session_hash=…` read until `process_completed` (the server closes the
    stream when the session has no pending events). Values are the JSON the server sent; file
    values are sent back as the FileData the server returned (no upload), as the browser does.
    """

    def __init__(self, url: str):
        import uuid

        import httpx

        self.url = url
        self.http = httpx.Client(base_url=url + "/gradio_api", timeout=60)
        config = self.http.get(url + "/config").json()
        self.components = {c["id"]: c for c in config["components"]}
        self.deps = {d["api_name"]: d for d in config["dependencies"] if d.get("api_name")}
        self.session_hash = uuid.uuid4().hex[:11]

    def label(self, component_id: int) -> str | None:
        return self.components[component_id].get("props", {}).get("label")

    def is_state(self, component_id: int) -> bool:
        return self.components[component_id]["type"] == "state"

    def call(self, api_name: str, values_by_id: dict) -> dict:
        """Run an event; inputs by component id (one not given is sent with the value the page
        starts with, as the browser sends it); returns {component id: output value}."""
        dep = self.deps[api_name]
        data = [None if self.is_state(cid) else values_by_id[cid] if cid in values_by_id
                else self.components[cid].get("props", {}).get("value")
                for cid in dep["inputs"]]
        return dict(zip(dep["outputs"], self.call_list(api_name, data)))

    def call_list(self, api_name: str, data: list) -> list:
        """Run an event with its input values in order (state inputs as None); the outputs."""
        dep = self.deps[api_name]
        r = self.http.post("/queue/join", json={
            "data": data, "event_data": None, "fn_index": dep["id"], "trigger_id": None,
            "session_hash": self.session_hash})
        r.raise_for_status()
        event_id = r.json()["event_id"]
        with self.http.stream("GET", "/queue/data",
                              params={"session_hash": self.session_hash}) as resp:
            buf = b""
            for chunk in resp.iter_bytes():
                buf += chunk
                while b"\n\n" in buf:
                    line, buf = buf.split(b"\n\n", 1)
                    if not line.startswith(b"data:"):
                        continue
                    msg = json.loads(line[5:])
                    if msg.get("msg") == "process_completed" and msg.get("event_id") == event_id:
                        if not msg.get("success"):
                            raise RuntimeError(f"{api_name} failed: {msg.get('output')}")
                        return msg["output"]["data"]
        raise RuntimeError(f"{api_name}: stream ended without process_completed")

    def close(self) -> None:
        self.http.close()


def cpu_busy(interval: float = 1.0) -> float:
    """Cores busy (all processes) over `interval` seconds, from /proc/stat."""
    def read():
        with open("/proc/stat") as f:
            parts = [int(x) for x in f.readline().split()[1:]]
        idle = parts[3] + (parts[4] if len(parts) > 4 else 0)
        return sum(parts), idle
    t0, i0 = read()
    time.sleep(interval)
    t1, i1 = read()
    total = max(1, t1 - t0)
    return round((1 - (i1 - i0) / total) * (os.cpu_count() or 1), 2)


class QuietGate:
    """Wait, before each measurement, until the machine is quiet (other users' jobs).

    The machine is shared and has two cores: a test suite started by someone else doubles
    every figure. Before each measurement we sample CPU use over 1 s and wait (up to
    `timeout` s) until less than `max_busy` cores are busy. What was seen is recorded, so a
    figure taken on a busy machine is marked as such rather than silently mixed in.
    """

    def __init__(self, max_busy: float = 0.6, timeout: float = 180.0, enabled: bool = True):
        self.max_busy, self.timeout, self.enabled = max_busy, timeout, enabled
        self.seen: list[float] = []
        self.waited_s = 0.0
        self.gave_up = 0

    def wait(self) -> float:
        if not self.enabled:
            return float("nan")
        start = time.monotonic()
        while True:
            busy = cpu_busy(1.0)
            if busy <= self.max_busy:
                break
            if time.monotonic() - start > self.timeout:
                self.gave_up += 1
                break
            time.sleep(2.0)
        self.waited_s += time.monotonic() - start
        self.seen.append(busy)
        return busy

    def report(self) -> dict:
        return {"enabled": self.enabled, "max_busy_cores": self.max_busy,
                "busy_cores_before_measurements": summarize(self.seen, digits=2)
                if self.seen else None,
                "waited_s": round(self.waited_s, 1), "gave_up": self.gave_up}
