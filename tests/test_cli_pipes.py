"""`python app.py … | head`: a reader that stops early is not an error (cli.main)."""
import os
import subprocess
import sys

import pytest

from tests.live_server import ROOT

DEMO = ROOT / "assets" / "demo" / "demo.jsonl"


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory):
    db = tmp_path_factory.mktemp("pipes") / "pipes.db"
    for args in (["import", "--format", "jsonl", str(DEMO)],
                 ["endpoint", "add", "local", "--base-url", "http://127.0.0.1:9/v1",
                  "--model", "m"]):
        subprocess.run([sys.executable, str(ROOT / "app.py"), *args, "--db", str(db)],
                       check=True, capture_output=True)
    return db


@pytest.mark.parametrize("command", [["stats"], ["stats", "--json"],
                                     ["prompt", "list"], ["endpoint", "list"]])
def test_a_reader_that_closed_the_pipe_gets_no_traceback(demo_db, command):
    """The pipe is closed before the command writes a byte, so every write of it fails
    (deterministic, unlike racing `head`)."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run([sys.executable, str(ROOT / "app.py"), *command, "--db",
                               str(demo_db)], stdout=write, stderr=subprocess.PIPE,
                              stdin=subprocess.DEVNULL, timeout=120)
    finally:
        os.close(write)
    assert done.stderr.decode() == ""
    assert done.returncode == 141


def test_piped_into_head_prints_the_first_lines_and_no_error(demo_db):
    done = subprocess.run(f"'{sys.executable}' '{ROOT / 'app.py'}' stats --db '{demo_db}' "
                          "| head -n 1", shell=True, capture_output=True, text=True,
                          timeout=120)
    assert done.stderr == "" and len(done.stdout.splitlines()) == 1
