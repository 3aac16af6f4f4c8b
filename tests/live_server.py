"""Start the real app (`python app.py serve`) in a subprocess on a free port for tests."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import json
import urllib.request
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    def __init__(self, db: Path, *flags: str, env: dict | None = None, preexec_fn=None):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = db.with_suffix(".server.log")
        self._log = open(self.log, "w")
        self.proc = subprocess.Popen(
            # relative to its folder, as a user's `python app.py` in a project folder
            [sys.executable, str(ROOT / "app.py"), "serve", "--db", db.name,
             "--port", str(self.port), *flags],
            cwd=db.parent, stdout=self._log, stderr=subprocess.STDOUT,
            env={**os.environ, "GRADIO_ANALYTICS_ENABLED": "False", **(env or {})},
            preexec_fn=preexec_fn,      # e.g. a lower limit on open files
        )
        self._wait()

    def _wait(self, timeout: float = 180) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()}")
            try:
                with urllib.request.urlopen(self.url + "/", timeout=2):
                    return
            except OSError:
                time.sleep(0.3)
        self.stop()
        raise RuntimeError(f"server did not start: {self.log.read_text()}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self._log.close()


def make_scene(path: Path, size=(1200, 800), color="#dfe7ef", sign=(300, 200, 420, 260)) -> Path:
    """A small real image with a 'sign' rectangle to draw a box around."""
    img = Image.new("RGB", size, color)
    draw = ImageDraw.Draw(img)
    draw.rectangle(sign, fill="#1d4ed8")
    draw.text((sign[0] + 8, sign[1] + 8), "EXIT 12", fill="white")
    img.save(path)
    return path


def add_user(db: Path, name: str, role: str, password: str) -> None:
    """A user added as an admin does it: through the CLI, the password from the environment."""
    subprocess.run([sys.executable, str(ROOT / "app.py"), "user", "add", name, "--role", role,
                    "--db", str(db)], check=True, capture_output=True,
                   env={**os.environ, "CLUELAB_PASSWORD": password})


def open_ui_store(db: Path):
    """build_ui_db's database, opened (the caller closes it): for fixtures that add items."""
    from store import Store

    build_ui_db(db)
    return Store.open(db)


def build_ui_db(db: Path) -> list[str]:
    """A database with three small items for UI tests; returns their ids in order."""
    from store import Store

    store = Store.open(db)
    tmp = db.parent / "src"
    tmp.mkdir(exist_ok=True)
    shas = [store.add_image(make_scene(tmp / f"s{i}.png", color=c), f"s{i}.png").sha256
            for i, c in enumerate(["#dfe7ef", "#f3e8d2", "#e2f0d9", "#f0d9e2"])]
    items = [
        {"id": "ui/alpha", "question": "Which exit is signposted?", "answer_type": "open",
         "answer": "12", "images": [shas[0], shas[3]],
         "clues": [{"text": "The blue sign reads EXIT 12", "reasoning": "signs name exits",
                    "boxes": []}]},
        {"id": "ui/beta", "question": "Is this a station?", "answer_type": "yes_no",
         "answer": "Yes", "images": [shas[1]], "clues": []},
        {"id": "ui/gamma", "question": "Pick the colour of the sign.",
         "answer_type": "multiple_choice", "answer": "A", "images": [shas[2]],
         "options": [{"label": "A", "text": "blue", "image": None},
                     {"label": "B", "text": "red", "image": None}], "clues": []},
    ]
    for item in items:
        base = {"dataset": "ui", "domain": "Daily Commonsense", "subtask": "Transportation and Travel",
                "options": [], "aliases": [], "gt_reasoning": "", "status": "draft",
                "problems": [], "metadata": {}}
        store.create_item({**base, **item}, "fixture")
    store.close()
    return [i["id"] for i in items]


def start_ui_server(directory: Path, users: dict[str, str] | None = None,
                    password: str = "", env: dict | None = None,
                    preexec_fn=None) -> LiveServer:
    """A server on a new build_ui_db database in `directory` (`.db`: its path, `.ids`: its
    item ids in order): without a login, or with `users` ({name: role}, each with
    `password`) under --auth; `env`: the server's environment besides this one's."""
    db = directory / "ui.db"
    ids = build_ui_db(db)
    for name, role in (users or {}).items():
        add_user(db, name, role, password)
    server = LiveServer(db, "--auth" if users else "--no-auth", env=env, preexec_fn=preexec_fn)
    server.db, server.ids = db, ids
    return server


def event_names(url: str) -> set[str]:
    """Every event's api_name, documented or not, as the app's config lists them ("/name").

    The app documents a chosen public API (ui/server.PUBLIC_API) on its API page; the rest
    stay callable by name, so wiring tests read names from the config, not from view_api."""
    config = json.loads(urllib.request.urlopen(url + "/config").read())
    names = [d.get("api_name") for d in config["dependencies"]]
    assert all(names), "an event has no api_name"
    return {f"/{name}" for name in names}


def add_user_named_before_the_rule(db: Path, name: str, role: str, password: str) -> None:
    """A user whose name `user add` now refuses (markup, a line break), as a database made
    before domain/user_names.py may hold one: added under a stand-in name, then renamed."""
    import sqlite3

    add_user(db, "stand-in", role, password)
    with sqlite3.connect(db) as con:
        con.execute("UPDATE users SET name = ? WHERE name = 'stand-in'", [name])
    con.close()
