"""A run that injects another run's clues names that run as every run list names a run: by its
name when it has one (README: "a named run is shown by its name wherever runs are listed").
The Experiments runs list, the Results and Inspect pickers and `runs` showed
"clues run:20261206-100826-1d74" for a source run named a-clueguided. Real SQLite store, the
page's handlers and the real CLI."""
from tests.scoring_helpers import add_items, cli, make_run, runs_listed
from ui.experiments_runs import runs_table
from ui.run_choices import labelled, run_choices

ITEMS = [{"id": f"demo/{i}", "answer_type": "yes_no", "answer": "Yes", "domain": "Street",
          "subtask": "signs"} for i in range(2)]


def test_the_source_run_is_named_by_its_name_in_every_list(store):
    add_items(store, ITEMS)
    source = make_run(store, "20261206-100826-1d74", {i["id"]: "Yes." for i in ITEMS},
                      setting="clue_guided")
    store.label_run(source, name="a-clueguided")
    make_run(store, "inj", {i["id"]: "Yes." for i in ITEMS}, clues=f"run:{source}")
    make_run(store, "gone", {i["id"]: "Yes." for i in ITEMS}, clues="run:deleted-run")
    picked = dict((rid, label) for label, rid in run_choices(store))
    assert "clues run:a-clueguided" in picked["inj"] and source not in picked["inj"]
    assert "clues run:deleted-run" in picked["gone"]        # no such run: its id, as stored
    assert "clues run:a-clueguided" in labelled(store, store.get_run("inj"))
    setup = {row[0]: row[3] for row in runs_table(store)}
    assert "clues run:a-clueguided" in setup["inj"] and source not in setup["inj"]
    code, out, err = cli("runs", "--db", store.path)
    assert code == 0, err
    assert runs_listed(out)["inj"]["clues"] == "run:a-clueguided"
    store.label_run("inj", name="a-clueguided")               # a name two runs share
    assert f"clues run:a-clueguided · {source}" in dict(
        (rid, label) for label, rid in run_choices(store))["inj"]
