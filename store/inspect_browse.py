"""The failure browser: which responses match a filter, in what order, one page at a time,
over runs of tens of thousands of responses.

How it stays fast: every condition is one narrow read per run that yields a set of work ids:
responses by run and status (index `idx_run_responses_run`), verdicts by a range of the
`scores` primary key (run, protocol, judge), tags by `idx_response_tags_run`, items through
their small table; flips map work ids between two runs (the map depends only on their work
rows, which never change, so it is kept), judge disagreement joins two judges' verdict
ranges. The sets are intersected in Python (a 50,000-id intersection takes about a
millisecond, where a per-row subquery costs microseconds per row). Sorting needs at most one
more narrow read (item order, kept too, or the index on output tokens and latency). The
matching ids, in order, are remembered per filter and sort until the data change
(`data_state`, at most CACHE_TTL_S), so paging and next/previous read only the page's rows.

Filter keys (all optional): run_id, dataset, domain, subtask, item (substring of the item id,
any case), status ('ok' | 'error' | 'no_source_clue' | 'refused' | 'truncated' | 'unparsed' |
'not_ok'; 'no_source_clue' is an error row never asked, counted apart from 'error' as every
counter counts it: `runner_work.NO_SOURCE_CLUE`; 'not_ok' leaves it out), judge
(whose verdicts the verdict filters use; default 'offline'), verdicts {protocol: value |
'not_correct'}, right_wrong_reason (general correct, rigorous wrong), flip_run + flip
('fixed' | 'broken' | 'any') + flip_protocol (default 'general'): this run against
flip_run on the same item, repeat and sample, disagree (a protocol on which the run's judges,
panels left out, give different values; unscored does not count), tag (a tag name,
'(tagged)' or '(untagged)'), skip_runs (run ids none of whose responses match).
"""
from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict

import sqlite_utils

from domain.judge_ids import PANEL_LIKE

from .db import reading
from .errors import ValidationError
from .inspect_queries import NOT_ASKED, PROTOCOLS, page_rows

STATUSES = ("ok", "error", "no_source_clue", "refused", "truncated", "unparsed")
VERDICT_VALUES = ("correct", "wrong", "unparsed", "unscored", "error")
NOT_CORRECT = ("wrong", "unparsed", "error")
SORTS = ("run order", "newest", "item", "longest output", "slowest")
TAGGED, UNTAGGED = "(tagged)", "(untagged)"
CACHE_SIZE = 32      # filters remembered (each a list of ids)
STABLE_SIZE = 8      # pair maps and item orders remembered (a 50,000-response run: ~5 MB)
CACHE_TTL_S = 60.0

_cache: OrderedDict = OrderedDict()         # matches per (db, filters, sort, data state)
_stable_cache: OrderedDict = OrderedDict()  # derived from runs' work rows only
_lock = threading.Lock()


def _ids(db, sql: str, params) -> set[int]:
    """The integers the one-column SELECT `sql` yields, as a set. Read as one string: half
    the cost of fetching 50,000 one-integer rows through the sqlite3 module."""
    text = db.conn.execute(f"WITH found(x) AS ({sql}) SELECT group_concat(x) FROM found",
                           params).fetchone()[0]
    return set(map(int, text.split(","))) if text else set()


def _check(filters: dict) -> None:
    for protocol, value in (filters.get("verdicts") or {}).items():
        if protocol not in PROTOCOLS:
            raise ValidationError(f"unknown protocol {protocol!r}", field="verdicts")
        if value not in VERDICT_VALUES + ("not_correct",):
            raise ValidationError(f"unknown verdict {value!r}", field="verdicts")
    status = filters.get("status")
    if status and status not in STATUSES + ("not_ok",):
        raise ValidationError(f"unknown status {status!r}", field="status")
    for key in ("flip_protocol", "disagree"):
        if filters.get(key) and filters[key] not in PROTOCOLS:
            raise ValidationError(f"unknown protocol {filters[key]!r}", field=key)
    if filters.get("flip") and filters["flip"] not in ("fixed", "broken", "any"):
        raise ValidationError(f"unknown flip {filters['flip']!r}", field="flip")
    if filters.get("flip") and not (filters.get("run_id") and filters.get("flip_run")):
        raise ValidationError("flips need a run and a run to compare it with", field="flip")


