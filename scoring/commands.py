"""The command lines that notes and messages quote, built from their words.

A note under a table, a remark beside a download or a refusal says how to get what it left
out, and a researcher pastes what it quotes into a shell. So a quoted command is a whole one
that runs as written: `python app.py`, a real subcommand, options the CLI has (a table's kind,
protocol and judge as the table was read), the real run ids, each word shell-quoted (a run id
or a judge name may hold a space). Notes once said "name the runs with --runs" or "print it
with --runs a,b": a flag with no command, which neither a shell nor a reader could run.
Each names the database when it is not the default (domain/commands.py).

tests/test_quoted_commands.py makes these notes for real, parses every command they quote
with the CLI's own parser and runs them; the page says the same remedies with its controls
(ui/page_words.py).
"""
from __future__ import annotations

from domain.commands import command
from domain.judge_ids import parse_judge

PROTOCOL_KINDS = ("main", "subtask", "injection", "ablation")   # the tables --protocol reads


def table_command(kind: str, run_ids, *, dataset: str | None = None,
                  protocol: str = "general", judge: str | None = None, by: str | None = None,
                  human: str | None = None, fmt: str | None = None,
                  samples_rule: str | None = None) -> str:
    """The command that prints the table `kind` of `run_ids` (`leaderboard`, or `table
    --kind KIND`), read as the table asking for it was: on `dataset`'s items when it was, its
    protocol, judge, breakdown, samples rule, human baseline file and format when they are
    not the defaults
    (a leaderboard has no protocol nor breakdown, the drop and VER-Bench tables read their
    own protocols)."""
    words = ["leaderboard"] if kind == "leaderboard" else ["table", "--kind", kind]
    words += ["--runs", ",".join(sorted(run_ids))]
    if dataset is not None:
        words += ["--dataset", dataset]
    if kind in PROTOCOL_KINDS and protocol not in (None, "general"):
        words += ["--protocol", protocol]
    if judge:
        words += ["--judge", judge]
    if kind == "main" and by and by.removeprefix("by_") != "domain":
        words += ["--by", by.removeprefix("by_")]
    if samples_rule and samples_rule != "majority" and kind != "verbench":
        words += ["--samples-rule", samples_rule]
    if human:
        words += ["--human", human]
    if fmt and fmt != "md":
        words += ["--format", fmt]
    return command(*words)


def score_command(run_id: str, protocol: str, judge: str | None = None,
                  endpoints=()) -> str:
    """The command that scores `run_id` under `protocol` with `judge` (a stored judge id:
    an LLM judge or a panel is asked again with `--judge` for each of its endpoints, the
    semantic matcher with `--semantic`: without them the command would write offline
    verdicts only). VER-Bench needs an LLM judge: without one, the first of `endpoints` (the
    endpoints set up), the others named after it, or, with none set up, how to add one."""
    words = ["score", "--run", run_id, "--protocol", protocol]
    found = parse_judge(judge) if judge else None
    if found is not None and (found.is_llm or found.is_panel):
        words += [w for endpoint in found.endpoints for w in ("--judge", endpoint)]
    elif found is not None and found.method == "semantic":
        words.append("--semantic")
    elif protocol == "verbench":
        endpoints = sorted(endpoints)
        if not endpoints:
            return ("an LLM judge endpoint, and none is set up "
                    f"({command('endpoint', 'add', '--help')})")
        others = f" (or another endpoint as the judge: {', '.join(endpoints[1:])})" \
            if endpoints[1:] else ""
        return command(*words, "--judge", endpoints[0]) + others
    return command(*words)
