"""The Experiments response filter names its choices as the progress panel and `runs --json`
name their counters, each with what it means; a row without a reply is "pending" while the
run goes on and "not run" once it stopped, in the table and the filter alike, as the panel
counts it. Real SQLite, responses written through the store as the engine writes them."""
import os
import socket

from runner.outcomes import from_reply
from runner.totals import COUNTS, LABELS
from store import Store
from tests.scoring_helpers import add_items
from ui import experiments_runs as xr

OWNER = f"{socket.gethostname()}:{os.getpid()}"       # this process executes the run
ITEMS = [{"id": f"d/{i}", "answer_type": "yes_no", "answer": "Yes", "domain": "S",
          "subtask": "s"} for i in range(3)]


def partial_run(store) -> str:
    """A running run of three work rows, two answered ("Yes." ok, "Hmm." unparsed), the
    third without a reply yet."""
    config = {"endpoint": {"name": "e", "base_url": "http://x/v1", "model": "m"},
              "setting": "cot", "clues": "none", "image_mode": "full", "samples": 1,
              "repeats": 1}
    store.create_run("r", "cfg-r", config, {}, "e",
                     [("answer", i["id"], 0, 0, None, None) for i in ITEMS])
    store.claim_run("r", OWNER, lambda owner, beat: True)
    rows = [from_reply(w["id"], {"text": text, "finish_reason": "stop",
                                 "completion_tokens": 2}, "yes_no", [],
                       cache_key=f"k{w['id']}", price_cost=None, image_size=(100, 80))
            for w, text in zip(store.pending_work("r"), ("Yes.", "Hmm."))]
    store.record_run_batch("r", OWNER, rows, [], {"answer_total": 3, "total": 3, "done": 2,
                                                   "ok": 1, "unparsed": 1})
    return "r"


def states(rows) -> dict:
    return {row[1]: row[3] for row in rows}


def test_filter_choices_are_the_panels_counters_with_their_meaning():
    values = [value for _, value in xr.RESPONSE_FILTERS]
    assert values == ["all", *COUNTS]                 # the counters' keys, in the panel's order
    labels = dict((value, label) for label, value in xr.RESPONSE_FILTERS)
    for key in COUNTS:                                 # the panel's name, then what it means
        assert labels[key].startswith(f"{LABELS.get(key, key)}: ")
    assert labels["pending"] == "pending: no reply yet, the run goes on"
    assert labels["not_run"] == "not run: no reply, the run stopped first"


def test_a_row_without_reply_is_pending_then_not_run_as_the_panel_counts_it(tmp_path):
    store = Store.open(tmp_path / "t.db")
    add_items(store, ITEMS)
    run = partial_run(store)
    assert states(xr.responses(store, run)) == {"d/0": "ok", "d/1": "unparsed",
                                                "d/2": "pending"}
    assert states(xr.responses(store, run, "pending")) == {"d/2": "pending"}
    assert xr.responses(store, run, "not_run") == []
    assert "pending <b>1</b>" in xr.progress_html(store, run)
    store.finish_run(run, OWNER, "cancelled", "cancelled by the user",
                     store.get_run(run)["totals"])
    assert states(xr.responses(store, run)) == {"d/0": "ok", "d/1": "unparsed",
                                                "d/2": "not run"}
    assert states(xr.responses(store, run, "not_run")) == {"d/2": "not run"}
    assert xr.responses(store, run, "pending") == []
    panel = xr.progress_html(store, run)
    assert "not run <b>1</b>" in panel and "pending <b>0</b>" in panel
    assert states(xr.responses(store, run, "unparsed")) == {"d/1": "unparsed"}
    store.close()


def test_a_run_that_has_recorded_no_reply_has_spent_nothing_not_an_unknown():
    """A priced run just started showed its cost as "unknown (no price)": nothing recorded
    is nothing spent; replies without a price are what is unknown."""
    assert xr.spent({"status": "created", "totals": {}}) == 0.0
    assert xr.spent({"status": "done", "totals": {"done": 2, "cost": None}}) is None
    assert xr.spent({"status": "done", "totals": {"done": 2}}) is None   # no cost recorded
    assert xr.spent({"status": "done", "totals": {"done": 2, "cost": 0.0132}}) == 0.0132
