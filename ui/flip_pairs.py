"""Why Inspect's Flips find nothing, when the runs' pairing says why.

A flip pairs a response with the other run's response to the same item, repeat and sample
(`store.inspect_browse._flips`). A run with 2 repeats against one with 1 has a repeat with
nothing to pair, and a run whose repeat 0 is the other run's own replies (taken from the
response cache) pairs each of them with itself: the same verdict, never a flip. Flips of such
a run read "No response matches these filters" with no hint why.
"""
from __future__ import annotations

from scoring.compared import labels
from ui.text import escape_md


def _draws(config: dict) -> tuple[int, int]:
    return int(config.get("repeats") or 1), int(config.get("samples") or 1)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def no_flip_why(store, run_id: str, other: str) -> str:
    """' · repeat 1 of B has no response of A to pair with (A has 1 repeat); repeat 0 of B
    holds A's own replies (4, taken from the cache): …' (escaped
    Markdown), or '' when the pairing explains nothing."""
    names = labels(store, [run_id, other])
    draws = {rid: _draws(store.get_run(rid)["config"]) for rid in (run_id, other)}
    parts = []
    for x, y in ((run_id, other), (other, run_id)):
        for i, what in enumerate(("repeat", "sample")):
            mine, theirs = draws[x][i], draws[y][i]
            if mine > theirs:
                which = ", ".join(str(k) for k in range(theirs, mine))
                one = mine - theirs == 1
                parts.append(f"{what if one else what + 's'} {which} of {names[x]} "
                             f"{'has' if one else 'have'} no response of {names[y]} to pair "
                             f"with ({names[y]} has {_plural(theirs, what)})")
        by_repeat: dict[int, int] = {}
        for e in store.run_cached_replies(x):
            if e["phase"] == "answer" and e["source"] == y:
                by_repeat[e["repeat"]] = by_repeat.get(e["repeat"], 0) + e["n"]
        for repeat, n in sorted(by_repeat.items()):
            parts.append(f"repeat {repeat} of {names[x]} holds {names[y]}'s own replies "
                         f"({n}, taken from the cache): the same reply, so the same verdict, "
                         "never a flip")
    if not parts:
        return ""
    return escape_md(" · Flips pair the same item, repeat and sample: " + "; ".join(parts))
