"""Whether the cache answers what a run has left to send: what decides if a run may go on
when its endpoint cannot work (nothing listening, a key missing or refused).

A run whose every pending request is in the cache sends nothing, so a dead endpoint is no
reason to stop it: the engine's pre-flight, the UI's start and resume all ask
`offline_verdict` the same question and give the same answer, "endpoint unreachable; every
request is cached, running from the cache", or a refusal saying how many are cached.

The answer requests of a clues=self run carry the clues of its first pass, so their cache
keys are unknown until that pass has a result: such a request counts as not cached (as the
planner's projection counts it), never as a hit that might turn out to be a request. A run
that takes nothing from the cache (`use_cache` off) has nothing cached.
"""
from __future__ import annotations

from dataclasses import dataclass

from runner.prompts import PromptSet
from runner.provenance import uses_cache
from runner.work import WorkBuilder, load_items

FROM_CACHE = "endpoint unreachable; every request is cached, running from the cache"


@dataclass
class Coverage:
    cached: int      # requests the cache answers
    requests: int    # requests left to send (work rows that need no request are not counted)

    @property
    def complete(self) -> bool:
        return self.cached >= self.requests


def pending_coverage(store, run_id: str, builder: WorkBuilder | None = None) -> Coverage:
    """How many of the run's pending requests the cache answers (one SELECT per call)."""
    run = store.get_run(run_id)
    config = run["config"]
    if builder is None:
        builder = WorkBuilder(config, PromptSet.load(store, config["templates"]),
                              load_items(store, run_id))
    source = config["clues"]
    if source.startswith("run:"):
        builder.set_clue_responses(store.run_response_clues(source[4:]))
    first_pass = store.run_response_clues(run_id, "clues") if source == "self" else {}
    if source == "self":
        builder.set_clue_responses(first_pass)
    keys, unknown = [], 0
    for work in store.pending_work(run_id):
        if source == "self" and work["phase"] == "answer" \
                and (work["item_id"], work["repeat"]) not in first_pass:
            unknown += 1               # its prompt depends on a first pass not yet made
            continue
        request = builder.build(work)
        if not request.error:          # recorded as an error without a request
            keys.append(request.key)
    hits = store.cache_get_many(keys) if keys and uses_cache(run) else {}
    return Coverage(sum(1 for key in keys if key in hits), len(keys) + unknown)


def offline_verdict(problem: str, coverage: Coverage) -> tuple[bool, str]:
    """(the run may go on, what to say) for a run whose endpoint cannot work (`problem`)."""
    if coverage.complete:
        return True, f"{FROM_CACHE} ({problem})"
    return False, (f"{problem}; {coverage.cached} of {coverage.requests} requests are cached, "
                   f"{coverage.requests - coverage.cached} would need the endpoint")


FATAL_KINDS = ("missing_key", "connection_refused", "unauthorized", "forbidden")
"""Endpoint test results that stop a start: the engine's preflight would fail on them too."""


def start_verdict(tested: dict, coverage) -> tuple[bool, str | None]:
    """(the run may start, what to say, None when nothing) from the endpoint's test
    (`runner.endpoints.test_endpoint_async`) before a run is created: one that cannot work
    refuses it unless `coverage()` says the cache answers every request (`offline_verdict`).
    The page's Start and the command line's `run` ask it alike: the CLI created a failed run
    (0/3) where the page refused to start."""
    if tested["kind"] in FATAL_KINDS:
        return offline_verdict(tested["message"], coverage())
    return True, None if tested["ok"] else f"endpoint check: {tested['message']} " \
                                           "(starting anyway)"
