"""Runs are named by their table label everywhere (README), their id beside it where it is
typed: the `runs` listing and the Experiments runs list showed a run without a name by its
id. Another run's clues read one way everywhere, "clues of <its label>": the pickers said
"clues of id 121e", the runs list "run:a-cot", the injection table "a-cot clues". Real
SQLite, the pages' handlers and the real CLI."""
from scoring import tables
from scoring.score_run import score_run
from tests.scoring_helpers import add_items, cli, make_run, runs_listed
from ui.experiments_runs import runs_table
from ui.run_choices import run_choices

ITEMS = [{"id": f"demo/{i}", "answer_type": "yes_no", "answer": "Yes", "domain": "Street",
          "subtask": "signs"} for i in range(2)]
SOURCE, USER = "20261207-064538-121e", "20261207-064552-77ab"


def test_runs_are_listed_by_label_with_their_id_beside_it(store):
    add_items(store, ITEMS)
    make_run(store, SOURCE, {i["id"]: "Yes." for i in ITEMS}, model="vlm-a")
    store.label_run(SOURCE, name="a-cot")
    make_run(store, USER, {i["id"]: "Yes." for i in ITEMS}, model="vlm-b",
             clues=f"run:{SOURCE}")
    for run in (SOURCE, USER):
        score_run(store, run)
    label = "vlm-b · CoT · clues of a-cot"
    code, out, err = cli("runs", "--db", store.path)
    assert code == 0, err
    listed = runs_listed(out)
    assert listed[USER]["label"] == label and listed[SOURCE]["label"] == "a-cot"
    assert listed[USER]["clues"] == "of a-cot"
    rows = {row[1]: row[0] for row in runs_table(store)}          # (label, id, ...)
    assert rows == {USER: label, SOURCE: "a-cot"}
    picked = {rid: text for text, rid in run_choices(store)}
    assert "· clues of a-cot ·" in picked[USER]
    main = tables.main_table(store, [SOURCE, USER])
    assert {r["run_id"]: r["model"] for r in main.rows}[USER] == label
    injection = tables.injection_table(store, [SOURCE, USER], protocol="general")
    assert "clues of a-cot" in [c.key for c in injection.columns]


def test_a_cancelled_run_says_who_may_resume_it_to_a_watcher_who_may_not(store):
    """A cancelled run's message says "a resume sends them again" and names no Resume, so a
    researcher watching a run started from the command line met a greyed Resume with no
    word of why; the panel now says who may resume it (the admin, or `run --resume`)."""
    import html
    from ui import experiments_runs as xr

    add_items(store, ITEMS)
    make_run(store, "cli-run", {i["id"]: "Yes." for i in ITEMS})
    store.db.conn.execute(
        "UPDATE model_runs SET created_by = 'cli', status = 'cancelled', message = ? WHERE "
        "id = 'cli-run'", ["cancelled on request: 1 done, 0 failed, 1 not run = 2 work rows; "
                           "1 of them was sent and not waited for (an endpoint may bill a "
                           "reply that is not recorded; a resume sends them again)"])
    store.add_user("bob", "researcher", "pw-123456")
    panel = html.unescape(xr.progress_html(store, "cli-run", "bob"))
    assert "a resume sends them again); only an admin (it was started from the command " \
        "line) may resume it" in panel
    assert "may resume" not in html.unescape(xr.progress_html(store, "cli-run", None))


def test_two_listed_runs_of_one_label_are_told_apart_by_id(store):
    """Two unnamed "vlm-a · CoT" runs read alike in the `runs` listing, where the tables add
    the id (a review, round 19)."""
    add_items(store, ITEMS)
    for run in (SOURCE, USER):
        make_run(store, run, {i["id"]: "Yes." for i in ITEMS}, model="vlm-a")
    code, out, err = cli("runs", "--db", store.path)
    assert code == 0, err
    listed = runs_listed(out)
    # by the short id, as the tables: the whole id stood beside the id column (round 28)
    assert {listed[run]["label"] for run in (SOURCE, USER)} == {
        "vlm-a · CoT [121e]", "vlm-a · CoT [77ab]"}, listed
    # the Experiments runs list tells them apart by its id column, beside the label: the
    # id in brackets said it twice and wrapped the label to 3-4 lines (a review, round 23)
    assert {tuple(row[:2]) for row in runs_table(store)} == {("vlm-a · CoT", SOURCE),
                                                             ("vlm-a · CoT", USER)}
