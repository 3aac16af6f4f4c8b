"""Every command a note, a download's remark or a refusal quotes runs as written.

A researcher pastes what a note quotes into a shell. The notes said "to show another, name
the runs with --runs without the one shown" (under the injection and ablation tables, in the
page's downloads too) and "print it with --runs big" beside a CSV that left a group of runs
out: a flag and no command, which no shell runs; a refusal said "python app.py score --run
ID", a placeholder. Here each such note is made for real (real SQLite, real scoring, the real
CLI and the page's download), each command it quotes is parsed with the CLI's own parser
(`cli.build_parser`: a renamed option or command fails here) and run, with only `--db`
added, and what it prints is what the note promised.
"""
from __future__ import annotations

import contextlib
import io
import json
import re
import shlex
from pathlib import Path

import pandas as pd
import pytest

from cli import build_parser
from scoring.not_scored import not_scored_text
from scoring.score_run import score_run
from store import Store
from tests.scoring_helpers import NOT_RUN, add_items, cli, make_run
from ui import results_handlers as h

ITEMS = [{"id": f"q/{i}", "answer_type": "multiple_choice", "answer": "A", "domain": "Shop",
          "subtask": "prices"} for i in range(40)]
IDS = [i["id"] for i in ITEMS]
# "python app.py" and its words, each as shlex.quote writes it (quoted, or with no space nor
# parenthesis): a command ends at the ")" it is quoted in, or before a "(" that follows it
COMMAND = re.compile(r"python app\.py(?: (?:'[^']*'|[^\s'()]+))+")
PLACEHOLDER = re.compile(r"(?<![\w-])[A-Z][A-Z_]+(?:,[A-Z]+)*(?![\w-])")   # ID, ENDPOINT, A,B


@pytest.fixture
def store(tmp_path):
    """On q/0..9: 'rep 3' (no clue, 3 repeats) and samp3 (no clue, 3 samples, newer): a row
    each in the injection and ablation tables; gt (GT clues). big: cancelled after 30
    other items (q/10..39): a group of its own."""
    store = Store.open(tmp_path / "q.db")
    add_items(store, ITEMS)
    make_run(store, "rep 3", {i: ["Answer: A", "Answer: B", "Answer: A"] for i in IDS[:10]},
             repeats=3)
    make_run(store, "samp3", {i: ["Answer: A", "Answer: B", "Answer: B"] for i in IDS[:10]},
             samples=3)
    make_run(store, "gt", {i: "Answer: A" for i in IDS[:10]}, clues="gt")
    make_run(store, "big", {i: "Answer: A" for i in IDS[10:]}, model="big")
    for run in ("rep 3", "samp3", "gt", "big"):
        store.finish_run(run, "test", "cancelled" if run == "big" else "done", "", {})
        score_run(store, run)
    yield store
    store.close()


def quoted(text: str) -> list[list[str]]:
    """The words of each command `text` quotes, parsed by the CLI's own parser (a command
    it refuses fails the test) and free of placeholders."""
    commands = [shlex.split(found) for found in COMMAND.findall(text)]
    for words in commands:
        assert words[:2] == ["python", "app.py"], words
        assert not PLACEHOLDER.search(" ".join(words[2:])), words
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            try:
                build_parser().parse_args(words[2:])
            except SystemExit as exit_:          # --help exits 0, a refused command 2
                assert exit_.code == 0, f"{shlex.join(words)}: {err.getvalue().strip()}"
    # a command quoted by a command given --db names that database (domain/commands.py);
    # the tests compare the rest, and `run` names the test's database itself
    return [words[:-2] if words[-2:-1] == ["--db"] else words for words in commands]


def run(store, words: list[str], *extra: str) -> str:
    """Run a quoted command as written, on the test's database: its output."""
    code, out, err = cli(*words[2:], "--db", store.path, *extra)
    assert code == 0, (words, err)
    return out


def test_samples_and_repeats_are_rows_of_their_own_in_the_injection_table(store):
    """A 3-sample and a 3-repeat run of one model were one crowded cell of the injection
    table, one of them set against the other's clue cells: each is a row of its own."""
    rows = json.loads(cli("table", "--db", store.path, "--kind", "injection", "--format",
                          "json")[1])["rows"]
    solvers = [row["solver"] for row in rows]
    assert "m · CoT · 3 samples" in solvers and "m · CoT · 3 repeats" in solvers


