"""Scores: verdicts on run responses, and the bulk reads that scoring and the tables need.

One row per response x protocol x judge setup (migration 0004). Writes are upserts, so
scoring a run twice leaves exactly the rows of the second scoring: re-scoring is idempotent.
Reads are single joins over a whole run rather than item-by-item lookups, because a run of
100,000 responses must be scored in seconds and its tables drawn in well under one.
Items are read as they are now (a gold answer corrected after the run counts).
"""
from __future__ import annotations

import json

import sqlite_utils

from .db import atomic, now, rows
from .legacy import as_read

SCORE_COLUMNS = ("run_id", "protocol", "judge", "work_id", "value", "score", "subscores",
                 "rationale", "decided_by", "answer", "details", "judge_prompt", "judge_reply",
                 "created_at")
_KEY = ("run_id", "protocol", "judge", "work_id")
_UPSERT = (f"INSERT INTO scores ({', '.join(SCORE_COLUMNS)}) "
           f"VALUES ({', '.join('?' * len(SCORE_COLUMNS))}) "
           f"ON CONFLICT({', '.join(_KEY)}) DO UPDATE SET "
           + ", ".join(f"{c} = excluded.{c}" for c in SCORE_COLUMNS if c not in _KEY))
_encode = json.JSONEncoder(ensure_ascii=False, sort_keys=True, default=str).encode


def _json(value) -> str:
    """JSON columns accept a dict or an already encoded string (callers that write many
    rows sharing one verdict encode it once)."""
    if isinstance(value, str):
        return value
    return _encode(value) if value else "{}"


def upsert_scores(db: sqlite_utils.Database, scores: list[dict]) -> int:
    """Insert or replace verdicts, in key order, in one transaction; returns the row count."""
    stamp = now()
    values = [(s["run_id"], s["protocol"], s["judge"], s["work_id"], s["value"], s.get("score"),
               _json(s.get("subscores")), s.get("rationale") or "", s.get("decided_by") or "",
               s.get("answer"), _json(s.get("details")), s.get("judge_prompt"),
               s.get("judge_reply"), stamp) for s in scores]
    values.sort(key=lambda v: (v[0], v[1], v[2], v[3]))
    with atomic(db):
        db.conn.executemany(_UPSERT, values)
        _log_scorings(db, {v[:3] for v in values}, stamp)
    return len(values)


def _log_scorings(db: sqlite_utils.Database, keys, stamp: str) -> None:
    """Refresh the `scorings` line of each (run, protocol, judge) just written or deleted."""
    for run_id, protocol, judge in keys:
        n = db.conn.execute("SELECT count(*) FROM scores WHERE run_id = ? AND protocol = ? "
                            "AND judge = ?", [run_id, protocol, judge]).fetchone()[0]
        if not n:
            db.conn.execute("DELETE FROM scorings WHERE run_id = ? AND protocol = ? AND "
                            "judge = ?", [run_id, protocol, judge])
            continue
        db.conn.execute("INSERT INTO scorings (run_id, protocol, judge, n, scored_at, "
                        "generation) VALUES (?, ?, ?, ?, ?, 1) ON CONFLICT(run_id, protocol, "
                        "judge) DO UPDATE SET n = excluded.n, scored_at = excluded.scored_at, "
                        "generation = generation + 1", [run_id, protocol, judge, n, stamp])


def delete_scores(db: sqlite_utils.Database, run_id: str, protocol: str | None = None,
                  judge: str | None = None) -> int:
    where, params = "run_id = ?", [run_id]
    if protocol:
        where, params = where + " AND protocol = ?", params + [protocol]
    if judge:
        where, params = where + " AND judge = ?", params + [judge]
    with atomic(db):
        keys = db.conn.execute(f"SELECT run_id, protocol, judge FROM scorings WHERE {where}",
                               params).fetchall()
        deleted = db.conn.execute(f"DELETE FROM scores WHERE {where}", params).rowcount
        _log_scorings(db, keys, now())
    return deleted


