"""Every command of `python app.py` is documented and answers `--help` (as sqlite-utils'
tests/test_docs.py does for its CLI).

Why: commands were added without a word in the docs (run, runs, endpoint, price and prompt were
documented nowhere). Walking the real argparse tree means a new command or subcommand fails
here until a line in the README or docs/*.md shows how to call it; and a command the docs name
must exist, so a renamed one does not leave its old name behind.
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cli import COMMANDS, build_parser, main

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def command_paths(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    """Every command and subcommand, as the words that call it: ("endpoint", "add"), …"""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield path + (name,)
                yield from command_paths(sub, path + (name,))


PATHS = list(command_paths(build_parser()))
DOC_TEXT = "\n".join(p.read_text(encoding="utf-8") for p in DOCS)


def test_the_tree_is_the_whole_cli():
    assert {path[0] for path in PATHS} == set(COMMANDS)
    assert ("endpoint", "test") in PATHS and ("item", "reopen") in PATHS


@pytest.mark.parametrize("path", PATHS, ids=" ".join)
def test_every_command_is_documented(path):
    words = r"\s+".join(map(re.escape, path))
    assert re.search(rf"python app\.py\s+{words}(?![\w-])", DOC_TEXT), \
        f"`python app.py {' '.join(path)}` is not in README.md or docs/*.md (see docs/CLI.md)"


@pytest.mark.parametrize("path", PATHS, ids=" ".join)
def test_every_command_has_help(path, capsys):
    with pytest.raises(SystemExit) as exit_:
        main([*path, "--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: python app.py {' '.join(path)}"), out[:200]


def test_the_docs_name_only_commands_that_exist():
    named = set(re.findall(r"python app\.py\s+([a-z][\w-]*)", DOC_TEXT))
    assert named and named <= set(COMMANDS), named - set(COMMANDS)
    pairs = {(m[0], m[1]) for m in re.findall(r"python app\.py\s+([a-z][\w-]*)\s+([a-z][\w-]*)", DOC_TEXT)}
    with_actions = {path[0] for path in PATHS if len(path) == 2}
    for command, action in pairs:
        if command in with_actions:
            assert (command, action) in PATHS, f"python app.py {command} {action}"


def test_help_from_the_entry_point():
    out = subprocess.run([sys.executable, str(ROOT / "app.py"), "--help"], capture_output=True,
                         text=True, timeout=60, check=True).stdout
    assert out.startswith("usage: python app.py") and all(c in out for c in COMMANDS)


def test_the_readme_links_the_cli_reference():
    assert "(docs/CLI.md)" in (ROOT / "README.md").read_text(encoding="utf-8")


def _options(path: tuple[str, ...]) -> list[str]:
    parser = build_parser()
    for word in path:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        parser = sub.choices[word]
    return [o for a in parser._actions for o in a.option_strings
            if o.startswith("--") and o not in ("--help", "--db")]


@pytest.mark.parametrize("command", ["score", "report", "compare", "leaderboard", "table"])
def test_the_readme_synopsis_of_the_result_commands_lists_every_option(command):
    """The README's command-line section is where a researcher looks for how to score and
    read results: `score --no-cache` (ask the judge again) and `table --judge` were there
    nowhere, so a cached judge reply looked like something that could never be asked again."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Command line"):]
    line = next(line for line in section.splitlines()
                if line.startswith(f"python app.py {command} "))
    missing = [option for option in _options((command,)) if option not in line]
    assert not missing, f"README's `python app.py {command}` line lacks {missing}"