def _verdict_ids(db, run_id: str, protocol: str, judge: str, value: str) -> set[int]:
    values = NOT_CORRECT if value == "not_correct" else (value,)
    return _ids(db, "SELECT work_id FROM scores WHERE run_id = ? AND protocol = ? AND judge = ? "
                    f"AND value IN ({','.join('?' * len(values))})",
                [run_id, protocol, judge, *values])


def _stable(db, key: tuple, make):
    """A value derived from immutable rows (a run's work rows never change once created),
    remembered under `key` (which names the runs by id and creation time)."""
    with _lock:
        if key in _stable_cache:
            _stable_cache.move_to_end(key)
            return _stable_cache[key]
    value = make()
    with _lock:
        _stable_cache[key] = value
        while len(_stable_cache) > STABLE_SIZE:
            _stable_cache.popitem(last=False)
    return value


def _run_key(db, run_id: str) -> tuple:
    row = db.conn.execute("SELECT created_at FROM model_runs WHERE id = ?", [run_id]).fetchone()
    return run_id, row[0] if row else None


def _pairs(db, path: str, run_id: str, other: str) -> dict[int, int]:
    """{work id in run: work id of the same item, repeat and sample in other} (answer phase)."""
    return _stable(db, ("pairs", path, _run_key(db, run_id), _run_key(db, other)), lambda: dict(
        db.conn.execute("SELECT w.id, w2.id FROM run_work w JOIN run_work w2 ON w2.run_id = ? "
                        "AND w2.phase = 'answer' AND w2.item_id = w.item_id AND w2.repeat = "
                        "w.repeat AND w2.sample = w.sample WHERE w.run_id = ? AND "
                        "w.phase = 'answer'", [other, run_id])))


def _flips(db, path: str, run_id: str, filters: dict, judge: str) -> set[int]:
    """Responses whose verdict changed against the same item, repeat and sample of another
    run: fixed (not correct there, correct here), broken (the reverse), or any."""
    protocol, kind, other = filters.get("flip_protocol") or "general", filters["flip"], \
        filters["flip_run"]
    pairs = _pairs(db, path, run_id, other)
    out: set[int] = set()
    for now, then in (("correct", "not_correct"), ("not_correct", "correct")):
        if kind == ("broken" if now == "correct" else "fixed"):
            continue
        here = _verdict_ids(db, run_id, protocol, judge, now)
        there = _verdict_ids(db, other, protocol, judge, then)
        out |= {wid for wid in here if pairs.get(wid) in there}
    return out


def _disagreeing(db, run_id: str, protocol: str) -> set[int]:
    """Responses on which two of the run's judges (panels left out) give different values,
    `unscored` not counting: a join of the verdict ranges of each pair of judges."""
    judges = [r[0] for r in db.conn.execute(
        "SELECT judge FROM scorings WHERE run_id = ? AND protocol = ? AND judge NOT LIKE ? "
        "ORDER BY judge", [run_id, protocol, PANEL_LIKE])]
    out: set[int] = set()
    for n, first in enumerate(judges):
        for second in judges[n + 1:]:
            out |= _ids(db, "SELECT a.work_id FROM scores a JOIN scores b ON b.run_id = "
                            "a.run_id AND b.protocol = a.protocol AND b.judge = ? AND "
                            "b.work_id = a.work_id WHERE a.run_id = ? AND a.protocol = ? AND "
                            "a.judge = ? AND a.value != b.value AND a.value != 'unscored' AND "
                            "b.value != 'unscored'", [second, run_id, protocol, first])
    return out


