"""Results exports said nothing of the samples rule that decided their items: a CSV under
"first sample" and one under majority vote had the same columns and the same file name, so
the second download overwrote the first and neither could be told apart. Now the CSV has a
`samples_rule` column, the JSON a "samples_rule" field (and column), the file name says the
rule, and `table` and `leaderboard` take the page's --samples-rule (same choices, same
default). Real SQLite, real offline scoring, the page's export handler and the real CLI."""
import csv
import io
import json
import subprocess
import sys

from scoring import SAMPLE_RULES
from scoring.score_run import score_run
from tests.scoring_helpers import add_items, cli, make_run
from ui import results_handlers as h

ITEMS = [{"id": f"t/{i}", "answer_type": "yes_no", "answer": "Yes", "domain": "D",
          "subtask": "s"} for i in range(2)]
# first sample wrong, majority right: the two rules give 0.00 and 100.00
REPLIES = {"t/0": ["No.", "Yes.", "Yes."], "t/1": ["No.", "Yes.", "Yes."]}


def _scored(store):
    add_items(store, ITEMS)
    make_run(store, "s", REPLIES, samples=3)
    score_run(store, "s")


def _rows(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))


def test_the_page_export_says_the_rule_in_the_file_and_its_name(store):
    _scored(store)
    first = h.export_table(store, ["s"], "general", "main", "csv", samples_rule="first")
    majority = h.export_table(store, ["s"], "general", "main", "csv")
    assert str(first) != str(majority)
    assert "samples_first" in str(first) and "samples_majority" in str(majority)
    rows = _rows(open(first, encoding="utf-8-sig").read())
    assert rows[0]["samples_rule"] == "first" and float(rows[0]["overall_pct"]) == 0
    assert _rows(open(majority, encoding="utf-8-sig").read())[0]["samples_rule"] == "majority"
    for kind in ("leaderboard", "drop"):
        path = h.export_table(store, ["s"], "general", kind, "json", samples_rule="first")
        data = json.loads(open(path, encoding="utf-8").read())
        assert data["samples_rule"] == "first" and "samples_first" in str(path), kind
        assert data["rows"][0]["samples_rule"] == "first"
    board = json.loads(open(h.export_table(store, ["s"], "general", "leaderboard", "json",
                                           samples_rule="first"), encoding="utf-8").read())
    assert board["rows"][0]["overall_pct"] == 0         # the leaderboard follows the rule chosen


def test_table_and_leaderboard_take_the_samples_rule(store):
    _scored(store)
    for command in (["table", "--kind", "main"], ["leaderboard"]):
        code, out, err = cli(*command, "--db", store.path, "--runs", "s", "--format", "csv",
                             "--samples-rule", "first")
        assert code == 0, err
        row = _rows(out)[0]
        assert row["samples_rule"] == "first" and float(row["overall_pct"]) == 0, command
        code, out, err = cli(*command, "--db", store.path, "--runs", "s", "--format", "json")
        assert code == 0, err
        data = json.loads(out)
        assert data["samples_rule"] == "majority" and data["rows"][0]["overall_pct"] == 100
    for command in ("table", "leaderboard"):
        out = subprocess.run([sys.executable, "app.py", command, "--help"], check=True,
                             capture_output=True, text=True).stdout
        assert "--samples-rule {" + ",".join(SAMPLE_RULES) + "}" in " ".join(out.split())
