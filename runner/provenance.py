"""Where a run's replies came from: sent by the run itself, or taken from the response cache
and then made by which run(s). The one sentence the run summary, `runs --show`, the progress
panel, the plan's preview, `report` and the Results page all say, so that a repeat whose replies are an older
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


def cache_summary(store, run: dict, name=None) -> dict:
    """{"use_cache", "cached", "cached_from", "text"}: what `runs --show` and `runs --json`
    carry, and the sentence the other views print. `name(run id)` names a source run (the
    views pass `scoring.compared.title`: its table label)."""
    found = sources(store, run)
    cached = sum(found.values())
    return {"use_cache": uses_cache(run), "cached": cached, "cached_from": found,
            "text": sources_text(store, found, uses_cache(run), name)}


def sources_text(store, cached_from: dict[str, int], use_cache: bool = True,
                 name=None) -> str:
    """'14 replies taken from the cache, made by run X "name" (14): those draws are that
    run's, not new ones', 'no reply taken from the cache', or 'cache not used: ...'.
    `name(run id)` names a source run (`run_label` when not given)."""
    name = name or (lambda source: run_label(store, source))
    cached = sum(cached_from.values())
    if not cached:
        return ("cache not used: every reply was sent by this run" if not use_cache
                else "no reply taken from the cache")
    made_by = ", ".join(f"{name(source)} ({n})"
                        for source, n in sorted(cached_from.items(), key=lambda s: -s[1]))
    return (f"{cached} {'reply' if cached == 1 else 'replies'} taken from the cache, made by "
            f"{made_by}: those draws are that run's, not new ones"
            + ("" if use_cache else " (taken before the cache was turned off)"))


def planned_text(store, cached_from: dict[str, int], use_cache: bool, name=None) -> str:
    """What a plan will take from the cache: 'nothing cached', 'the cache is not used: every
    request is sent', or '14 cached draws, made by run X (14): ...'. `name(run id)` names a
    source run (`run_label` when not given)."""
    name = name or (lambda source: run_label(store, source))
    cached = sum(cached_from.values())
    if not use_cache:
        return "the cache is not used: every request is sent"
    if not cached:
        return "nothing cached"
    made_by = ", ".join(f"{name(source)} ({n})"
                        for source, n in sorted(cached_from.items(), key=lambda s: -s[1]))
    return (f"{cached} cached {'draw' if cached == 1 else 'draws'} (same item, repeat and "
            f"sample), made by {made_by}: they would be that run's replies, not new ones "
            "(turn the cache off to send them)")


def cache_line(store, run: dict, name=None) -> str:
    """Where the run's answers came from, when any was taken from the cache: per draw
    (repeat, sample) for a run with several ("repeat 0: 14 of 14 from run X; repeat 1:
    none": a draw made of another run's replies is no new draw), else the runs that made
    them; '' when every reply was sent by the run itself. What `report` prints and the
    Results page says under its table. `name(run id)` names a source run (the Results page:
    as its tables label runs); `run_label` when not given."""
    found = sources(store, run)
    if not sum(found.values()):
        return ""
    repeats = int(run["config"].get("repeats") or 1)
    samples = int(run["config"].get("samples") or 1)
    if repeats * samples > 1:
        per_draw = store.run_work_counts(run["id"])["answer"] // (repeats * samples)
        return per_draw_text(store, store.run_cached_replies(run["id"]), repeats, samples,
                             per_draw, name)
    return "replies: " + sources_text(store, found, name=name)


def per_draw_text(store, entries: list[dict], repeats: int, samples: int, per_draw: int,
                  name=None) -> str:
    """'replies from the cache: repeat 0: 14 of 14 (run X), repeat 1: none' for the answer
    rows of a run with repeats or samples (`Store.run_cached_replies`; `per_draw`: answer
    rows of one repeat and sample; "sample 0: ..." for samples, "repeat 0 sample 1: ..."
    for both), '' when none came from the cache."""
    name = name or (lambda source: run_label(store, source))
    answers = [e for e in entries if e["phase"] == "answer"]
    if not answers:
        return ""
    parts = []
    for repeat in range(repeats):
        for sample in range(samples):
            mine = [e for e in answers if (e["repeat"], e.get("sample", 0)) == (repeat, sample)]
            n = sum(e["n"] for e in mine)
            draw = " ".join(([f"repeat {repeat}"] if repeats > 1 else [])
                            + ([f"sample {sample}"] if samples > 1 else []))
            parts.append(f"{draw}: " + (f"{n} of {per_draw} from " + ", ".join(
                name(e["source"]) for e in mine) if n else "none"))
    return "replies from the cache (another run's draws, not new ones): " + "; ".join(parts)


def replies_from(store, run_id: str, source: str) -> int:
    """How many of `run_id`'s answers are `source`'s own replies, taken from the cache."""
    return sum(e["n"] for e in store.run_cached_replies(run_id)
               if e["phase"] == "answer" and e["source"] == source)
