"""Runs a person can tell apart: name and note (store, CLI), deletion with everything that is
only the run's own (and nothing else), refused while running, asked before on the CLI; the
label every run picker shows. Real SQLite files, real CLI parsing and handlers."""
import json

import pytest

from store import Store, ValidationError
from tests.inspect_helpers import build_inspect_db
from tests.scoring_helpers import runs_listed
from tests.test_runner_cli import cli
from ui import experiments_labels as xl
from ui.experiments_common import ExperimentError
from ui.run_choices import run_choices


@pytest.fixture
def db(tmp_path):
    db = tmp_path / "ui.db"
    build_inspect_db(db)
    return db


def count(store, sql, *params):
    return store.db.conn.execute(sql, params).fetchone()[0]


def test_a_name_and_a_note_are_kept_and_shown_by_every_picker(db):
    with Store.open(db) as store:
        run = store.label_run("run-a", name="  GPT   baseline\n", note=" first try ")
        assert (run["name"], run["note"]) == ("GPT baseline", "first try")
        assert store.label_run("run-a", note="")["name"] == "GPT baseline"  # None: unchanged
        with pytest.raises(ValidationError, match="at most 120"):
            store.label_run("run-a", name="x" * 121)
        labels = dict((v, k) for k, v in run_choices(store))
        assert labels["run-a"].startswith("GPT baseline · e (m-a) · Structured · clues none"
                                          " · images full")
        # one form for every run, its id last (a run without a name lacked clues and images)
        assert labels["run-b"] == "e (m-b) · Structured · clues none · images full · " \
            "created · id run-b"


def test_deleting_a_run_removes_only_its_own_rows_after_saying_how_many(db):
    with Store.open(db) as store:
        work = store.run_results("run-b")[0]["work_id"]
        store.set_response_tags(work, [store.list_failure_tags()[0]["name"]], "t")
        store.add_response_note(work, "looks like a parser bug", "t")
        before_a = count(store, "SELECT count(*) FROM run_responses WHERE run_id = 'run-a'")
        question, pending = xl.ask(store, "run-b")
        contents = pending["contents"]
        assert contents["responses"] == contents["work"] == 3 and contents["scores"] > 0
        assert contents["tags"] == contents["notes"] == 1
        assert f"{contents['scores']} scores" in question and "3 responses" in question
        with pytest.raises(ExperimentError, match="was for run run-b, not run-a"):
            xl.delete(store, pending, "run-a")  # a confirmation is for one run only
        with pytest.raises(ExperimentError, match="Delete run… first"):
            xl.delete(store, None, "run-b")
        assert "Run run-b deleted with 3 responses" in xl.delete(store, pending, "run-b")
        for table in ("run_work", "run_responses", "scores", "scorings", "response_notes"):
            assert count(store, f"SELECT count(*) FROM {table} WHERE run_id = 'run-b'") == 0
        assert count(store, "SELECT count(*) FROM response_tags WHERE work_id = ?", work) == 0
        assert count(store, "SELECT count(*) FROM run_responses WHERE run_id = 'run-a'") == \
            before_a
        assert [r["id"] for r in store.list_runs()] == ["run-a"]


def test_a_running_run_is_not_deleted(db):
    with Store.open(db) as store:
        store.claim_run("run-a", "elsewhere:1", lambda owner, beat: True)
        with pytest.raises(ValidationError, match="is running"):
            store.delete_run("run-a", lambda owner, beat: False)
        assert store.get_run("run-a")["status"] == "running"


def test_the_cli_renames_notes_and_deletes_only_with_yes(db):
    assert cli("runs", "--db", db, "--rename", "run-a", "Baseline").returncode == 0
    assert cli("runs", "--db", db, "--note", "run-a", "see issue 12").returncode == 0
    [a] = [r for r in json.loads(cli("runs", "--db", db, "--json").stdout)
           if r["id"] == "run-a"]
    assert (a["name"], a["note"]) == ("Baseline", "see issue 12")   # --json says them too
    assert runs_listed(cli("runs", "--db", db).stdout)["run-a"]["label"] == "Baseline"
    with Store.open(db) as store:
        assert (store.get_run("run-a")["name"], store.get_run("run-a")["note"]) == (
            "Baseline", "see issue 12")
    asked = cli("runs", "--db", db, "--delete", "run-b")  # no terminal, no --yes
    assert asked.returncode == 2 and "3 responses (of 3 work rows)" in asked.stderr
    assert "add --yes" in asked.stderr
    done = cli("runs", "--db", db, "--delete", "run-b", "--yes")
    assert done.returncode == 0 and "run run-b deleted with 3 responses" in done.stdout
    assert [r["id"] for r in json.loads(cli("runs", "--db", db, "--json").stdout)] == ["run-a"]
    missing = cli("runs", "--db", db, "--delete", "run-b", "--yes")
    assert missing.returncode != 0 and "no run 'run-b'" in missing.stderr
    assert a["counts"]["total"] == 3



