"""Experiments tab, part 4: a run's name and note, and deleting a run after a confirmation.

Plain functions of plain values (experiments_tab wires them). Deleting is two steps: `ask`
names what would go (responses, scores, tags, notes, runs that used its clues) and returns
the pending deletion; `delete` carries it out only for that same run, so a confirmation
shown for one run can never delete another.
"""
from __future__ import annotations

from runner.leases import owner_is_stale
from store import StoreError
from store.run_labels import contents_text
from ui.experiments_common import ExperimentError
from ui.experiments_runs import chosen_run
from ui.text import escape_md


def labels(store, run_id) -> tuple[str, str]:
    """(name, note) of the run, for the form."""
    run = chosen_run(store, run_id)
    return run.get("name") or "", run.get("note") or ""


def save(store, run_id, name, note) -> str:
    """Set the run's name and note; returns what was done."""
    run = chosen_run(store, run_id)
    try:
        after = store.label_run(run["id"], name=name or "", note=note or "")
    except StoreError as err:
        raise ExperimentError(str(err)) from None
    named = f"named “{after['name']}”" if after["name"] else "without a name"
    return f"Run {run['id']} is now {named}" + (", with a note." if after["note"] else ".")


def ask(store, run_id) -> tuple[str, dict]:
    """(the confirmation's Markdown, the pending deletion {run_id, contents})."""
    run = chosen_run(store, run_id)
    contents = store.run_contents(run["id"])
    lines = [f"**Delete run {escape_md(run['id'])}"
             + (f" ({escape_md(run['name'])})" if run.get("name") else "") + "?**",
             f"This removes {contents_text(contents)}. It cannot be undone."]
    if contents["clue_users"]:
        lines.append("⚠ Runs that injected its clues lose their source (a resume cannot send "
                     "their pending work): " + escape_md(", ".join(contents["clue_users"])))
    return "  \n".join(lines), {"run_id": run["id"], "contents": contents}


def delete(store, pending: dict | None, run_id) -> str:
    """Delete the run the confirmation was asked for; returns what was removed."""
    wanted = (pending or {}).get("run_id")
    if not wanted:
        raise ExperimentError("press Delete run… first: it shows what would be removed")
    if wanted != (run_id or "").strip():
        raise ExperimentError(f"the confirmation was for run {wanted}, not {run_id}: press "
                              "Delete run… again")
    try:
        removed = store.delete_run(wanted, owner_is_stale)
    except StoreError as err:
        raise ExperimentError(str(err)) from None
    return f"Run {wanted} deleted with {contents_text(removed)}."
