"""Where a run's replies came from: sent by the run itself, or taken from the response cache
and then made by which run(s). The one sentence the run summary, `runs --show`, the progress
panel, the plan's preview and `report` all say, so that a repeat whose replies are an older
run's draws is never read as a fresh draw.

A cached reply stands only for the same draw (the same request, item, repeat and sample:
runner/cache.py), but it is still another run's draw: a spread over repeats of which one
came from the cache measures two runs, not one. A run started with `use_cache` off
(`run --no-cache`, the Experiments page's "Take replies from the cache" unticked) sends
every request itself.
"""
from __future__ import annotations

from store import NotFoundError

UNKNOWN = ""
"""The source of a reply cached before the run that made it was recorded."""


def run_label(store, run_id: str) -> str:
    """'run ID "name"', 'run ID (deleted)', or 'an earlier run (not recorded)'."""
    if run_id == UNKNOWN:
        return "an earlier run (not recorded)"
    try:
        name = (store.get_run(run_id).get("name") or "").strip()
    except NotFoundError:
        return f"run {run_id} (deleted)"
    return f'run {run_id} "{name}"' if name else f"run {run_id}"


def sources(store, run: dict) -> dict[str, int]:
    """{source run id: results taken from its replies} of a run: from its live counters, or
    from its results when its counters predate sources (one query)."""
    totals = run.get("totals") or {}
    if "cached_from" in totals or not totals.get("cached"):
        return dict(totals.get("cached_from") or {})
    return store.run_cache_sources(run["id"])


def uses_cache(run: dict) -> bool:
    return bool((run.get("execution") or {}).get("use_cache", True))


def cache_summary(store, run: dict) -> dict:
    """{"use_cache", "cached", "cached_from", "text"}: what `runs --show` and `runs --json`
    carry, and the sentence the other views print."""
    found = sources(store, run)
    cached = sum(found.values())
    return {"use_cache": uses_cache(run), "cached": cached, "cached_from": found,
            "text": sources_text(store, found, uses_cache(run))}


def sources_text(store, cached_from: dict[str, int], use_cache: bool = True) -> str:
    """'14 replies taken from the cache, made by run X "name" (14): those draws are that
    run's, not new ones', 'no reply taken from the cache', or 'cache not used: ...'."""
    cached = sum(cached_from.values())
    if not cached:
        return ("cache not used: every reply was sent by this run" if not use_cache
                else "no reply taken from the cache")
    made_by = ", ".join(f"{run_label(store, source)} ({n})"
                        for source, n in sorted(cached_from.items(), key=lambda s: -s[1]))
    return (f"{cached} {'reply' if cached == 1 else 'replies'} taken from the cache, made by "
            f"{made_by}: those draws are that run's, not new ones"
            + ("" if use_cache else " (taken before the cache was turned off)"))


def planned_text(store, cached_from: dict[str, int], use_cache: bool) -> str:
    """What a plan will take from the cache: 'nothing cached', 'the cache is not used: every
    request is sent', or '14 cached draws, made by run X (14): ...'."""
    cached = sum(cached_from.values())
    if not use_cache:
        return "the cache is not used: every request is sent"
    if not cached:
        return "nothing cached"
    made_by = ", ".join(f"{run_label(store, source)} ({n})"
                        for source, n in sorted(cached_from.items(), key=lambda s: -s[1]))
    return (f"{cached} cached {'draw' if cached == 1 else 'draws'} (same item, repeat and "
            f"sample), made by {made_by}: they would be that run's replies, not new ones "
            "(turn the cache off to send them)")


def per_repeat_text(store, entries: list[dict], repeats: int, per_repeat: int) -> str:
    """'replies from the cache: repeat 0: 14 of 14 (run X), repeat 1: none' for the answer
    rows of a run with repeats (`Store.run_cached_replies`; `per_repeat`: answer rows of one
    repeat), '' when none came from the cache."""
    answers = [e for e in entries if e["phase"] == "answer"]
    if not answers:
        return ""
    parts = []
    for repeat in range(repeats):
        mine = [e for e in answers if e["repeat"] == repeat]
        n = sum(e["n"] for e in mine)
        parts.append(f"repeat {repeat}: " + (
            f"{n} of {per_repeat} from " + ", ".join(run_label(store, e["source"])
                                                      for e in mine) if n else "none"))
    return "replies from the cache (another run's draws, not new ones): " + "; ".join(parts)