def test_a_run_is_changed_only_by_its_creator_or_an_admin(db):
    """Another researcher sees a run but may not rename, delete, pause, cancel or resume it
    (a review renamed a colleague's run through label_run)."""
    from ui.experiments_runs import owned_run
    with Store.open(db) as store:
        store.db.conn.execute("UPDATE model_runs SET created_by = 'res1' WHERE id = 'run-a'")
        creator = store.get_run("run-a")["created_by"]
        assert creator == "res1"
        for name, role in (("res2", "researcher"), ("boss", "admin")):
            if name != creator:
                store.add_user(name, role, "pw-123456")
        with pytest.raises(ExperimentError, match=f"started by {creator}: only they or an "
                                                  "admin may rename it"):
            owned_run(store, "run-a", "res2", "rename")
        assert owned_run(store, "run-a", "boss", "delete")["id"] == "run-a"
        assert owned_run(store, "run-a", creator, "pause")["id"] == "run-a"
        assert owned_run(store, "run-a", None, "cancel")["id"] == "run-a"   # local mode


def test_every_setup_description_says_samples_and_repeats_when_more_than_one(tmp_path):
    """A 5-sample run is never described as if it were one: run pickers, the Experiments
    runs table, the tables' run labels (the Results table, `report`, `leaderboard`) and
    `runs` all say the samples and repeats; a run of one of each says nothing more."""
    from scoring import tables
    from scoring.score_run import score_run
    from tests.scoring_helpers import add_items, cli as cli_here, make_run
    from ui import experiments_runs as xr

    store = Store.open(tmp_path / "t.db")
    add_items(store, [{"id": f"d/{i}", "answer_type": "yes_no", "answer": "Yes",
                       "domain": "S", "subtask": "s"} for i in range(2)])
    make_run(store, "many", {"d/0": ["Yes."] * 10, "d/1": ["No."] * 10}, clues="gt",
             samples=5, repeats=2)
    make_run(store, "one", {"d/0": "Yes.", "d/1": "Yes."})
    for run in ("many", "one"):
        score_run(store, run)
    pickers = dict((v, k) for k, v in run_choices(store))
    # unnamed: the pickers name them as the tables do (by their id before)
    assert pickers["many"] == ("e (m) · CoT · clues gt · images full · 5 samples · 2 repeats"
                               " · created · id many")
    assert pickers["one"] == "e (m) · CoT · clues none · images full · created · id one"
    setups = {row[1]: row[0] for row in xr.runs_table(store)}      # (table label, id, ...)
    assert setups == {"many": "m · CoT · clues gt · 5 samples · 2 repeats", "one": "m · CoT"}
    table = tables.main_table(store, ["many", "one"])
    assert {row["run_id"]: row["model"] for row in table.rows} == {
        "many": "m · CoT · clues gt · 5 samples · 2 repeats", "one": "m · CoT"}
    code, out, _ = cli_here("report", "--db", store.path, "--run", "many")
    assert code == 0 and "| m · CoT · clues gt · 5 samples · 2 repeats |" in out
    code, out, _ = cli_here("runs", "--db", store.path)
    listed = runs_listed(out)
    assert (listed["many"]["images"], listed["many"]["draws"]) == ("full",
                                                                   "5 samples · 2 repeats")
    assert (listed["one"]["images"], listed["one"]["draws"]) == ("full", "1 sample")
    # the injection table's solver is the model, setting, samples and repeats: a single
    # draw is never set against a 10-draw outcome
    assert [row["solver"] for row in tables.injection_table(store, ["many", "one"]).rows] \
        == ["m · CoT", "m · CoT · 5 samples · 2 repeats"]
    store.close()


def test_the_runs_listing_has_a_header_and_its_columns_line_up(db):
    """`runs` printed its runs tab-separated with no header line: which column was the
    endpoint, which the cost? Now a header names them and every cell starts under its
    title; `runs --json`, for scripts, is as it was (a list of `runs --show` objects)."""
    from cli.runs_commands import LISTING_HEADERS, RUN_KEYS

    renamed = cli("runs", "--db", db, "--rename", "run-a", "GPT-4o baseline, long name")
    assert renamed.returncode == 0
    out = cli("runs", "--db", db).stdout
    header, *lines = out.splitlines()
    assert header.split() == list(LISTING_HEADERS)
    assert len(lines) == 2 and "\t" not in out
    starts = [header.index(f" {title} ") + 1 for title in LISTING_HEADERS[1:-1]]
    starts.append(header.rindex(" cost") + 1)
    for line in lines:
        assert all(line[start - 2:start] == "  " and line[start] != " " for start in starts), \
            (header, line)
    listed = runs_listed(out)
    assert listed["run-a"]["label"] == "GPT-4o baseline, long name"
    assert listed["run-b"]["label"] == "m-b · Structured" and listed["run-b"]["setting"] == "Structured"
    runs = json.loads(cli("runs", "--db", db, "--json").stdout)
    assert [sorted(r) for r in runs] == [sorted(RUN_KEYS)] * 2
    assert {r["id"]: r["name"] for r in runs} == {"run-a": "GPT-4o baseline, long name",
                                                  "run-b": ""}


