"""What the Results page shows after Show results or Export: what was asked for, or, when it
is refused, nothing left over from before and the refusal on the page.

A refused request (runs of two datasets share no item, a run not scored, a VER-Bench table
without VER-Bench scores) must not leave the previous answer in place: a table, charts or a download file
made for another choice of runs read as the answer to this one. So on a refusal every output
of the request is cleared (the table hidden, the charts emptied, the download file taken
away) and the refusal stays in the page's message line, in the page's words (ui/messages.py),
until the choice it is about changes (`RESET_ON`: the tab clears it then). A script calling
the API gets the error raised instead (results_tab), so it cannot take a refusal for a
result.

Plain functions (no Gradio): tests call them directly.
"""
from __future__ import annotations

import logging

from judges.stats import CI_RULE, COUNTING_RULES
from ui import messages
from ui import results_handlers as h
from ui.session import LOCAL_USER
from ui.text import escape_md

EMPTY_STATE = ("No results shown yet: choose one or more scored runs above and press "
               "**Show results**.")
RULES = f"{COUNTING_RULES} {CI_RULE}"
log = logging.getLogger("cluelab.ui")
CHARTS = ("group_chart", "second_chart", "drop_chart", "length_chart", "injection",
          "correlation")


def refusal_line(what: str, error) -> str:
    """The message line for a refusal (Markdown, the message escaped, in the page's words)."""
    return f"**{what}:** {messages.status(error)}"


def shown(store, run_ids, protocol: str = "general", *choices) -> dict:
    """`results_handlers.show_results`, with "notice": None, or on a refusal every output
    cleared ("table" None, the charts empty, the default rules) and "notice" saying why;
    "refused" holds the refusal's own text (None when shown)."""
    try:
        return {**h.show_results(store, run_ids, protocol, *choices), "notice": None,
                "refused": None}
    except h.ResultsUiError as error:
        return {"table": None, "marked": None, "caption": None, "rules": RULES,
                **{chart: "" for chart in CHARTS},
                "notice": refusal_line("No results shown", error), "refused": str(error)}


def exported(store, run_ids, protocol: str, kind: str, fmt: str, *choices,
             account: str = LOCAL_USER) -> tuple[str | None, str, str | None]:
    """(file path or None, the line beside Export, the refusal's text or None). A refused
    export gives no file: the download is emptied, never left holding the previous one.
    The line says what a one-table download left out (`results_handlers.exported_tables`);
    the file is a download of `account` (ui/downloads.py)."""
    try:
        path, remarks = h.exported_tables(store, run_ids, protocol, kind, fmt, *choices,
                                          account=account)
    except h.ResultsUiError as error:
        return None, refusal_line("Not exported", error), str(error)
    except Exception as error:  # noqa: BLE001 - no file on any failure, the log has why
        log.exception("export failed")
        why = (f"something went wrong on the server ({type(error).__name__}); the details "
               "are in the server's log")
        return None, refusal_line("Not exported", why), why
    return path, "\n\n".join(escape_md(remark) for remark in remarks), None


def notice_reset() -> str:
    """The message line once the choice a refusal was about changed."""
    return EMPTY_STATE
