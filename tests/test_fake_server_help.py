"""The fake OpenAI server's --help names every behaviour key --config takes, with what it does:
it said "behaviour keys as a JSON object" and named none (they were only in openai_app.py)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.openai_app import BEHAVIOUR_HELP, DEFAULTS

SERVER = Path(__file__).resolve().parent / "openai_server.py"


def test_the_help_lists_every_behaviour_key_and_what_it_does():
    out = subprocess.run([sys.executable, str(SERVER), "--help"], capture_output=True,
                         text=True, timeout=60, check=True).stdout
    assert set(BEHAVIOUR_HELP) == set(DEFAULTS)
    lines = out.splitlines()
    for key in DEFAULTS:
        [line] = [line for line in lines if line.startswith(f"  {key} ")]
        assert BEHAVIOUR_HELP[key].split()[0] in line, key
    assert "refuse" in out and "malformed" in out      # the actions a fault or script names
