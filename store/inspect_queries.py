"""Reads of the Inspect tab: one response with everything about it, its verdicts, the
responses to one item, the judges that scored a run, and the rows of a page of the failure
browser. (Which responses match a filter is inspect_browse; tags and notes inspect_tags.)
"""
from __future__ import annotations

import json

import sqlite_utils

from .db import one, rows
from .errors import NotFoundError
from .runner_work import NO_SOURCE_CLUE

PROTOCOLS = ("general", "rigorous", "grounded", "verbench")
NOT_ASKED = NO_SOURCE_CLUE + "%"
"""LIKE pattern of the reason of an error row never asked ("no source clue")."""


def response_detail(db: sqlite_utils.Database, work_id: int) -> dict:
    """A work row with its result (None fields while pending) and its run's config."""
    row = one(db, "SELECT w.id AS work_id, w.run_id, w.phase, w.item_id, w.repeat, w.sample, "
                  "w.seed, w.item_version, r.status, r.reason, r.text, r.answer, r.clues, "
                  "r.box_convention, r.finish_reason, r.prompt_tokens, r.completion_tokens, "
                  "r.latency, r.cached, r.cached_from, r.cost, r.created_at, m.config, m.endpoint, "
                  "m.status AS run_status, m.created_at AS run_created_at "
                  "FROM run_work w JOIN model_runs m ON m.id = w.run_id "
                  "LEFT JOIN run_responses r ON r.work_id = w.id WHERE w.id = ?",
              [int(work_id)])
    if row is None:
        raise NotFoundError(f"no response {work_id}")
    row["clues"] = json.loads(row["clues"]) if row["clues"] else []
    row["config"] = json.loads(row["config"] or "{}")
    return row


def response_verdicts(db: sqlite_utils.Database, run_id: str, work_id: int) -> list[dict]:
    """Every verdict on one response: one primary-key lookup per scoring of its run (CROSS
    JOIN keeps that order; otherwise SQLite may scan the run's whole range of scores)."""
    found = rows(db, "SELECT s.protocol, s.judge, s.value, s.score, s.subscores, s.rationale, "
                     "s.decided_by, s.answer, s.details, s.judge_prompt, s.judge_reply, "
                     "s.created_at FROM scorings g CROSS JOIN scores s ON s.run_id = g.run_id AND "
                     "s.protocol = g.protocol AND s.judge = g.judge AND s.work_id = ? "
                     "WHERE g.run_id = ?", [int(work_id), run_id])
    order = {p: n for n, p in enumerate(PROTOCOLS)}
    for r in found:
        r["subscores"] = json.loads(r["subscores"] or "{}")
        r["details"] = json.loads(r["details"] or "{}")
    found.sort(key=lambda r: (order.get(r["protocol"], 99), r["judge"]))
    return found


def item_responses(db: sqlite_utils.Database, item_id: str, limit: int = 500) -> list[dict]:
    """Answer-phase responses to one item across all runs (newest run first), with the
    run's config, for choosing what to compare with; the reason tells an error row never
    asked for want of a source clue (`runner_work.NO_SOURCE_CLUE`)."""
    found = rows(db, "SELECT w.id AS work_id, w.run_id, w.repeat, w.sample, w.item_version, "
                     "r.status, r.reason, r.answer, m.config, m.created_at AS run_created_at "
                     "FROM run_work w JOIN model_runs m ON m.id = w.run_id "
                     "JOIN run_responses r ON r.work_id = w.id "
                     "WHERE w.item_id = ? AND w.phase = 'answer' "
                     "ORDER BY m.created_at DESC, w.run_id, w.id LIMIT ?",
                 [item_id, int(limit)])
    configs: dict[str, dict] = {}
    for r in found:
        text = r.pop("config")
        r["config"] = configs.setdefault(r["run_id"], json.loads(text or "{}"))
    return found


def judges(db: sqlite_utils.Database, run_id: str | None = None) -> list[str]:
    """The judge setups that scored a run (or any run), offline first."""
    sql = "SELECT DISTINCT judge FROM scorings" + (" WHERE run_id = ?" if run_id else "")
    names = [r[0] for r in db.conn.execute(sql, [run_id] if run_id else [])]
    return sorted(names, key=lambda j: (j != "offline", j))


def page_rows(db: sqlite_utils.Database, work_ids: list[int], judge: str = "offline"
              ) -> list[dict]:
    """The browser's columns for these responses, in the given order: status as the counters
    name it ('no_source_clue' for an error row never asked, `runner_work.NO_SOURCE_CLUE`),
    verdicts under
    `judge`, the item's gold answer now (`gold`) and in the item version the run used
    (`run_gold`, None when that revision is not kept), groups, the response's tags."""
    if not work_ids:
        return []
    columns = ", ".join(f"(SELECT value FROM scores WHERE run_id = w.run_id AND protocol = "
                        f"'{p}' AND judge = ? AND work_id = w.id) AS {p}" for p in PROTOCOLS)
    found = rows(db, "SELECT w.id AS work_id, w.run_id, w.item_id, w.repeat, w.sample, "
                     "CASE WHEN r.status = 'error' AND coalesce(r.reason, '') LIKE ? THEN "
                     "'no_source_clue' ELSE r.status END AS status, "
                     "r.answer, r.completion_tokens, r.latency, r.cached, r.cached_from, "
                     "i.answer AS gold, (SELECT json_extract(v.snapshot, '$.answer') FROM revisions v WHERE "
                     "v.item_id = w.item_id AND v.version = w.item_version) AS run_gold, "
                     "i.dataset, "
                     f"i.domain, i.subtask, {columns}, (SELECT group_concat(t.tag, ', ') FROM "
                     "response_tags t WHERE t.work_id = w.id) AS tags FROM run_work w "
                     "JOIN run_responses r ON r.work_id = w.id LEFT JOIN items i ON "
                     f"i.id = w.item_id WHERE w.id IN ({','.join('?' * len(work_ids))})",
                 [NOT_ASKED] + [judge] * len(PROTOCOLS) + list(work_ids))
    by_id = {r["work_id"]: r for r in found}
    return [by_id[w] for w in work_ids if w in by_id]
