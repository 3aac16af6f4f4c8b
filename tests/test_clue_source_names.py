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
    # one wording everywhere, "clues of <the source's label>" (judge17: the pickers said
    # "clues of id 1d74", the runs list "run:a-clueguided", the tables "a-clueguided clues")
    assert "clues of a-clueguided" in picked["inj"] and source not in picked["inj"]
    assert "clues of run deleted-run" in picked["gone"]      # no such run: its id, as stored
    assert "clues of a-clueguided" in labelled(store, store.get_run("inj"))
    listed = {row[1]: row[0] for row in runs_table(store)}    # (label, id, ...)
    assert "clues of a-clueguided" in listed["inj"] and source not in listed["inj"]
    code, out, err = cli("runs", "--db", store.path)
    assert code == 0, err
    assert runs_listed(out)["inj"]["clues"] == "of a-clueguided"
    store.label_run("inj", name="a-clueguided")               # a name two runs share
    assert f"clues of a-clueguided · {source}" in dict(
        (rid, label) for label, rid in run_choices(store))["inj"]


def test_flips_against_run_does_not_offer_the_run_itself(store):
    """Inspect's "Flips against run" offered the selected run (choosing it was refused)."""
    from ui import inspect_browser as ib

    add_items(store, ITEMS)
    for run in ("a", "b"):
        make_run(store, run, {i["id"]: "Yes." for i in ITEMS})
    assert [rid for _, rid in ib.flip_run_choices(store, "a")] == [ib.NO_RUN, "b"]
    assert {rid for _, rid in ib.flip_run_choices(store)} == {ib.NO_RUN, "a", "b"}


def test_one_unreadable_reply_is_said_in_the_singular():
    from scoring.judge_client import counts_text

    text = counts_text({"judge": "llm:j", "requests": 1, "answered": 0, "cached": 0,
                        "failed": 1, "unreadable": 1})
    assert text == ("llm:j: 1 request: 0 answered, 0 from the cache, 1 failed (1 reply "
                    "unreadable: unscored, not cached, so the next scoring asks again)")
    assert "2 replies unreadable" in counts_text({"judge": "j", "requests": 2, "answered": 0,
                                                  "cached": 0, "failed": 2, "unreadable": 2})


def test_the_injection_table_names_the_source_run_as_the_lists_do(store):
    """The run lists said "clues run:a-clueguided", while the clue-injection table's notes,
    its heatmap's labels and the main table's rows named the same run by its id ("m · CoT ·
    clues run:20261206-100826-1d74"). Tables name it as the lists do."""
    from scoring import tables
    from scoring.score_run import score_run
    from ui import results_handlers as h

    add_items(store, ITEMS)
    source = make_run(store, "20261206-100826-1d74", {i["id"]: "No." for i in ITEMS})
    store.label_run(source, name="a-clueguided")
    make_run(store, "inj", {i["id"]: "Yes." for i in ITEMS}, clues=f"run:{source}")
    for run in (source, "inj"):
        score_run(store, run)
    main = tables.main_table(store, [source, "inj"]).to_markdown()
    assert "| m · CoT · clues of a-clueguided |" in main and source not in main
    injection = tables.injection_table(store, [source, "inj"], protocol="general")
    assert source not in injection.notes + injection.to_markdown()
    shown = h.show_results(store, [source, "inj"])
    assert "m · CoT · clues of a-clueguided" in shown["table"]["Model"].tolist()
    assert source not in shown["injection"] + shown["group_chart"] + shown["rules"]