def drop_response_scores(db: sqlite_utils.Database, run_id: str, work_ids: list[int]) -> int:
    """Delete every verdict on these responses (replaced replies: a verdict on the old reply
    must not count for the new one), refreshing the run's `scorings` lines; the caller's
    transaction holds it together with the replacement. Returns the verdicts deleted."""
    if not work_ids:
        return 0
    with atomic(db):
        keys = db.conn.execute("SELECT run_id, protocol, judge FROM scorings WHERE run_id = ?",
                               [run_id]).fetchall()
        deleted = 0
        for start in range(0, len(work_ids), 500):
            chunk = work_ids[start:start + 500]
            deleted += db.conn.execute(
                f"DELETE FROM scores WHERE run_id = ? AND work_id IN "
                f"({','.join('?' * len(chunk))})", [run_id, *chunk]).rowcount
        if deleted:
            _log_scorings(db, keys, now())
    return deleted


def scoring_responses(db: sqlite_utils.Database, run_id: str, *, with_clues: bool = False,
                      with_text: bool = False) -> list[dict]:
    """The answer-phase responses of a run (pending work rows left out), with what a judge
    needs: the stored extraction, and on request the clues, box convention and raw text."""
    extra = (", r.clues, r.box_convention" if with_clues else "") + \
        (", r.text" if with_text else "")
    found = rows(db, "SELECT w.id AS work_id, w.item_id, w.repeat, w.sample, r.status, "
                     "r.answer, r.reason, r.completion_tokens" + extra +
                     " FROM run_work w JOIN run_responses r ON r.work_id = w.id "
                     "WHERE w.run_id = ? AND w.phase = 'answer' ORDER BY w.id", [run_id])
    if with_clues:
        for r in found:
            r["clues"] = json.loads(r["clues"]) if r["clues"] else []
    return found


def scoring_items(db: sqlite_utils.Database, run_id: str, *, with_clues: bool = False
                  ) -> dict[str, dict]:
    """{item_id: item fields a judge needs} for every item of a run, in three queries:
    answer_type, answer, aliases, options, domain, subtask, reasoning_type, question, images
    and, on request, clues with their boxes ({"image": sha, "x0".."y1"})."""
    scope = "(SELECT DISTINCT item_id FROM run_work WHERE run_id = ?)"
    items = {}
    for r in rows(db, "SELECT id, dataset, domain, subtask, reasoning_type, question, "
                      "answer_type, answer, aliases, gt_reasoning FROM items "
                      f"WHERE id IN {scope}", [run_id]):
        r["aliases"] = json.loads(r["aliases"] or "[]")
        as_read(r).update(options=[], images=[], clues=[])
        items[r["id"]] = r
    for r in rows(db, "SELECT item_id, label, text, image FROM item_options "
                      f"WHERE item_id IN {scope} ORDER BY item_id, position", [run_id]):
        items[r.pop("item_id")]["options"].append(r)
    for r in rows(db, "SELECT item_id, sha256 FROM item_images "
                      f"WHERE item_id IN {scope} ORDER BY item_id, position", [run_id]):
        items[r["item_id"]]["images"].append(r["sha256"])
    if with_clues:
        clues = {}
        for r in rows(db, "SELECT id, item_id, text, reasoning FROM clues "
                          f"WHERE item_id IN {scope} ORDER BY item_id, position", [run_id]):
            clue = {"text": r["text"], "reasoning": r["reasoning"], "boxes": []}
            clues[r["id"]] = clue
            items[r["item_id"]]["clues"].append(clue)
        for r in rows(db, "SELECT b.clue_id, b.image, b.x0, b.y0, b.x1, b.y1 FROM boxes b "
                          "JOIN clues c ON c.id = b.clue_id "
                          f"WHERE c.item_id IN {scope} ORDER BY b.clue_id, b.position",
                      [run_id]):
            clues[r.pop("clue_id")]["boxes"].append(r)
    return items


def image_sizes(db: sqlite_utils.Database, shas: list[str]) -> dict[str, tuple[int, int]]:
    found = {}
    for start in range(0, len(shas), 500):
        chunk = shas[start:start + 500]
        for sha, w, h in db.conn.execute(
                f"SELECT sha256, width, height FROM images WHERE sha256 IN "
                f"({','.join('?' * len(chunk))})", chunk):
            found[sha] = (w, h)
    return found


