"""What was sent for the results a resume forgot to send them again ('retry errors',
`runner_work.delete_results`): their requests, retries, 429s, tokens and cost, summed per run
in `model_runs.retried` (migration 0022). The rows go (the item is asked again and its new
result takes their place) but what they cost does not: a billed endpoint was sent every one
of those attempts, and the run's requests, retries, tokens and cost must keep counting them.
"""
from __future__ import annotations

import json

import sqlite_utils

RETRIED_KEYS = ("results", "requests", "retries", "rate_limited", "prompt_tokens",
                "completion_tokens", "cost", "priced")
"""results: rows deleted; requests: their HTTP attempts; retries: the attempts beyond the
first of each; priced: those with a known cost (`aggregates`' "priced")."""


def retried_totals(db: sqlite_utils.Database, run_id: str) -> dict:
    """The run's sums over every result deleted to be sent again (zeros when none)."""
    row = db.conn.execute("SELECT retried FROM model_runs WHERE id = ?", [run_id]).fetchone()
    found = json.loads(row[0] or "{}") if row else {}
    return {key: found.get(key, 0) for key in RETRIED_KEYS}


def add_retried(db: sqlite_utils.Database, run_id: str, where: str, params: list) -> None:
    """Add the sums of the rows of run_responses matching `where` to the run's retried
    totals; called in the transaction that deletes them. Tokens and cost count only what
    this run paid for (not cache hits), as `runner_work.aggregates` does."""
    r = db.conn.execute(
        "SELECT count(*), coalesce(sum(attempts), 0), "
        "coalesce(sum(max(attempts - 1, 0)), 0), coalesce(sum(rate_limited), 0), "
        "coalesce(sum(CASE WHEN cached = 0 THEN prompt_tokens END), 0), "
        "coalesce(sum(CASE WHEN cached = 0 THEN completion_tokens END), 0), "
        "coalesce(sum(cost), 0), "
        "coalesce(sum(CASE WHEN cached = 0 AND cost IS NOT NULL THEN 1 ELSE 0 END), 0) "
        f"FROM run_responses WHERE {where}", params).fetchone()
    if not r[0]:
        return
    before = retried_totals(db, run_id)
    after = {key: before[key] + value for key, value in zip(RETRIED_KEYS, r)}
    db.conn.execute("UPDATE model_runs SET retried = ? WHERE id = ?",
                    [json.dumps(after, sort_keys=True), run_id])


def retried_text(retried: dict | None) -> str:
    """'9 errors sent again (their 54 earlier attempts among the requests and retries, and
    in the tokens and cost)', or '' when none was. Every attempt of an error sent again is
    a retry of its item (`runner.totals.RunTotals.retries`), so the retries said beside it
    are never fewer than its attempts ("0 of them retries; 4 errors retried (their 4
    attempts counted in the ... retries ...)" said both)."""
    n = (retried or {}).get("results") or 0
    if not n:
        return ""
    sent = retried.get("requests") or 0
    return (f"{n} error{'s' if n != 1 else ''} sent again (their {sent} earlier attempt"
            f"{'s' if sent != 1 else ''} among the requests and retries, and in the tokens "
            f"and cost)")
