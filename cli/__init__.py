"""Command line of ClueLab: one parser, one module per group of commands.

Without a command (or with only server flags) the UI is served, so that `python app.py`
does what a first-time user expects.
"""
from __future__ import annotations

import argparse
import sys

from cli import (data_commands, endpoint_commands, item_commands, run_commands, score_commands,
                 serve_command, user_commands)

COMMANDS = ("serve", "import", "export", "stats", "user", "run", "runs", "endpoint", "price",
            "prompt", "score", "report", "compare", "leaderboard", "table", "item", "dataset")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python app.py",
        description="ClueLab: a workbench for visual-clue reasoning benchmarks.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    serve_command.add_parser(sub)
    data_commands.add_parsers(sub)
    item_commands.add_parsers(sub)
    user_commands.add_parser(sub)
    endpoint_commands.add_parsers(sub)
    run_commands.add_parsers(sub)
    score_commands.add_parsers(sub)
    return parser


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS and argv[0] not in ("-h", "--help"):
        argv = ["serve", *argv]
    args = build_parser().parse_args(argv)
    try:
        return args.handler(args) or 0
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
