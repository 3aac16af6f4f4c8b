"""One way to name a run, for every CLI command and the UI: its id or its (unique) name.

People tell runs apart by name ("demo CoT") or by the short id the run pickers show ("id
5650", the random tail of a runner's id), the store keys them by id. Every command that
takes a run (`score`, `report`, `compare`, `table --runs`, `leaderboard --runs`, `run
--resume`, `run --clues run:RUN`, `runs --show/--rename/--note/--delete/--pause/--cancel`)
and the Experiments page's run box resolve what they were given here, so a name works everywhere and a mistake reads the same everywhere: an unknown
run, or a name that several runs share (the message lists their ids to choose from).
"""
from __future__ import annotations

from store import NotFoundError, ValidationError


def resolve_run(store, given: str) -> str:
    """The id of the run `given` names: an id as is, else the one run with that name or that
    short id (the 4-hex tail the run pickers show: 'id 5650'). NotFoundError when no run has
    that id, name or short id; ValidationError when several do (the message names them)."""
    text = str(given).strip()
    try:
        return store.get_run(text)["id"]
    except NotFoundError:
        pass
    named = store.runs_named(text)
    found = named + [r for r in store.runs_with_short_id(text) if r not in named]
    if len(found) == 1:
        return found[0]
    if not found:
        raise NotFoundError(f"no run {text!r}: no run has this id, name or short id (python "
                            "app.py runs lists them)")
    if found == named:
        raise ValidationError(f"the name {text!r} is shared by runs {', '.join(found)}: give "
                              "one of these ids", field="run")
    raise ValidationError(f"{text!r} names several runs: {_candidates(store, found)}: give "
                          "one of these ids", field="run")


def _candidates(store, run_ids: list[str]) -> str:
    """'20261207-134531-5650 (a-guided), 20261208-101010-5650': the ids with their names."""
    out = []
    for run_id in run_ids:
        name = store.get_run(run_id).get("name")
        out.append(f"{run_id} ({name})" if name else run_id)
    return ", ".join(out)


def resolve_runs(store, given: list[str]) -> list[str]:
    """`resolve_run` for each of several runs, in their order."""
    return [resolve_run(store, text) for text in given]



def resolve_clue_source(store, source: str) -> str:
    """A clue source with its run named by id: `run:NAME` becomes `run:ID` (other sources
    as they are), so the run config records the run itself, not a name that can change."""
    if not source.startswith("run:"):
        return source
    return "run:" + resolve_run(store, source[4:])
