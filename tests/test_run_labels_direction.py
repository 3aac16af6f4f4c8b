"""Run names and notes, failure tags and response notes refuse text-direction controls, as
review notes and item texts do: a run named "x\\u202ey" mirrored the app's own words around
every label built from it (Inspect's picker read "… 2dd3 di · enod · lluf segami"), a tag
"bad\\u202etag" read "badgat" (a review, round 25). A name stored before is read without
them."""
import pytest

from store import ValidationError
from tests.scoring_helpers import add_items, make_run

RLO, LRI = "\u202e", "\u2066"


@pytest.fixture
def run_store(store):
    add_items(store, [{"id": "demo/0", "answer_type": "yes_no", "answer": "Yes",
                       "domain": "d", "subtask": "s"}])
    make_run(store, "run-a", {"demo/0": "Yes."})
    return store


def test_a_run_name_or_note_with_a_direction_control_is_refused(run_store):
    for name, note in ((f"x{RLO}y", None), (None, f"n{LRI}ote"), (f"ok\u200fname", None)):
        with pytest.raises(ValidationError, match="text-direction characters"):
            run_store.label_run("run-a", name=name, note=note)
    run = run_store.get_run("run-a")
    assert not run.get("name") and not run.get("note")          # nothing half-written
    run_store.label_run("run-a", name="שלום baseline")           # Hebrew letters are fine
    assert run_store.get_run("run-a")["name"] == "שלום baseline"


def test_a_name_stored_before_is_read_without_its_controls(run_store):
    run_store.db.conn.execute("UPDATE model_runs SET name = ?, note = ? WHERE id = 'run-a'",
                              [f"evil{RLO}name", f"a{LRI}b"])
    run = run_store.get_run("run-a")
    assert run["name"] == "evilname" and run["note"] == "ab"
    assert [r["name"] for r in run_store.list_runs()] == ["evilname"]


def test_tags_and_response_notes_refuse_them_too(run_store):
    with pytest.raises(ValidationError, match="text-direction characters"):
        run_store.add_failure_tag(f"bad{RLO}tag", "t")
    work = run_store.run_results("run-a")[0]["work_id"]
    with pytest.raises(ValidationError, match="text-direction characters"):
        run_store.add_response_note(work, f"note {LRI}open", "t")