def test_a_named_run_is_shown_by_its_name_and_its_id_only_to_tell_two_apart(db):
    """The pickers, the Inspect list, its tag counts, the Results page's scoring lines, the
    Experiments runs list and progress panel showed a named run's id (a date and a hash)
    beside or instead of its name. Now its name; its id too only where another run has that
    name; a run without a name keeps its id in lists, its table label and id in pickers."""
    from ui import experiments_runs as xr
    from ui import inspect_browser as ib
    from ui import results_handlers as h
    from ui.inspect_tags import tag_counts_frame, tag_counts_markdown

    with Store.open(db) as store:
        store.label_run("run-a", name="GPT baseline")
        work = store.run_results("run-a")[0]["work_id"]
        store.set_response_tags(work, [store.list_failure_tags()[0]["name"]], "t")
        pickers = dict((v, k) for k, v in run_choices(store))
        assert pickers["run-a"].startswith("GPT baseline · e (m-a) · ")
        assert pickers["run-a"].endswith(" · id run-a")       # every run's id last, short
        assert pickers["run-b"].startswith("e (m-b) · Structured · clues none · ")
        listed = ib.browse(store, ib.run_filters(ib.ALL, "offline"), "run order")["rows"]
        assert {row[1] for row in listed} == {"GPT baseline", "m-b · Structured"}
        assert set(tag_counts_frame(store, ["run-a"])["run"]) == {"GPT baseline"}
        assert "- GPT baseline: " in tag_counts_markdown(store, ["run-a", "run-b"])
        assert "\n| GPT baseline | general " in h.score_runs(store, ["run-a"], [], "general")
        first = {row[1]: row[0] for row in xr.runs_table(store)}   # (table label, id, ...)
        assert first == {"run-b": "m-b · Structured", "run-a": "GPT baseline"}
        assert xr.chosen_run(store, "GPT baseline")["id"] == "run-a"    # what a click watches
        panel = xr.progress_html(store, "run-a")
        assert "<b class='xp-name'>GPT baseline</b><span class='xp-id'>run-a</span>" in panel

        store.label_run("run-b", name="GPT baseline")               # two runs, one name
        pickers = dict((v, k) for k, v in run_choices(store))
        assert pickers["run-a"].startswith("GPT baseline · e (m-a)")
        assert pickers["run-a"].endswith(" · id run-a")
        assert pickers["run-b"].startswith("GPT baseline · e (m-b)")
        listed = ib.browse(store, ib.run_filters(ib.ALL, "offline"), "run order")["rows"]
        assert {row[1] for row in listed} == {"GPT baseline [run-a]", "GPT baseline [run-b]"}
        # the Experiments list's id column tells them apart (the id in brackets too said it
        # twice and wrapped the label: a review, round 23); Inspect's list has no id column
        first = {row[1]: row[0] for row in xr.runs_table(store)}
        assert first == {"run-a": "GPT baseline", "run-b": "GPT baseline"}


def test_a_preset_run_is_told_apart_from_a_plain_run_of_its_setting(store):
    """An MMR-Life run (temperature 0.5, top_p 0.5, seed 17) and a plain CoT run of the same
    model read the same in every picker and table unless the preset is said."""
    from scoring.compared import labels as table_labels
    from tests.scoring_helpers import add_items, make_run
    from ui.experiments_runs import runs_table

    add_items(store, [{"id": "p/1", "answer_type": "yes_no", "answer": "Yes"}])
    make_run(store, "plain", {"p/1": "Answer: Yes"}, model="gpt-4o")
    make_run(store, "mmr", {"p/1": "Answer: Yes"}, model="gpt-4o", preset="mmr-life")
    picker = dict((v, k) for k, v in run_choices(store))
    assert "preset mmr-life" in picker["mmr"] and "preset" not in picker["plain"]
    assert picker["mmr"].replace(" · preset mmr-life", "").replace("mmr", "plain") \
        == picker["plain"]
    assert table_labels(store, ["plain", "mmr"]) == {"plain": "gpt-4o · CoT",
                                                     "mmr": "gpt-4o · CoT · preset mmr-life"}
    assert {r[1]: r[0] for r in runs_table(store)}["mmr"] == "gpt-4o · CoT · preset mmr-life"


def test_the_runs_list_names_the_endpoint_when_its_name_is_not_the_models(store):
    """The Experiments runs list named a run's model only ("vlm-b"): two endpoints serving
    one model (vlmB, a local copy) could not be told apart there, while every picker said
    "vlmB (vlm-b)". The list names them as the pickers do."""
    from ui.experiments_runs import list_labels
    runs = [{"id": "a", "name": "", "config": {"endpoint": {"name": "vlmB", "model": "vlm-b"},
                                                "setting": "cot"}},
            {"id": "b", "name": "", "config": {"endpoint": {"name": "vlm-b", "model": "vlm-b"},
                                                "setting": "cot"}},
            {"id": "c", "name": "", "config": {"endpoint": {"name": "vlmB", "model": "vlm-b"},
                                                "setting": "direct"}}]
    # the table label, the endpoint said where two runs listed share that label (judge17)
    assert list_labels(runs, {}) == {"a": "vlm-b · CoT · endpoint vlmB", "b": "vlm-b · CoT",
                                     "c": "vlm-b · No-CoT"}