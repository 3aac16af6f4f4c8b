"""Resuming a run from the Experiments page: a run stopped by its budget goes on with a
higher budget or none (given beside Resume), never resumed as it is to stop again at once,
and its message says so in the page's words; the progress panel Resume brings back shows
the run running at once, not the stopped state it had. Real SQLite, the real fake OpenAI
server, each resume a real `python app.py run --resume` process."""
import pytest

from tests.test_experiments_handlers import (_created_run, fake, form, wait_final,  # noqa: F401
                                             xstore)
from tests.test_page_words import on_the_page
from ui import experiments_handlers as xh
from ui import experiments_runs as xr
from ui import experiments_steering as xs


def test_the_progress_panel_shows_a_resumed_run_running_at_once(xstore):
    """Resume answered with the panel of the run as it was ("paused") for the ~2 s its
    process took to start and claim it: that process is the run's owner from the start."""
    paused = _created_run(xstore)
    assert "now paused" in xs.control(xstore, paused, "pause")
    assert "3 requests left" in xs.resume(xstore, paused)
    panel, status = xr.progress(xstore, paused)              # what Resume brings back
    assert status == "running" and "data-status='running'" in panel
    assert wait_final(xstore, paused)["status"] == "done"


def test_a_run_stopped_by_its_budget_goes_on_with_a_higher_one_or_none(xstore):
    xstore.set_price("fake-vlm", 1000.0, 0.0)              # more than a cent a request
    started = xh.start_run(xstore, form(budget="0.01"), "local")
    run_id = started["run_id"]
    assert wait_final(xstore, run_id)["status"] == "stopped"
    message = xstore.get_run(run_id)["message"]
    assert "budget of $0.01 reached" in message and "--no-budget" in message   # the CLI's
    panel = xr.progress_html(xstore, run_id)
    on_the_page(panel, "give a higher Budget on resume (or none) and press Resume",
                "<span class='xp-label'>budget</span><span class='xp-value'>$0.01</span>")

    with pytest.raises(xh.ExperimentError, match=r"stopped at its budget of \$0.01: resumed "
                                                 r"with it, it stops again at once; give a "
                                                 r"higher Budget on resume \(or none\)"):
        xs.resume(xstore, run_id)                           # as it was: stopped again
    for refused, why in (("cheap", "not a number"), ("-2", "a positive amount"),
                         ("0", "a positive amount")):
        with pytest.raises(xh.ExperimentError, match=why):
            xs.resume(xstore, run_id, budget=refused)
    assert xstore.get_run(run_id)["status"] == "stopped"    # nothing started

    said = xs.resume(xstore, run_id, budget=" none ")
    assert "it has no budget now" in said
    assert xr.progress(xstore, run_id)[1] == "running"       # at once (the test above)
    assert wait_final(xstore, run_id)["status"] == "done"
    run = xstore.get_run(run_id)
    assert run["execution"]["budget"] is None and run["totals"]["done"] == 3

    paused = _created_run(xstore, setting="cot")
    xs.control(xstore, paused, "pause")
    assert "its budget is now $5" in xs.resume(xstore, paused, budget="$5")
    assert xstore.get_run(paused)["execution"]["budget"] == 5.0
    assert wait_final(xstore, paused)["status"] == "done"
    xstore.delete_price("fake-vlm")
    unpriced = _created_run(xstore, setting="clue_guided")
    xs.control(xstore, unpriced, "pause")
    with pytest.raises(xh.ExperimentError, match="a budget needs a price for model fake-vlm"):
        xs.resume(xstore, unpriced, budget="2")


def _stuck_paused(store) -> str:
    """A run with every result in, left "paused" as runs were before the runner concluded a
    stop that came after the last reply as done."""
    run_id = _created_run(store)
    assert "now paused" in xs.control(store, run_id, "pause")
    xs.resume(store, run_id)
    assert wait_final(store, run_id)["status"] == "done"
    run = store.get_run(run_id)
    store.finish_run(run_id, None, "paused", "paused on request", run["totals"])
    assert store.get_run(run_id)["status"] == "paused" and not store.pending_work(run_id)
    return run_id


def test_resume_of_a_paused_run_with_every_result_in_marks_it_done(xstore):
    """Resume said "nothing left to send: every work row has its result" and left the run
    paused, its tables saying its numbers cover only part of its items."""
    run_id = _stuck_paused(xstore)
    said = xs.resume(xstore, run_id)
    assert "every work row's result in, so nothing was sent: it is done now" in said
    assert xstore.get_run(run_id)["status"] == "done"
    with pytest.raises(xh.ExperimentError, match="nothing left to send"):   # done stays so
        xs.resume(xstore, run_id)


def test_cli_resume_of_a_paused_run_with_every_result_in_marks_it_done(xstore):
    """The command line too, and without its endpoint's key: nothing is to be sent, so the
    endpoint is not asked (its message said "running from the cache" of nothing)."""
    from tests.test_cli import cli

    run_id = _stuck_paused(xstore)
    done = cli("run", "--db", str(xstore.path), "--resume", run_id, "--json",
               env={"XP_TEST_KEY": ""})
    assert done.returncode == 0, done.stderr
    run = xstore.get_run(run_id)
    assert run["status"] == "done" and "cache" not in (run["message"] or "")


def test_choosing_another_run_empties_budget_on_resume_and_names_its_own(store):
    """An amount typed for one run stayed in the box when another run was chosen, and a
    Resume of that one took it: the box is emptied (the run's own budget kept) and its
    placeholder names that budget."""
    from tests.scoring_helpers import add_items, make_run

    add_items(store, [{"id": "b/1", "answer_type": "yes_no", "answer": "Yes"}])
    for run_id, budget in (("capped", 2.5), ("open", None)):
        make_run(store, run_id, {"b/1": "Answer: Yes"})
        store.set_run_execution(run_id, {"budget": budget})
    assert xs.budget_box(store.get_run("capped")) == {
        "value": "", "placeholder": "empty: the run's ($2.5)"}
    assert xs.budget_box(store.get_run("open"))["placeholder"].startswith(
        "empty: the run's (none)")


def test_resume_is_live_only_when_a_done_run_has_something_to_resume():
    """A done run with no error and nothing unsent had Resume live: a click only said it
    had nothing left to send. Its errors (retry errors) keep it live. (The progress panel
    marks such a run: tests/browser/test_experiments_flow.py watches a real one.)"""
    from ui import experiments_steering as steering
    from ui.experiments_runs import NOTHING_LEFT
    assert steering.buttons(f"done ({NOTHING_LEFT})")[2] == {"interactive": False}
    assert steering.buttons("done")[2] == {"interactive": True}
    assert steering.buttons("failed")[2] == {"interactive": True}
