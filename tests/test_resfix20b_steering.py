"""A researcher watching a run started from the command line (only an admin steers it): its
Pause, Cancel and Resume are off, and the panel said why only for some statuses (a done run
with 9 errors: Resume off, 'retry errors' ticked or not, and no word). Every status whose
buttons would be on for its owner now says, in the same words, who may and what."""
from __future__ import annotations

import html
import re

import pytest

from store import Store
from tests.scoring_helpers import add_items, make_run
from ui import experiments_runs as xr

WHO = "only an admin (it was started from the command line) may "


@pytest.fixture
def store(tmp_path):
    store = Store.open(tmp_path / "o.db")
    add_items(store, [{"id": f"demo/{i}", "answer_type": "yes_no", "answer": "Yes",
                       "domain": "d", "subtask": "s"} for i in range(2)])
    make_run(store, "cli-run", {"demo/0": "Yes.", "demo/1": "Yes."})
    store.add_user("bob", "researcher", "pw-123456")
    yield store
    store.close()


def _set(store, status, message="", errors=0):
    run = store.get_run("cli-run")
    totals = {**run["totals"], "error": errors}
    store.db.conn.execute("UPDATE model_runs SET created_by = 'cli', status = ?, message = ?, "
                          "totals = json(?) WHERE id = 'cli-run'",
                          [status, message, __import__("json").dumps(totals)])


def _message(store, user="bob") -> str:
    found = re.search(r"class='xp-message'>([^<]*)<", xr.progress_html(store, "cli-run", user))
    return html.unescape(found.group(1)) if found else ""


@pytest.mark.parametrize("status,said", [
    ("done", "resume it, or retry its 9 errors"),
    ("failed", "resume it, or retry its 9 errors"),
    ("paused", "cancel or resume it, or retry its 9 errors"),
    ("cancelled", "resume it, or retry its 9 errors"),
])
def test_every_status_says_why_the_buttons_are_off(store, status, said):
    _set(store, status, "finished: 9 errors", errors=9)
    assert _message(store).endswith(WHO + said), _message(store)
    assert "may" not in _message(store, None)          # local mode: theirs to steer


def test_what_is_off_is_said_for_each_status():
    assert xr.steering_off("running", False, 0) == "pause or cancel it"
    assert xr.steering_off("running (pause requested)", False, 0) == "cancel it"
    assert xr.steering_off("stopped", False, 1) == "cancel or resume it, or retry its 1 error"
    assert xr.steering_off("done", True, 0) == ""        # nothing to resume: nothing is off
