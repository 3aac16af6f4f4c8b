"""A refused Show results or Export leaves nothing from before (ui/results_page.py): no table
or chart of the previous choice, no previous download file; the refusal is on the page.
Real SQLite, real scoring; the page's functions called directly, and the API through a real
server (a script gets the error raised, not an empty result)."""
from __future__ import annotations

import pytest
from gradio_client import Client

from scoring.score_run import score_run
from store import Store
from tests.live_server import LiveServer
from tests.scoring_helpers import add_items, make_run
from ui import results_page as page

ITEMS = [{"id": f"{ds}/{i}", "answer_type": "multiple_choice", "answer": "A", "domain": "d",
          "subtask": "s"} for ds in ("one", "two") for i in range(3)]


def two_datasets(store) -> None:
    add_items(store, ITEMS)
    for run, ds in (("a", "one"), ("b", "one"), ("c", "two")):
        make_run(store, run, {f"{ds}/{i}": "Answer: A" for i in range(3)}, model=f"m-{run}")
        score_run(store, run)


def test_a_refused_export_gives_no_file_and_says_why(store):
    two_datasets(store)
    path, line, refused = page.exported(store, ["a", "b"], "general", "main", "csv")
    assert path and path.endswith(".csv") and line == "" and refused is None
    path, line, refused = page.exported(store, ["a", "c"], "general", "main", "csv")
    assert path is None                        # the download is emptied, not left as it was
    assert "share no item" in refused and line.startswith("**Not exported:**")
    assert "m\\-a · CoT \\(3 items\\)" in line and "m\\-c · CoT \\(3 items\\)" in line
    path, line, refused = page.exported(store, ["a"], "general", "main", "xls")
    assert path is None and "format must be one of" in refused


def test_a_refused_show_clears_the_previous_results_and_keeps_the_reason(store):
    two_datasets(store)
    shown = page.shown(store, ["a", "b"])
    assert shown["refused"] is None and shown["table"] is not None
    assert "rect" in shown["group_chart"]
    refused = page.shown(store, ["a", "c"])
    assert refused["table"] is None and refused["caption"] is None
    assert all(refused[chart] == "" for chart in page.CHARTS)
    assert refused["notice"].startswith("**No results shown:**")
    assert "share no item" in refused["notice"] and "Compare runs made on the same items" in \
        refused["notice"]
    assert refused["rules"] == page.RULES
    assert page.notice_reset() == page.EMPTY_STATE


@pytest.fixture
def server(tmp_path):
    store = Store.open(tmp_path / "r.db")
    two_datasets(store)
    store.close()
    srv = LiveServer(tmp_path / "r.db", "--no-auth")
    yield srv
    srv.stop()


def test_a_script_gets_the_refusal_raised(server):
    c = Client(server.url, verbose=False, download_files=False)
    c.predict(api_name="/results_runs")              # the run choices, as the page opens
    path, line = c.predict(["a", "b"], "general", "main", "csv", "(common to all runs)",
                           "majority", "(none)", "cluelab", "domain",
                           api_name="/export_results")
    assert path["orig_name"].endswith(".csv") and line == ""
    with pytest.raises(Exception, match="share no item"):
        c.predict(["a", "c"], "general", "main", "csv", "(common to all runs)", "majority",
                  "(none)", "cluelab", "domain", api_name="/export_results")
    with pytest.raises(Exception, match="share no item"):
        c.predict(["a", "c"], "general", "(common to all runs)", "majority", "(none)", "cluelab",
                  "domain", api_name="/show_results")
