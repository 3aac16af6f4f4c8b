"""'retry errors' is Resume's option, yet it stayed tickable for every watcher, one who may
not steer the run too (ui/access.py: researchers use the page; a run is its creator's or an
admin's to steer, ui/experiments_owners.py). It now goes on and off with Resume: off until a
run is watched, and off for a watcher who may not steer it. The real app's wiring (its
Blocks config) and the steering states, real SQLite."""
from __future__ import annotations

from store import Store
from tests.scoring_helpers import add_items, make_run
from ui import experiments_steering as xs
from ui.experiments_owners import may_steer

STEERING = ("/start_run", "/poll_runs", "/refresh_runs", "/watch_run", "/select_run",
            "/pause_run", "/cancel_run", "/resume_run")


def test_the_retry_box_goes_with_resume(tmp_path):
    with Store.open(tmp_path / "r.db") as store:
        add_items(store, [{"id": "demo/0", "answer_type": "yes_no", "answer": "Yes",
                           "domain": "d", "subtask": "s"}])
        make_run(store, "cli-run", {"demo/0": "Yes."})
        store.db.conn.execute("UPDATE model_runs SET created_by = 'cli', status = 'failed' "
                              "WHERE id = 'cli-run'")
        store.add_user("bob", "researcher", "pw-123456")
        assert not may_steer(store, "cli-run", "bob")
        retry = xs.buttons("failed", may_steer(store, "cli-run", "bob"))[3]
        assert retry == {"interactive": False}
        assert xs.buttons("failed", True)[3] == {"interactive": True}
        assert xs.buttons("running", True)[3] == {"interactive": False}
        assert xs.buttons(None)[3] == {"interactive": False}


def test_every_steering_event_updates_the_retry_box(tmp_path):
    from ui.server import build_app

    with Store.open(tmp_path / "w.db") as store:
        config = build_app(store).get_config_file()
    box = next(c for c in config["components"]
               if c.get("props", {}).get("elem_id") == "run-retry-errors")
    assert box["props"]["interactive"] is False        # no run watched yet
    outputs = {f"/{d['api_name']}": d["outputs"] for d in config["dependencies"]
               if d.get("api_name")}
    assert [name for name in STEERING if box["id"] not in outputs[name]] == []