def _item_filter(db, run_id: str, filters: dict) -> set[int] | None:
    """The run's responses to items of the chosen dataset / domain / subtask whose id
    contains the given text; None when no item filter is set."""
    where, params = [], [run_id]
    groups = [key for key in ("dataset", "domain", "subtask") if filters.get(key)]
    if groups:
        where.append("w.item_id IN (SELECT id FROM items WHERE "
                     + " AND ".join(f"{key} = ?" for key in groups) + ")")
        params += [filters[key] for key in groups]
    text = str(filters.get("item") or "").strip().lower()
    if text:
        where.append("instr(lower(w.item_id), ?) > 0")
        params.append(text)
    if not where:
        return None
    return _ids(db, "SELECT w.id FROM run_work w WHERE w.run_id = ? AND w.phase = 'answer' AND "
                    + " AND ".join(where), params)


def _responded(db, run_id: str, status: str | None) -> set[int]:
    """The run's answer-phase responses (with a result), optionally of one status."""
    sql, params = "SELECT work_id FROM run_responses WHERE run_id = ?", [run_id]
    not_asked = "status = 'error' AND coalesce(reason, '') LIKE ?"
    if status == "not_ok":
        sql, params = sql + f" AND status != 'ok' AND NOT ({not_asked})", params + [NOT_ASKED]
    elif status == "no_source_clue":
        sql, params = sql + f" AND {not_asked}", params + [NOT_ASKED]
    elif status == "error":
        sql, params = sql + f" AND status = 'error' AND NOT ({not_asked})", params + [NOT_ASKED]
    elif status:
        sql, params = sql + " AND status = ?", params + [status]
    ids = _ids(db, sql, params)
    if ids and db.conn.execute("SELECT 1 FROM run_work WHERE run_id = ? AND phase = 'clues' "
                               "LIMIT 1", [run_id]).fetchone():
        ids -= _ids(db, "SELECT id FROM run_work WHERE run_id = ? AND phase = 'clues'", [run_id])
    return ids


def _has_pending(db, run_id: str) -> bool:
    """Does the run have work without a result (not run yet, or deleted for a retry)?"""
    work = db.conn.execute("SELECT count(*) FROM run_work WHERE run_id = ?", [run_id]).fetchone()
    done = db.conn.execute("SELECT count(*) FROM run_responses WHERE run_id = ?",
                           [run_id]).fetchone()
    return done[0] < work[0]


def _run_matches(db, path: str, run_id: str, filters: dict) -> set[int]:
    """The matching work ids of one run (answer phase, with a result). Verdict sets come
    first: they are usually the narrowest, and a verdict implies a result, so the set of all
    results is only read when a status is asked for or some work has none."""
    judge = filters.get("judge") or "offline"
    ids: set[int] | None = None
    wanted = ([("general", "correct"), ("rigorous", "wrong")]
              if filters.get("right_wrong_reason") else []) + \
        sorted((filters.get("verdicts") or {}).items())
    for protocol, value in wanted:
        found = _verdict_ids(db, run_id, protocol, judge, value)
        ids = found if ids is None else ids & found
        if not ids:
            return set()
    status = filters.get("status")
    if status or ids is None or _has_pending(db, run_id):
        found = _responded(db, run_id, status)
        ids = found if ids is None else ids & found
    tag = filters.get("tag")
    if ids and tag in (TAGGED, UNTAGGED):
        tagged = _ids(db, "SELECT work_id FROM response_tags WHERE run_id = ?", [run_id])
        ids = ids & tagged if tag == TAGGED else ids - tagged
    elif ids and tag:
        ids &= _ids(db, "SELECT work_id FROM response_tags WHERE run_id = ? AND tag = ?",
                    [run_id, tag])
    if ids:
        chosen = _item_filter(db, run_id, filters)
        if chosen is not None:
            ids &= chosen
    if ids and filters.get("flip"):
        ids &= _flips(db, path, run_id, filters, judge)
    if ids and filters.get("disagree"):
        ids &= _disagreeing(db, run_id, filters["disagree"])
    return ids


