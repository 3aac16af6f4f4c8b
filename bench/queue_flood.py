#!/usr/bin/env python3
"""Benchmark: an annotator's load_item while a participant floods the queue with calls the
access table refuses (ui/queue_door.py).

Starts the real server (`python app.py serve --auth`, tests/live_server.py) on a small
database with anna (annotator) and pat (participant). Measures anna's load_item (join +
stream, as her page does) 10 times alone, then while pat sends 600 joins of load_item, 16 at
a time (tests/flood.py, a process of its own), and reports the seconds (median, mean, max)
and the statuses pat got. Before ui/queue_door.py each of pat's calls took a place in the
queue (32 at most, then 503s) and was refused by a worker.

    python -m bench.queue_flood
"""
from __future__ import annotations

import json
import statistics
import tempfile
from pathlib import Path

from tests import flood
from tests.live_server import LiveServer, add_user, build_ui_db
from tests.queue_caller import QueueCaller

PASSWORD = "bench-queue-flood-1"


def seconds(values: list[float]) -> dict:
    return {"n": len(values), "median": round(statistics.median(values), 3),
            "mean": round(statistics.mean(values), 3), "max": round(max(values), 3)}


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.db"
        build_ui_db(db)
        for name, role in (("anna", "annotator"), ("pat", "participant")):
            add_user(db, name, role, PASSWORD)
        server = LiveServer(db, "--auth")
        try:
            anna = QueueCaller(server.url, ("anna", PASSWORD))
            config = anna.config()
            fn = next(d["id"] for d in config["dependencies"] if d["api_name"] == "load_item")

            def load_item():
                assert anna.answers(config, only={"load_item"})["load_item"] != "no answer"
            before = flood.timed(load_item, 10)
            lines = server.log.read_text().count("\n")
            during, statuses = flood.calls_during(
                flood.start(server.url, "join", 600, 16, "pat", PASSWORD, str(fn)), load_item)
            print(json.dumps({"anna_alone_s": seconds(before),
                              "anna_during_flood_s": seconds(during),
                              "pat_statuses": statuses,
                              "log_lines_during_flood": server.log.read_text().count("\n") - lines},
                             indent=1))
        finally:
            server.stop()


if __name__ == "__main__":
    main()
