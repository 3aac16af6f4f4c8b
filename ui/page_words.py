"""A message the command line and the pages share, said in the page's words.

Scoring, pairing and the runner write what to do about a refusal as the command line says it
(`--runs A,B`, `python app.py score --run ID --protocol P`): that is what the CLI prints, and
runs keep their message (`run --resume ID`) in the database for `runs --show`. Someone on a
page has no command line: there the same remedy is one of the page's controls ("keep one of
them in Runs"). So the shared modules keep one wording, and every message a page shows goes
through `on_page` (ui/messages.py calls it for every toast and status line, the Results and
Experiments pages for their notes), which says each command-line remedy with the controls of
the page it is shown on, from the one table below. A flag the table does not know is said as
"the command line's X" rather than left as if the page had it.

tests/test_page_words.py makes each of these messages for real and checks that none keeps a
flag on a page, and that the controls named are on the page.
"""
from __future__ import annotations

import re

# a run id (or any word) as shlex.quote writes it: quoted, or with no space nor parenthesis,
# which shlex.quote would have quoted (so a command in parentheses ends at its ")")
_ID = r"(?:'[^']*'|[^\s'()]+)"
# a whole table command as scoring.commands.table_command writes it
_COMMAND = rf"python app\.py (?:table|leaderboard)(?: --[a-z-]+(?: {_ID})?)*"

# (command-line remedy, the page's words). The most specific first: they apply in order.
PAGE_WORDS: tuple[tuple[str, str], ...] = (
    (rf"python app\.py score --run {_ID} --protocol ([a-z]+)(?: --judge {_ID})+"
     r"(?: \(or another endpoint as the judge: [^)]*\))?",
     r"choose the run under Runs, set Protocol to score to \1, choose the judge under "
     r"LLM judge(s) and press Score"),
    (rf"python app\.py score --run {_ID} --protocol ([a-z]+) --semantic",
     r"choose the run under Runs, set Protocol to score to \1, tick Semantic clue matcher "
     r"too and press Score"),
    (rf"python app\.py score --run {_ID} --protocol ([a-z]+)",
     r"choose the run under Runs, set Protocol to score to \1 and press Score"),
    (r"none is set up \(python app\.py endpoint add --help\)",
     "none is set up (an admin adds one under Endpoints on the Experiments page)"),
    (r"start one \(python app\.py run --help\)", "start one on the Experiments page"),
    (rf"leave the one shown out \({_COMMAND}\)", "leave the one shown out of Runs"),
    (rf"print it with {_COMMAND}", "choose its runs under Runs"),
    (r"choose one with --dataset NAME \(or name runs with --runs A,B\)",
     "choose runs of one dataset under Runs"),
    (r"an LLM judge: --judge ENDPOINT", "an LLM judge: choose one under LLM judge(s)"),
    (r"an LLM judge \(--judge ENDPOINT\)", "an LLM judge (choose one under LLM judge(s))"),
    (rf"resume with a higher budget \(python app\.py run --resume {_ID} --budget USD\) or "
     rf"none \(python app\.py run --resume {_ID} --no-budget\)",
     "to go on, give a higher Budget on resume (or none) and press Resume"),
    (rf"resume with python app\.py run --resume {_ID}", "press Resume to run them"),
    (r"set one with `endpoint edit NAME --api-key-env VAR`",
     "fill in the endpoint's API key environment variable and save it"),
    (r"`endpoint test NAME --json` lists them", "Test connection counts them"),
    # the page's Score always takes the judge's cached replies: the remedy is the command
    # line's, said whole ("score the command line's --no-cache asks …" read garbled)
    (r"score --no-cache asks the judge afresh",
     "scoring from the command line with the cache off (score's no-cache option) asks the "
     "judge afresh"),
    (r"\(--no-cache asks the judge afresh\)",
     "(from the command line with the cache off, score's no-cache option, the judge is "
     "asked afresh)"),
    # a setting of the server, not of the page: say whose it is
    (r"\(no --import-root configured\)",
     "(it was started without import folders: its operator names them)"),
)
_COMPILED = tuple((re.compile(cli), page) for cli, page in PAGE_WORDS)
# the database a quoted command names (domain/commands.quote_db): a page works on its own,
# and said on it, "--db /srv/x.db" was "the command line's --db" and a server path
_DB = re.compile(rf" --db {_ID}")
_LEFT = re.compile(r"(?<![\w-])(--[a-z][a-z-]*)(?: [A-Z][A-Z,_]*\b)?")


def on_page(message) -> str:
    """`message` with each command-line remedy in the page's words (plain text in, plain
    text out: escape it where it is shown)."""
    text = "" if message is None else str(message)
    if "--" not in text and "app.py" not in text:
        return text
    text = _DB.sub("", text)
    for pattern, words in _COMPILED:
        text = pattern.sub(words, text)
    return _LEFT.sub(lambda m: f"the command line's {m.group(1)}", text)
