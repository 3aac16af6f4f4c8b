"""A run's work rows and their results: what is left to do, batched result commits, totals.

A work row without a row in `run_responses` is pending; that LEFT JOIN is the single source
of truth for resume, so there is no status column that could disagree with the results.
`record_batch` writes results, their cache entries and the run's live counters in one
transaction: a result is either fully recorded (and never requested again) or not at all.
"""
from __future__ import annotations

import json
import time

import sqlite_utils

from .db import atomic, now, rows
from .runner_retried import add_retried, retried_totals
from .scores import drop_response_scores

RESPONSE_COLUMNS = ("work_id", "run_id", "status", "reason", "text", "answer", "clues",
                    "box_convention", "finish_reason", "prompt_tokens", "completion_tokens",
                    "latency", "attempts", "rate_limited", "cached", "cached_from", "cache_key",
                    "cost", "estimated_text_tokens", "estimated_image_tokens", "created_at")
CACHE_COLUMNS = ("key", "text", "finish_reason", "refusal", "prompt_tokens",
                 "completion_tokens", "latency", "run_id", "judge", "created_at")
# ON CONFLICT ... DO NOTHING, not INSERT OR IGNORE: only a second result for the same work row
# (or a second cache entry for a key) is ignored; any other constraint failure must raise
# rather than silently drop a result.
_INSERT_RESPONSE = (f"INSERT INTO run_responses ({', '.join(RESPONSE_COLUMNS)}) "
                    f"VALUES ({', '.join('?' * len(RESPONSE_COLUMNS))}) "
                    "ON CONFLICT(work_id) DO NOTHING")
_INSERT_CACHE = (f"INSERT INTO response_cache ({', '.join(CACHE_COLUMNS)}) "
                 f"VALUES ({', '.join('?' * len(CACHE_COLUMNS))}) ON CONFLICT(key) DO NOTHING")
_RESPONSE_DEFAULTS = {"reason": "", "attempts": 0, "rate_limited": 0, "cached": 0}


def pending_work(db: sqlite_utils.Database, run_id: str, phase: str | None = None
                 ) -> list[dict]:
    """Work rows with no result yet, in creation order (item by item)."""
    sql = ("SELECT w.id, w.phase, w.item_id, w.repeat, w.sample, w.seed FROM run_work w "
           "LEFT JOIN run_responses r ON r.work_id = w.id "
           "WHERE w.run_id = ? AND r.work_id IS NULL")
    params: list = [run_id]
    if phase is not None:
        sql += " AND w.phase = ?"
        params.append(phase)
    return rows(db, sql + " ORDER BY w.id", params)


def _response_values(response: dict, run_id: str, stamp: str) -> list:
    row = {**_RESPONSE_DEFAULTS, **{k: v for k, v in response.items() if v is not None},
           "run_id": run_id, "created_at": stamp,
           "clues": json.dumps(response.get("clues") or [], ensure_ascii=False)}
    return [row.get(c) for c in RESPONSE_COLUMNS]


def record_batch(db: sqlite_utils.Database, run_id: str, owner: str, responses: list[dict],
                 cache_rows: list[dict], totals: dict) -> dict:
    """Commit results + cache entries + live counters at once; renew the lease.

    Returns {"inserted", "control", "owner"}: what the dispatcher needs to know next (was a
    pause/cancel requested? do we still own the run?) read inside the same transaction.
    """
    stamp = now()
    with atomic(db):
        conn = db.conn
        before = conn.total_changes
        conn.executemany(_INSERT_RESPONSE, [_response_values(r, run_id, stamp)
                                            for r in responses])
        inserted = conn.total_changes - before
        conn.executemany(_INSERT_CACHE, [
            [{**entry, "text": entry.get("text") or "", "run_id": run_id,
              "created_at": stamp}.get(c) for c in CACHE_COLUMNS] for entry in cache_rows])
        conn.execute("UPDATE model_runs SET totals = ?, heartbeat = ? "
                     "WHERE id = ? AND owner = ?",
                     [json.dumps(totals, sort_keys=True), time.time(), run_id, owner])
        state = conn.execute("SELECT control, owner FROM model_runs WHERE id = ?",
                             [run_id]).fetchone()
    return {"inserted": inserted, "control": state[0] if state else None,
            "owner": state[1] if state else None}