def run_scores(db: sqlite_utils.Database, run_id: str, protocol: str | None = None,
               judge: str | None = None, *, full: bool = False) -> list[dict]:
    """A run's verdicts with what the tables group by (item domain, subtask, reasoning type,
    dataset; repeat, sample; output tokens). `full` adds rationale, details, prompt, reply."""
    columns = ("s.work_id, w.item_id, w.repeat, w.sample, s.protocol, s.judge, s.value, "
               "s.score, s.subscores, s.answer, s.decided_by, s.created_at, i.domain, "
               "i.subtask, i.reasoning_type, i.dataset, r.completion_tokens")
    if full:
        columns += ", s.rationale, s.details, s.judge_prompt, s.judge_reply, r.text"
    sql = (f"SELECT {columns} FROM scores s JOIN run_work w ON w.id = s.work_id "
           "LEFT JOIN run_responses r ON r.work_id = s.work_id "
           "LEFT JOIN items i ON i.id = w.item_id WHERE s.run_id = ?")
    params: list = [run_id]
    if protocol:
        sql, params = sql + " AND s.protocol = ?", params + [protocol]
    if judge:
        sql, params = sql + " AND s.judge = ?", params + [judge]
    found = rows(db, sql + " ORDER BY s.work_id", params)
    for r in found:
        r["subscores"] = json.loads(r["subscores"]) if r["subscores"] != "{}" else {}
        if full:
            r["details"] = json.loads(r["details"] or "{}")
    return found


def score_values(db: sqlite_utils.Database, run_id: str, protocol: str, judge: str
                 ) -> list[tuple]:
    """The lean read the tables need, as tuples: (work_id, item_id, repeat, sample, value,
    answer, subscores JSON, output tokens), in response order. Item groups come separately
    (`item_groups`): joining every verdict with its item costs more than both reads."""
    return db.conn.execute(
        "SELECT s.work_id, w.item_id, w.repeat, w.sample, s.value, s.answer, s.subscores, "
        "r.completion_tokens FROM scores s JOIN run_work w ON w.id = s.work_id "
        "LEFT JOIN run_responses r ON r.work_id = s.work_id "
        "WHERE s.run_id = ? AND s.protocol = ? AND s.judge = ? ORDER BY s.work_id",
        [run_id, protocol, judge]).fetchall()


def unread_right_answers(db: sqlite_utils.Database, run_id: str, protocol: str, judge: str,
                         members: list[str]) -> set[int]:
    """The responses whose `protocol` verdict by `judge` is unscored because a clue judge
    (`members`: the judge, or a panel's members) was asked about them and its reply could
    not be read: a verdict that kept its judge prompt. Only right answers are sent to the
    clue judge, so these are right answers left out of the accuracy."""
    marks = ",".join("?" * len(members))
    return {wid for (wid,) in db.conn.execute(
        "SELECT s.work_id FROM scores s WHERE s.run_id = ? AND s.protocol = ? AND s.judge = ? "
        "AND s.value = 'unscored' AND EXISTS (SELECT 1 FROM scores m WHERE m.run_id = s.run_id "
        "AND m.work_id = s.work_id AND m.protocol = s.protocol AND m.value = 'unscored' "
        f"AND m.judge_prompt IS NOT NULL AND m.judge IN ({marks}))",
        [run_id, protocol, judge, *members])}


def ungraded_work(db: sqlite_utils.Database, run_id: str, judge: str, members: list[str]
                  ) -> set[int]:
    """The responses whose VER-Bench verdict by `judge` has no sub-scores because a judge
    (`members`: the judge, or a panel's members) was asked and gave none (its reply
    unreadable or its call failed): a verdict that kept its judge prompt and has no AC. The
    table names them apart from the other unscored (a row read 0.0 on n 2, 12 of its 14
    items left out by the judge's failures)."""
    marks = ",".join("?" * len(members))
    return {wid for (wid,) in db.conn.execute(
        "SELECT s.work_id FROM scores s WHERE s.run_id = ? AND s.protocol = 'verbench' "
        "AND s.judge = ? AND json_extract(s.subscores, '$.AC') IS NULL AND EXISTS (SELECT 1 "
        "FROM scores m WHERE m.run_id = s.run_id AND m.work_id = s.work_id AND m.protocol = "
        "s.protocol AND m.judge_prompt IS NOT NULL AND json_extract(m.subscores, '$.AC') IS "
        f"NULL AND m.judge IN ({marks}))", [run_id, judge, *members])}


def panel_votes(db: sqlite_utils.Database, run_id: str, protocol: str, judge: str
                ) -> list[tuple[int, str]]:
    """(work_id, votes JSON) of each verdict of the panel `judge`: its members' votes, kept
    in the subscores (a graded panel keeps them in the details)."""
    return db.conn.execute(
        "SELECT work_id, COALESCE(json_extract(subscores, '$.votes'), "
        "json_extract(details, '$.votes'), '{}') FROM scores "
        "WHERE run_id = ? AND protocol = ? AND judge = ?", [run_id, protocol, judge]).fetchall()


