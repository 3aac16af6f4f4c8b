"""A real OpenAI-compatible chat server for tests and benchmarks (aiohttp, its own process).

    python tests/openai_server.py --port 8765 [--latency 0.2] [--jitter 0.05] [--seed 1]
                                  [--api-key KEY] [--models a,b] [--config '{"faults": ...}']

or, from Python, `start_server(**behaviour)` -> ServerHandle (a free port, waits until ready),
with `.url`, `.configure(**behaviour)`, `.requests()` (the server's log), `.reset_log()` and
`.stop()`.

The server's behaviour (endpoints, actions such as 429s, 500s, hangs and malformed bodies,
scripted or random faults, replies, streaming) is in tests/openai_app.py; how it validates a
request the way OpenAI does (model id, roles, content parts, image data URLs, sampling ranges,
the API key) is in tests/openai_requests.py. Per-request work is kept small so that 64
concurrent requests at 200 ms do not make this server the bottleneck.
"""
from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: the repository root is not on the path yet
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from aiohttp import web  # noqa: E402

from tests.openai_app import BEHAVIOUR_HELP, DEFAULTS, FakeOpenAI  # noqa: E402


class ServerHandle:
    """A running server process: .url ("http://127.0.0.1:P/v1"), control over HTTP, .stop()."""

    def __init__(self, process, port: int):
        self.process, self.port = process, port
        self.root = f"http://127.0.0.1:{port}"
        self.url = self.root + "/v1"

    def _call(self, method: str, path: str, payload: dict | None = None):
        import urllib.request
        data = None if payload is None else json.dumps(payload).encode()
        request = urllib.request.Request(self.root + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    def configure(self, **behaviour) -> dict:
        """Merge behaviour keys (see openai_app.DEFAULTS; reset=True starts from them again);
        returns the whole behaviour now in force."""
        return self._call("POST", "/_config", behaviour)

    def requests(self) -> list[dict]:
        """Every request received so far: path, time, model, digest, seed, request_id, stream,
        action, status."""
        return self._call("GET", "/_log")

    def reset_log(self) -> None:
        self._call("DELETE", "/_log")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except Exception:
                self.process.kill()
                self.process.wait(5)

    def __enter__(self) -> "ServerHandle":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(**behaviour) -> ServerHandle:
    """Spawn the server on a free port with these behaviour keys and wait until it answers."""
    import subprocess
    import tempfile
    import urllib.request
    port = free_port()
    errors = tempfile.TemporaryFile()  # a file, not a pipe: nobody has to keep reading it
    process = subprocess.Popen([sys.executable, __file__, "--port", str(port),
                                "--config", json.dumps(behaviour)],
                               stdout=subprocess.DEVNULL, stderr=errors)
    handle = ServerHandle(process, port)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if process.poll() is not None:
            errors.seek(0)
            raise RuntimeError(f"fake OpenAI server exited: {errors.read().decode()}")
        try:
            with urllib.request.urlopen(handle.root + "/_health", timeout=1):
                return handle
        except OSError:
            time.sleep(0.05)
    handle.stop()
    raise RuntimeError("fake OpenAI server did not start within 15 s")


def behaviour_help() -> str:
    """The --help's list of behaviour keys: each with its default and what it does."""
    import textwrap
    lines = textwrap.wrap("behaviour keys (--config JSON; POST /_config merges them into a "
                          'running server, "reset": true first restores the defaults):', 98)
    for key, default in DEFAULTS.items():
        text = f"{BEHAVIOUR_HELP[key]} (default {json.dumps(default)})"
        lines += textwrap.wrap(text, 96, initial_indent=f"  {key:<19} ",
                               subsequent_indent=" " * 22)
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     epilog=behaviour_help(),
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--latency", type=float, help="seconds before each reply")
    parser.add_argument("--jitter", type=float, help="± seconds added to the latency")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--api-key", help="require 'Authorization: Bearer KEY'")
    parser.add_argument("--models", help="comma-separated model ids")
    parser.add_argument("--config", default="{}", metavar="JSON",
                        help="behaviour keys as a JSON object (listed below), e.g. "
                             "'{\"faults\": {\"500\": 0.2}, \"default_reply\": \"Answer: B\"}'")
    parser.add_argument("--access-log", action="store_true", help="log every request (slow)")
    args = parser.parse_args(argv)
    behaviour = json.loads(args.config)
    for key in ("latency", "jitter", "seed", "api_key"):
        if getattr(args, key) is not None:
            behaviour[key] = getattr(args, key)
    if args.models:
        behaviour["models"] = args.models.split(",")
    if args.access_log:
        logging.basicConfig(level=logging.INFO)
    web.run_app(FakeOpenAI(behaviour).app(), host=args.host, port=args.port, print=None,
                access_log=logging.getLogger("aiohttp.access") if args.access_log else None)


if __name__ == "__main__":
    main()
