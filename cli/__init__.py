"""Command line of ClueLab: one parser, one module per group of commands.

Without a command (or with only server flags) the UI is served, so that `python app.py`
does what a first-time user expects.
"""
from __future__ import annotations

import argparse
import os
import sys

from domain.commands import quote_db
from cli import (data_commands, endpoint_commands, item_commands, report_commands,
                 run_commands, runs_commands, score_commands, serve_command, table_commands,
                 user_commands)

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
    runs_commands.add_parsers(sub)
    score_commands.add_parsers(sub)
    report_commands.add_parsers(sub)
    table_commands.add_parsers(sub)
    return parser


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS and argv[0] not in ("-h", "--help"):
        argv = ["serve", *argv]
    args = build_parser().parse_args(argv)
    quote_db(getattr(args, "db", None))      # the commands the output quotes name it
    try:
        code = args.handler(args) or 0
        sys.stdout.flush()          # a closed pipe is found here, not at interpreter exit
        return code
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return reader_went_away()
    finally:
        quote_db(None)


def reader_went_away() -> int:
    """`python app.py runs | head`: the reader closed the pipe, so the rest of the output
    has nobody to read it. Exit quietly, as other Unix tools do (status 141, as if killed
    by SIGPIPE), instead of printing a traceback. Python would try to flush stdout again
    at exit and fail once more, so stdout is pointed at /dev/null first."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return 141