def _ordered(db, path: str, runs: list[str], ids: set[int], sort: str) -> list[int]:
    if sort == "run order":
        return sorted(ids)
    if sort == "newest":
        return sorted(ids, reverse=True)
    if sort == "item":
        one_run = len(runs) == 1

        def make():
            return [r[0] for r in db.conn.execute(
                "SELECT w.id FROM run_work w LEFT JOIN items i ON i.id = w.item_id WHERE "
                "w.phase = 'answer'" + (" AND w.run_id = ?" if one_run else "") + " ORDER BY "
                "coalesce(i.sort_key, w.item_id), w.run_id, w.repeat, w.sample, w.id",
                runs if one_run else [])]
        # item ids and hence their sort keys never change: the order of a run's work is stable
        order = _stable(db, ("item order", path, *(_run_key(db, r) for r in runs)), make) \
            if one_run else make()
        return [wid for wid in order if wid in ids]
    column = "completion_tokens" if sort == "longest output" else "latency"
    return [r[0] for r in db.conn.execute(
        f"SELECT work_id FROM run_responses WHERE run_id IN ({','.join('?' * len(runs))}) "
        f"ORDER BY {column} DESC, work_id", runs) if r[0] in ids]


def data_state(db, runs: list[str]) -> tuple:
    """Changes whenever results, verdicts, tags or items change, so remembered matches are
    dropped when stale: the runs' result counts (a covering index each; a retry deletes
    results), their heartbeats (each batch of results), scorings' generations (each scoring),
    the tag write counter (triggers), items' count and summed versions (each save)."""
    counts = tuple(db.conn.execute("SELECT count(*) FROM run_responses WHERE run_id = ?",
                                   [r]).fetchone()[0] for r in runs)
    return (counts,
            db.conn.execute("SELECT count(*), total(heartbeat), max(coalesce(finished_at, '')) "
                            "FROM model_runs").fetchone(),
            db.conn.execute("SELECT count(*), total(generation) FROM scorings").fetchone(),
            db.conn.execute("SELECT n FROM inspect_counters WHERE name = 'tags'").fetchone(),
            db.conn.execute("SELECT count(*), max(updated_at), total(version) FROM items"
                            ).fetchone())


def matching(db: sqlite_utils.Database, filters: dict, sort: str = "run order") -> list[int]:
    """The work ids matching `filters`, in `sort` order (remembered until the data change)."""
    _check(filters)
    if sort not in SORTS:
        raise ValidationError(f"sort must be one of {', '.join(SORTS)}", field="sort")
    with reading(db):
        path = str(db.conn.execute("PRAGMA database_list").fetchone()[2])
        runs = [filters["run_id"]] if filters.get("run_id") else \
            [r[0] for r in db.conn.execute("SELECT id FROM model_runs ORDER BY id")]
        key = (path, json.dumps(filters, sort_keys=True, default=str), sort,
               data_state(db, runs))
        with _lock:
            hit = _cache.get(key)
            if hit and time.monotonic() - hit[0] < CACHE_TTL_S:
                _cache.move_to_end(key)
                return hit[1]
        ids: set[int] = set()
        for run_id in set(runs) - set(filters.get("skip_runs") or ()):
            ids |= _run_matches(db, path, run_id, filters)
        found = _ordered(db, path, runs, ids, sort)
    with _lock:
        _cache[key] = (time.monotonic(), found)
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return found


def browse(db: sqlite_utils.Database, filters: dict, sort: str = "run order",
           limit: int = 50, offset: int = 0) -> dict:
    """{"total", "rows", "ids"}: how many match, one page of rows, and that page's ids."""
    found = matching(db, filters, sort)
    page = found[max(0, int(offset)):max(0, int(offset)) + int(limit)]
    return {"total": len(found), "ids": page,
            "rows": page_rows(db, page, filters.get("judge") or "offline")}