USAGE_RUNS = 50
"""The latest runs of an endpoint whose usage a projection is calibrated on."""

_USED = ("EXISTS (SELECT 1 FROM run_responses u WHERE u.run_id = model_runs.id AND u.cached = 0 "
         "AND u.status != 'error' AND u.completion_tokens IS NOT NULL)")
"""A run that recorded usage: a run answered wholly from the cache, or whose every request
failed, has none, and counted among the latest runs it pushed older usage out."""


def _usage_runs(db: sqlite_utils.Database, base_url: str, model: str) -> tuple[list[str], str]:
    """(the latest USAGE_RUNS runs of `model` that recorded usage, where): those at
    `base_url` ("endpoint"), else at any URL ("model": the same model's replies at another
    URL, a second endpoint or one edited to a new address, were not found and the plan said
    "no recorded usage" beside runs that had recorded it)."""
    query = ("SELECT id FROM model_runs WHERE json_extract(config, '$.endpoint.model') = ? "
             f"AND {_USED} ")
    order = "ORDER BY created_at DESC LIMIT ?"
    same = [r[0] for r in db.conn.execute(
        query + "AND rtrim(json_extract(config, '$.endpoint.base_url'), '/') = ? " + order,
        [model, base_url.rstrip("/"), USAGE_RUNS])]
    if same:
        return same, "endpoint"
    return [r[0] for r in db.conn.execute(query + order, [model, USAGE_RUNS])], "model"


def usage_history(db: sqlite_utils.Database, base_url: str, model: str) -> dict:
    """What `model` at `base_url` reported for the requests its latest USAGE_RUNS runs with
    usage sent (not cache hits, not failures), else what `model` reported at any URL:
    {"prompts": [{"images", "n", "prompt", "text", "image"}] (reported prompt tokens and the
    a-priori estimates, summed over the requests without and with images that recorded an
    estimate), "completions": [{"setting", "clues", "n", "completion"}] (a first pass of
    clues=self counted under its own setting, with no clues), "at": "endpoint" or "model"
    (whose usage it is)}: what `runner.costs.calibrate` reads."""
    found, at = _usage_runs(db, base_url, model)
    runs = json.dumps(found)
    sent = ("FROM run_responses r JOIN run_work w ON w.id = r.work_id "
            "JOIN model_runs m ON m.id = r.run_id WHERE r.run_id IN "
            "(SELECT value FROM json_each(?)) AND r.cached = 0 AND r.status != 'error' ")
    prompts = rows(db, "SELECT r.estimated_image_tokens > 0 AS images, count(*) AS n, "
                       "sum(r.prompt_tokens) AS prompt, sum(r.estimated_text_tokens) AS text, "
                       "sum(r.estimated_image_tokens) AS image " + sent
                   + "AND r.prompt_tokens IS NOT NULL AND r.estimated_text_tokens IS NOT NULL "
                     "GROUP BY images", [runs])
    completions = rows(db, "SELECT CASE w.phase WHEN 'clues' THEN json_extract(m.config, "
                           "'$.clue_pass_setting') ELSE json_extract(m.config, '$.setting') "
                           "END AS setting, CASE w.phase WHEN 'clues' THEN 'none' ELSE "
                           "json_extract(m.config, '$.clues') END AS clues, count(*) AS n, "
                           "sum(r.completion_tokens) AS completion " + sent
                       + "AND r.completion_tokens IS NOT NULL GROUP BY setting, clues", [runs])
    for p in prompts:
        p["images"] = bool(p["images"])
    return {"prompts": prompts, "completions": completions, "at": at}


def work_count(db: sqlite_utils.Database, run_id: str) -> int:
    return db.conn.execute("SELECT count(*) FROM run_work WHERE run_id = ?",
                           [run_id]).fetchone()[0]


def work_counts(db: sqlite_utils.Database, run_id: str) -> dict[str, int]:
    """{"answer": n, "clues": m}: a run's work rows per phase (0 for a phase it has not)."""
    found = dict(db.conn.execute("SELECT phase, count(*) FROM run_work WHERE run_id = ? "
                                 "GROUP BY phase", [run_id]).fetchall())
    return {"answer": found.get("answer", 0), "clues": found.get("clues", 0)}


