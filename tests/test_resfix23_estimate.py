"""The run form's token estimate after one short run: a No-CoT run of one item (3 completion
tokens against an a-priori 8: ×0.38) projected a CoT run at 350 × 0.38 = 132 tokens a
request, where the same server answers CoT in 3: ×40 too high, presented as a calibrated
estimate. A setting is now projected per request (one sample of one item) from measured
usage of comparable runs only: the same setting, else a setting that reasons alike (CoT,
Clue-guided CoT, Structured); with none, at most max_tokens, said as a bound. A realistic
sequence against the real fake server: the real CLI's dry run (the page's projection),
then the real run it projects."""
from __future__ import annotations

import json
import shutil

import pytest

from tests.openai_server import start_server
from tests.test_runner_cli import DEMO, cli

ONE = "demo/bus-stop-wait"


@pytest.fixture
def db(tmp_path):
    with start_server() as server:
        db = tmp_path / "r.db"
        assert cli("import", "--db", db, "--format", "jsonl", DEMO).returncode == 0
        assert cli("endpoint", "add", "fake", "--base-url", server.url, "--model", "fake-vlm",
                   "--db", db).returncode == 0
        assert cli("price", "set", "fake-vlm", "--input", "1", "--output", "2",
                   "--db", db).returncode == 0
        yield db
    shutil.rmtree(tmp_path, ignore_errors=True)


def run(db, *args, dry=False):
    done = cli("run", "--db", db, "--endpoint", "fake", "--json", *args,
               *(["--dry-run"] if dry else []))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["projection" if dry else "totals"]


def test_a_short_run_in_another_setting_is_not_scaled_into_an_estimate(db):
    short = run(db, "--setting", "direct", "--ids", ONE)
    assert short["completion_tokens"] <= 10                     # one reply, a few tokens
    cot = run(db, "--setting", "cot", "--dataset", "demo", dry=True)
    assert "ratio" not in cot["basis"] and "as a priori ×" not in cot["basis"]
    # nothing comparable measured: the bound, said as one (not 132 a request as an estimate)
    assert cot["completion_bounded"] == cot["to_send"] == 14
    assert "CoT: no length measured yet, at most max_tokens" in cot["basis"]


def test_a_comparable_setting_is_projected_per_item_and_sample(db):
    run(db, "--setting", "direct", "--ids", ONE)
    measured = run(db, "--setting", "cot", "--dataset", "demo")          # 14 CoT replies
    per_request = measured["completion_tokens"] / 14
    guided = run(db, "--setting", "clue_guided", "--dataset", "demo", "--samples", "2",
                 dry=True)
    assert guided["to_send"] == 28 and not guided["completion_bounded"]
    assert "Clue-guided CoT as measured for CoT (14 replies)" in guided["basis"]
    actual = run(db, "--setting", "clue_guided", "--dataset", "demo", "--samples", "2")
    assert abs(guided["completion_tokens"] - actual["completion_tokens"]) <= 28   # per sample
    assert guided["completion_tokens"] <= 28 * (per_request + 1)       # not 28 × 450 × ratio
    assert abs(guided["cost"] - actual["cost"]) <= 0.15 * actual["cost"]
