"""A run started from the command line (its creator "cli") and stopped with work left: its
progress panel told every researcher watching it to "press Resume to run them", and their
click was refused ("started by cli: only they or an admin may resume it", naming no one who
could). The panel now says who may resume it, the refusal names the same, and Pause,
Cancel and Resume are off for a watcher who may not steer the run (ui/experiments_owners.py:
its creator or an admin; everyone in local mode). A real CLI run against the fake server."""
from __future__ import annotations

import re

import pytest

from store import Store
from tests.scoring_helpers import add_items, make_run
from ui import experiments_steering as xs
from ui import experiments_runs as xr
from ui.experiments_common import ExperimentError
from ui.experiments_owners import may_steer

ADVICE = "resume with python app.py run --resume {id} --db x.db"


@pytest.fixture
def stopped(tmp_path):
    """A run created by the command line, stopped by its deadline with 2 items left."""
    store = Store.open(tmp_path / "o.db")
    add_items(store, [{"id": f"demo/{i}", "answer_type": "yes_no", "answer": "Yes",
                       "domain": "d", "subtask": "s"} for i in range(2)])
    make_run(store, "cli-run", {"demo/0": "Yes.", "demo/1": "Yes."})
    store.db.conn.execute("UPDATE model_runs SET created_by = 'cli', status = 'stopped', "
                          "message = ? WHERE id = 'cli-run'",
                          [f"deadline of 1 s reached; 2 left: {ADVICE.format(id='cli-run')}"])
    store.add_user("bob", "researcher", "pw-123456")
    store.add_user("boss", "admin", "pw-123456")
    yield store
    store.close()


def message(panel: str) -> str:
    return re.search(r"class='xp-message'>([^<]*)<", panel).group(1)


def test_the_panel_says_who_may_resume_a_command_line_run(stopped):
    panel, status = xr.progress(stopped, "cli-run", "bob")
    assert status == "stopped"
    assert message(panel) == ("deadline of 1 s reached; 2 left: only an admin (it was started "
                              "from the command line) may cancel or resume it")
    for user in ("boss", None):                      # an admin, local mode: theirs to resume
        assert message(xr.progress(stopped, "cli-run", user)[0]).endswith(
            "2 left: press Resume to run them")
    with pytest.raises(ExperimentError, match="started from the command line: only an admin "
                                              "may resume it here"):
        xr.owned_run(stopped, "cli-run", "bob", "resume")


def test_steering_buttons_are_off_for_a_watcher_who_may_not_steer(stopped):
    assert not may_steer(stopped, "cli-run", "bob")
    assert may_steer(stopped, "cli-run", "boss") and may_steer(stopped, "cli-run", None)
    assert [b["interactive"] for b in xs.buttons("stopped", False)] == [False, False, False, False]
    assert [b["interactive"] for b in xs.buttons("stopped", True)] == [False, True, True, True]