def clue_work_ids(db: sqlite_utils.Database, run_id: str) -> set[int]:
    """The ids of a run's first-pass (clue) work rows, so its counters can keep them apart."""
    return {r[0] for r in db.conn.execute(
        "SELECT id FROM run_work WHERE run_id = ? AND phase = 'clues'", [run_id])}


NO_SOURCE_CLUE = "no clues from run "
"""How the reason of an answer row starts that was not asked because the run its clues are
injected from (clues=run:ID) has none for the item (its reply there failed or listed none):
stored as an error row, but counted apart ("no source clue"), never as this run's error."""


def no_source_clue_items(db: sqlite_utils.Database, run_id: str) -> dict[str, int]:
    """{item_id: answer rows} of the run that were not asked for want of a source clue."""
    return dict(db.conn.execute(
        "SELECT w.item_id, count(*) FROM run_responses r JOIN run_work w ON w.id = r.work_id "
        "WHERE r.run_id = ? AND w.phase = 'answer' AND r.status = 'error' AND r.reason LIKE ? "
        "GROUP BY w.item_id", [run_id, NO_SOURCE_CLUE + "%"]).fetchall())


def aggregates(db: sqlite_utils.Database, run_id: str) -> dict:
    """Sums over a run's recorded results, the starting point of its live counters.
    Tokens count only replies this run paid for (not cache hits)."""
    out = {"by_status": {}, "prompt_tokens": 0, "completion_tokens": 0, "cost": 0.0,
           "cached": 0, "attempts": 0, "rate_limited": 0, "priced": 0}
    for r in rows(db, "SELECT status, count(*) AS n, "
                      "sum(CASE WHEN cached = 0 THEN prompt_tokens END) AS pt, "
                      "sum(CASE WHEN cached = 0 THEN completion_tokens END) AS ct, "
                      "sum(cost) AS cost, sum(cached) AS cached, "
                      "sum(attempts) AS attempts, sum(rate_limited) AS rl, "
                      "sum(CASE WHEN cached = 0 AND cost IS NOT NULL THEN 1 ELSE 0 END) AS priced "
                      "FROM run_responses WHERE run_id = ? "
                      "GROUP BY status", [run_id]):
        out["by_status"][r["status"]] = r["n"]
        out["prompt_tokens"] += r["pt"] or 0
        out["completion_tokens"] += r["ct"] or 0
        out["cost"] += r["cost"] or 0.0
        out["cached"] += r["cached"] or 0
        out["attempts"] += r["attempts"] or 0
        out["rate_limited"] += r["rl"] or 0
        out["priced"] += r["priced"] or 0
    missing = sum(no_source_clue_items(db, run_id).values())
    if missing:        # counted apart from the errors: `NO_SOURCE_CLUE`
        out["by_status"]["error"] -= missing
        out["by_status"]["no_source_clue"] = missing
    out["clue_by_status"] = dict(db.conn.execute(
        "SELECT r.status, count(*) FROM run_responses r JOIN run_work w ON w.id = r.work_id "
        "WHERE r.run_id = ? AND w.phase = 'clues' GROUP BY r.status", [run_id]).fetchall())
    out["cached_from"] = cache_sources(db, run_id)
    out["latencies"] = [r[0] for r in db.conn.execute(
        "SELECT latency FROM run_responses WHERE run_id = ? AND cached = 0 "
        "AND latency IS NOT NULL", [run_id])]
    out["retried"] = retried_totals(db, run_id)    # the rows deleted to be sent again
    return out


UNKNOWN_SOURCE = ""
"""The source of a cached reply recorded before sources were kept, whose run is unknown."""


def cached_replies(db: sqlite_utils.Database, run_id: str) -> list[dict]:
    """[{"phase", "repeat", "sample", "source", "n"}]: how many of the run's results were
    taken from the cache, per phase, repeat, sample and the run that made the reply (UNKNOWN_SOURCE when it is
    not known)."""
    return rows(db, "SELECT w.phase, w.repeat, w.sample, coalesce(r.cached_from, '') AS source, "
                    "count(*) AS n FROM run_responses r JOIN run_work w ON w.id = r.work_id "
                    "WHERE r.run_id = ? AND r.cached = 1 GROUP BY w.phase, w.repeat, w.sample, "
                    "source ORDER BY w.phase, w.repeat, w.sample, source", [run_id])