@pytest.mark.parametrize("kind", ["ablation"])    # injection: a row of its own (resfix17)
def test_a_crowded_cell_quotes_the_table_command_that_shows_the_other_run(store, kind):
    """'rep 3 again', a newer 3-repeat run on the same items as 'rep 3' (n 10 both): one
    cell of either table, the newer shown."""
    make_run(store, "rep 3 again", {i: "Answer: A" for i in IDS[:10]}, repeats=3)
    store.finish_run("rep 3 again", "test", "done", "", {})
    score_run(store, "rep 3 again")
    runs = ["rep 3", "rep 3 again", "samp3", "gt"]
    code, out, err = cli("table", "--db", store.path, "--kind", kind, "--runs", ",".join(runs))
    assert code == 0, err
    page_file, _ = h.exported_tables(store, runs, "general", kind, "md")
    from_json = json.loads(cli("table", "--db", store.path, "--kind", kind, "--runs",
                               ",".join(runs), "--format", "json")[1])["notes"]
    for notes in (out, Path(page_file).read_text(encoding="utf-8"), from_json):
        assert ("shows m · CoT · 3 repeats [rep 3 again] (n 10), not m · CoT · 3 repeats "
                "[rep 3] (n 10).") in notes
        [words] = quoted(notes)
        assert words[2:6] == ["table", "--kind", kind, "--runs"]
        # the table's runs but the one shown (gt has injected clues: no ablation cell)
        assert words[6] == {"injection": "gt,rep 3,samp3", "ablation": "rep 3,samp3"}[kind]
        shown = run(store, words)
        assert "Several runs fit one cell" not in shown      # one run a cell now: rep 3
        rows = json.loads(run(store, words, "--format", "json"))["rows"]
        key, cell = {"injection": ("solver", "No Clue_run_id"),
                     "ablation": ("model", "cot_run_id")}[kind]
        assert {row[key]: row[cell] for row in rows if "3 repeats" in row[key]} == \
            {{"injection": "m · CoT · 3 repeats", "ablation": "m · 3 repeats"}[kind]: "rep 3"}


@pytest.mark.parametrize("command", [("leaderboard",), ("table", "--kind", "main"),
                                     ("table", "--kind", "main", "--by", "subtask")])
def test_a_group_a_csv_leaves_out_is_named_with_the_command_that_prints_it(store, command):
    code, out, err = cli(*command, "--db", store.path, "--format", "csv")
    assert code == 0, err
    assert sorted(pd.read_csv(io.StringIO(out))["run_id"]) == ["gt", "rep 3", "samp3"]
    [words] = quoted(err)
    assert "print it with " + shlex.join(words) in err
    printed = pd.read_csv(io.StringIO(run(store, words)))
    assert list(printed["run_id"]) == ["big"] and list(printed["n"]) == [30]
    assert [c for c in printed.columns if c.startswith("by_")] == \
        [c for c in pd.read_csv(io.StringIO(out)).columns if c.startswith("by_")]


def test_a_refusal_for_want_of_scores_quotes_the_score_command_of_a_real_run(tmp_path):
    store = Store.open(tmp_path / "unscored.db")
    add_items(store, ITEMS[:3])
    make_run(store, "fresh", {i: "Answer: A" for i in IDS[:3]})
    code, _, err = cli("leaderboard", "--db", store.path)
    assert code != 0 and "no run has scores yet" in err
    [words] = quoted(err)
    assert words[2:] == ["score", "--run", "fresh", "--protocol", "general"]
    run(store, words)
    assert cli("leaderboard", "--db", store.path)[0] == 0            # scored now
    make_run(store, "later", {i: "Answer: A" for i in IDS[:3]})
    code, _, err = cli("report", "--db", store.path, "--run", "later", "--protocol",
                       "rigorous")
    assert code != 0
    [words] = quoted(err)
    run(store, words)
    assert cli("report", "--db", store.path, "--run", "later", "--protocol", "rigorous")[0] == 0
    store.close()


def test_the_scoring_a_message_asks_for_names_the_judge_it_needs(store):
    # answers that came after an LLM judge's scoring: scored again with that judge
    stale = not_scored_text("x", {"not_scored": 3, "run": "rep 3", "protocol": "rigorous",
                                  "judge": "panel:judge a+judge-b"})
    [words] = quoted(stale)
    assert words[2:] == ["score", "--run", "rep 3", "--protocol", "rigorous", "--judge",
                         "judge a", "--judge", "judge-b"]
    semantic = not_scored_text("x", {"not_scored": 3, "run": "gt", "protocol": "rigorous",
                                     "judge": "offline:semantic"})
    assert quoted(semantic)[0][-1] == "--semantic"
    # VER-Bench needs an LLM judge: an endpoint that is set up, not a placeholder
    code, _, err = cli("report", "--db", store.path, "--run", "gt", "--protocol", "verbench")
    assert code != 0 and "none is set up" in err
    assert [w[2:4] for w in quoted(err)] == [["endpoint", "add"]]
    for name in ("judge-b", "judge-a"):
        assert cli("endpoint", "add", name, "--db", store.path, "--base-url",
                   "http://127.0.0.1:9/v1", "--model", "m")[0] == 0
    code, _, err = cli("report", "--db", store.path, "--run", "gt", "--protocol", "verbench")
    [words] = quoted(err)
    assert words[-2:] == ["--judge", "judge-a"] and "another endpoint as the judge: judge-b" \
        in err


def test_every_example_in_the_docs_parses_with_the_cli():
    """The examples of README.md and docs/*.md (a line's `python app.py ...` without the
    synopsis' brackets, alternatives or placeholders) are commands the CLI takes."""
    root = Path(__file__).resolve().parent.parent
    text = "\n".join(p.read_text(encoding="utf-8") for p in
                     [root / "README.md", *sorted((root / "docs").glob("*.md"))])
    examples = [found for found in re.findall(r"`(?:\w+=\S+ )?(python app\.py[^`]*)`", text)
                if not re.search(r"[\[|…]|\.\.\.", found) and not PLACEHOLDER.search(found)]
    assert len(examples) > 30
    for example in examples:
        quoted(example)
