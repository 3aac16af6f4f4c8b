"""Who may steer a run (rename, delete, pause, cancel, resume it): its creator or an admin,
everyone in local mode. `ui.access` lets researchers and admins use the Experiments page at
all (its "run experiments" group); within it, a run is its creator's.

A run started from the command line has "cli" for its creator, which no one signs in as: on
the page only an admin may steer it. Its progress panel said "press Resume to run them" to
every researcher watching it, whose click was then refused ("started by cli: only they or an
admin may resume it"); the panel, the refusal and the buttons now say and do the same.
"""
from __future__ import annotations

import re

from store import NotFoundError

CLI_AUTHOR = "cli"       # runner.planning.create_run's author for `python app.py run`
STEERING = "pause, cancel, resume, rename or delete"
"""What one who may not steer a run may not do with it (`off_note`): the page's Pause,
Cancel, Resume (with its budget and 'retry errors'), name and note, Save name and note and
Delete run… are all off for them, each with this in its tooltip (assets/steer_titles.js).
Delete and Save looked live, and refused after the click (round 28)."""


def who_may(store, run: dict, user: str | None) -> str:
    """'' when `user` may steer `run` (user None: local mode, everyone may), else who may,
    in words: 'an admin (it was started from the command line)' or 'alice (who started it)
    or an admin'."""
    owner = run.get("created_by")
    if not user or not owner or owner == user:
        return ""
    try:
        if store.get_user(user)["role"] == "admin":
            return ""
    except NotFoundError:
        pass
    if owner == CLI_AUTHOR:
        return "an admin (it was started from the command line)"
    return f"{owner} (who started it) or an admin"


def refusal(run: dict, action: str) -> str:
    """The message refusing `action` of a run to someone who may not (`who_may`): "started
    by cli: only they …" named no one who could."""
    if run.get("created_by") == CLI_AUTHOR:
        return (f"run {run['id']} was started from the command line: only an admin may "
                f"{action} it here")
    return f"run {run['id']} was started by {run['created_by']}: only they or an admin may " \
           f"{action} it"


# the page's words for "resume it" (ui.page_words): said to one who may not press Resume
_PRESS_RESUME = re.compile(r"(?:to go on, )?(?:give a higher Budget on resume \(or none\) "
                           r"and )?press Resume(?: to run them)?")


def said_to(message: str, who: str, off: str = "resume it") -> str:
    """A run's message (in the page's words) as said to someone who may not resume it:
    "press Resume to run them" names who may instead ('only an admin (it was started from
    the command line) may resume it'; `off`: what the buttons off for them would do,
    'cancel or resume it'); unchanged when `who` is ''."""
    if not who:
        return message
    return _PRESS_RESUME.sub(f"only {who} may {off or 'resume it'}", message)


def may_steer(store, run_id: str | None, user: str | None) -> bool:
    """May `user` steer the run `run_id` (no run, or one not found: True, nothing to say)?
    The page's Pause, Cancel and Resume are off for one who may not."""
    try:
        return not who_may(store, store.get_run(run_id), user) if run_id else True
    except NotFoundError:
        return True


def off_why(run: dict) -> str:
    """Why every steering control is off for one who may not steer `run` (`who_may`): the
    control line's words (`off_note`) and the controls' tooltip."""
    return refusal(run, STEERING).rstrip(".") + "."


def off_note(store, run_id: str | None, user: str | None) -> str:
    """The control line beside Pause, Cancel and Resume for a watcher who may not steer the
    run (its controls all off, `may_steer`): why, e.g. 'run X was started from the command
    line: only an admin may pause, cancel, resume, rename or delete it here'; '' for one
    who may. The buttons were greyed with nothing beside them saying why (the panel's last
    line said it, below the counters, out of the eye's way)."""
    try:
        run = store.get_run(run_id) if run_id else None
    except NotFoundError:
        return ""
    if not run or not who_may(store, run, user):
        return ""
    return off_why(run)


def owner_controls(allowed: bool, **values) -> dict:
    """{component name (ui/experiments_layout.py's): `gr.update` keywords} of the controls
    that follow who may steer the watched run, not its status: the Budget on resume box,
    the name and note, Save name and note and Delete run…, on for one who may. `values`:
    more keywords of some ({"run_name": {"value": ...}}, a budget box's placeholder)."""
    return {name: {**values.get(name, {}), "interactive": bool(allowed)}
            for name in ("resume_budget", "run_name", "run_note", "save_labels", "ask_delete")}