def cache_sources(db: sqlite_utils.Database, run_id: str) -> dict[str, int]:
    """{source run: results of this run taken from its replies} (both phases)."""
    out: dict[str, int] = {}
    for entry in cached_replies(db, run_id):
        out[entry["source"]] = out.get(entry["source"], 0) + entry["n"]
    return out


def error_reasons(db: sqlite_utils.Database, run_id: str, phase: str = "answer",
                  limit: int = 3) -> list[tuple[str, int]]:
    """[(reason, count)] of a run's error results in `phase`, the most common first."""
    return [(r[0] or "", r[1]) for r in db.conn.execute(
        "SELECT r.reason, count(*) AS n FROM run_responses r JOIN run_work w ON w.id = "
        "r.work_id WHERE r.run_id = ? AND w.phase = ? AND r.status = 'error' "
        "GROUP BY r.reason ORDER BY n DESC, r.reason LIMIT ?", [run_id, phase, limit])]


def run_results(db: sqlite_utils.Database, run_id: str, phase: str | None = "answer"
                ) -> list[dict]:
    """Every work row of the run with its result (None fields while pending), in order."""
    sql = ("SELECT w.id AS work_id, w.phase, w.item_id, w.repeat, w.sample, w.seed, "
           + ", ".join(f"r.{c}" for c in RESPONSE_COLUMNS if c not in ("work_id", "run_id"))
           + " FROM run_work w LEFT JOIN run_responses r ON r.work_id = w.id "
             "WHERE w.run_id = ?")
    params: list = [run_id]
    if phase is not None:
        sql += " AND w.phase = ?"
        params.append(phase)
    found = rows(db, sql + " ORDER BY w.id", params)
    for r in found:
        r["clues"] = json.loads(r["clues"]) if r["clues"] else []
    return found


def response_clues(db: sqlite_utils.Database, run_id: str, phase: str,
                   sample: int = 0) -> dict[tuple[str, int], dict]:
    """{(item_id, repeat): {"status", "clues"}} of one sample of a run's responses: the
    clue source of another run (`run:<ID>`) or of this run's own first pass (`self`)."""
    out = {}
    for r in rows(db, "SELECT w.item_id, w.repeat, r.status, r.clues FROM run_work w "
                      "JOIN run_responses r ON r.work_id = w.id WHERE w.run_id = ? "
                      "AND w.phase = ? AND w.sample = ?", [run_id, phase, sample]):
        out[(r["item_id"], r["repeat"])] = {"status": r["status"],
                                            "clues": json.loads(r["clues"] or "[]")}
    return out


def delete_results(db: sqlite_utils.Database, run_id: str, statuses: tuple[str, ...]) -> int:
    """Forget results with these statuses (e.g. 'error') so a resume requests them again.
    The verdicts scored on those replies go in the same transaction: the new replies have
    none until the run is scored again, which the tables then say (`work_without_score`),
    instead of showing the old verdicts (an 'error' on a reply that is no longer one).
    What was sent for them is kept in the run's retried totals (store/runner_retried.py)."""
    if not statuses:
        return 0
    where = f"run_id = ? AND status IN ({','.join('?' * len(statuses))})"
    with atomic(db):
        work_ids = [r[0] for r in db.conn.execute(
            f"SELECT work_id FROM run_responses WHERE {where}", [run_id, *statuses])]
        drop_response_scores(db, run_id, work_ids)
        add_retried(db, run_id, where, [run_id, *statuses])
        return db.conn.execute(f"DELETE FROM run_responses WHERE {where}",
                               [run_id, *statuses]).rowcount


def run_item_ids(db: sqlite_utils.Database, run_id: str) -> list[str]:
    return list(run_item_versions(db, run_id))


def run_item_versions(db: sqlite_utils.Database, run_id: str) -> dict[str, int | None]:
    """{item_id: version the run was planned with}, in run order."""
    return {r[0]: r[1] for r in db.conn.execute(
        "SELECT item_id, max(item_version) FROM run_work WHERE run_id = ? GROUP BY item_id "
        "ORDER BY min(id)", [run_id])}