def judges_answered(db: sqlite_utils.Database, run_id: str, protocols: list[str],
                    judges: list[str]) -> set[tuple[str, int]]:
    """{(judge, work_id)}: the responses on which each of `judges` gave a reply that could
    be read (a verdict under one of `protocols` that kept its reply, is not unscored and is
    not marked `judge_failed`: an unparsed reply the judge gave no sub-scores)."""
    return set(db.conn.execute(
        "SELECT DISTINCT judge, work_id FROM scores WHERE " + _among(judges, protocols)
        + " AND judge_reply IS NOT NULL AND value != 'unscored' "
        "AND json_extract(details, '$.judge_failed') IS NULL",
        [run_id, *judges, *protocols]).fetchall())


def judges_asked(db: sqlite_utils.Database, run_id: str, protocols: list[str],
                 judges: list[str]) -> int:
    """The responses any of `judges` was asked about under one of `protocols` (a verdict
    that kept its judge prompt): 0 when rules decided them all."""
    return db.conn.execute(
        "SELECT count(DISTINCT work_id) FROM scores WHERE " + _among(judges, protocols)
        + " AND judge_prompt IS NOT NULL", [run_id, *judges, *protocols]).fetchone()[0]


def _among(judges: list[str], protocols: list[str]) -> str:
    return (f"run_id = ? AND judge IN ({','.join('?' * len(judges))}) "
            f"AND protocol IN ({','.join('?' * len(protocols))})")


def work_without_score(db: sqlite_utils.Database, run_id: str, protocol: str, judge: str
                       ) -> list[tuple]:
    """The run's answers that have no verdict under (protocol, judge), as (work_id, item_id,
    repeat, sample, output tokens): those recorded after that scoring (a resume), which no
    table may pass over in silence; their items count as unscored."""
    return db.conn.execute(
        "SELECT r.work_id, w.item_id, w.repeat, w.sample, r.completion_tokens "
        "FROM run_responses r JOIN run_work w ON w.id = r.work_id "
        "WHERE w.run_id = ? AND w.phase = 'answer' AND NOT EXISTS (SELECT 1 FROM scores s "
        "WHERE s.work_id = r.work_id AND s.protocol = ? AND s.judge = ?) ORDER BY r.work_id",
        [run_id, protocol, judge]).fetchall()


def item_groups(db: sqlite_utils.Database) -> tuple[tuple, dict[str, tuple]]:
    """(state, {item_id: (domain, subtask, reasoning_type)}); `items_state` tells when the
    map is stale, so callers can keep it meanwhile."""
    state = items_state(db)
    return state, {r[0]: r[1:] for r in db.conn.execute(
        "SELECT id, domain, subtask, reasoning_type FROM items")}


def items_state(db: sqlite_utils.Database) -> tuple:
    """(count, last update): changes whenever an item is added, saved or deleted."""
    return tuple(db.conn.execute("SELECT count(*), max(updated_at) FROM items").fetchone())


def score_judges(db: sqlite_utils.Database, run_id: str) -> list[dict]:
    """[{protocol, judge, n, latest, generation}]: the run's scorings, newest first."""
    return rows(db, "SELECT protocol, judge, n, scored_at AS latest, generation FROM scorings "
                    "WHERE run_id = ? ORDER BY latest DESC, judge", [run_id])


def scored_runs(db: sqlite_utils.Database) -> list[str]:
    return [r[0] for r in db.conn.execute("SELECT DISTINCT run_id FROM scorings "
                                          "ORDER BY run_id")]


def scored_runs_by_dataset(db: sqlite_utils.Database) -> dict[str, list[str]]:
    """{dataset: scored runs with work on its items}, datasets and runs sorted (a run over
    two datasets is under both)."""
    found: dict[str, list[str]] = {}
    for dataset, run_id in db.conn.execute(
            "SELECT DISTINCT i.dataset, w.run_id FROM run_work w JOIN items i ON i.id = w.item_id "
            "WHERE w.run_id IN (SELECT run_id FROM scorings) ORDER BY 1, 2"):
        found.setdefault(dataset, []).append(run_id)
    return found


def dataset_item_ids(db: sqlite_utils.Database, dataset: str) -> frozenset:
    return frozenset(r[0] for r in db.conn.execute("SELECT id FROM items WHERE dataset = ?",
                                                   [dataset]))
