"""A clue source run named in the runner's sentences (the plan's warning, a run's failure
message): by its name when it has one, else by its id. The runner may not read the tables'
labels (scoring.compared: tests/test_layering.py), so the richer label of an unnamed run is
said where those are read (scoring.source_clues passes its own `title` to `named_reason`,
for Inspect); a named run reads the same in both ("no clues from run a-guided")."""
from __future__ import annotations

from typing import Callable

from store import NotFoundError
from store.runner_work import NO_SOURCE_CLUE


def source_title(store, run_id: str) -> str:
    """"run a-guided" (its name), "run 20261207-134531-eaf1" (no name), "… (deleted)"."""
    try:
        name = (store.get_run(run_id).get("name") or "").strip()
    except NotFoundError:
        return f"run {run_id} (deleted)"
    return f"run {name}" if name else f"run {run_id}"


def named_reason(store, reason: str | None,
                 title: Callable[[object, str], str] = source_title) -> str | None:
    """A row's reason with the clue source run named (`title`), not by the id the stored
    reason keeps (`NO_SOURCE_CLUE`), which the plan, the run's message and Inspect showed."""
    if not (reason or "").startswith(NO_SOURCE_CLUE):
        return reason
    rest = reason[len(NO_SOURCE_CLUE):]
    run_id = rest.split(" ", 1)[0]
    if not run_id:
        return reason
    return "no clues from " + title(store, run_id) + rest[len(run_id):]
