"""One way to name a run, for every CLI command and the UI: its id or its (unique) name.

People tell runs apart by name ("demo CoT"), the store keys them by id. Every command that
takes a run (`score`, `report`, `compare`, `table --runs`, `leaderboard --runs`, `run
--resume`, `run --clues run:RUN`, `runs --show/--rename/--note/--delete/--pause/--cancel`)
and the Experiments page's run box resolve what they were given here, so a name works everywhere and a mistake reads the same everywhere: an unknown
run, or a name that several runs share (the message lists their ids to choose from).
"""
from __future__ import annotations

from store import NotFoundError, ValidationError


def resolve_run(store, given: str) -> str:
    """The id of the run `given` names: an id as is, else the one run with that name.
    NotFoundError when no run has that id or name; ValidationError when several share it."""
    text = str(given).strip()
    try:
        return store.get_run(text)["id"]
    except NotFoundError:
        pass
    found = store.runs_named(text)
    if len(found) == 1:
        return found[0]
    if not found:
        raise NotFoundError(f"no run {text!r}: no run has this id or name (python app.py "
                            "runs lists them)")
    raise ValidationError(f"the name {text!r} is shared by runs {', '.join(found)}: give "
                          "one of these ids", field="run")


def resolve_runs(store, given: list[str]) -> list[str]:
    """`resolve_run` for each of several runs, in their order."""
    return [resolve_run(store, text) for text in given]



def resolve_clue_source(store, source: str) -> str:
    """A clue source with its run named by id: `run:NAME` becomes `run:ID` (other sources
    as they are), so the run config records the run itself, not a name that can change."""
    if not source.startswith("run:"):
        return source
    return "run:" + resolve_run(store, source[4:])
