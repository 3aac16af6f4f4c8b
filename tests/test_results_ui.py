"""The Results tab as an API: real server process, gradio_client, real SQLite; plus its plain
handlers (escaping of hostile labels)."""
import sqlite3

import pytest
from gradio_client import Client

from scoring.score_run import score_run
from store import Store
from tests.live_server import LiveServer
from tests.scoring_helpers import add_items, make_run
from ui import results_handlers as h

ITEMS = [{"id": f"u/{i}", "answer_type": "multiple_choice", "answer": "A",
          "domain": "Dom <b>" if i % 2 else "Plain", "subtask": f"s{i % 3}",
          "reasoning_type": ["inductive", "spatial"][i % 2]} for i in range(6)]


def build(db):
    store = Store.open(db)
    add_items(store, ITEMS)
    make_run(store, "ui-a", {f"u/{i}": "Answer: A" if i < 4 else "Answer: B" for i in range(6)})
    make_run(store, "ui-b", {f"u/{i}": "Answer: A" if i < 2 else "Answer: C" for i in range(6)},
             setting="direct")
    make_run(store, "ui-c", {f"u/{i}": "Answer: A" for i in range(6)}, clues="gt")
    store.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("results") / "results.db"
    build(db)
    srv = LiveServer(db, "--no-auth")
    srv.db = db
    yield srv
    srv.stop()


def test_results_tab_scores_shows_and_exports_through_the_api(server):
    c = Client(server.url, verbose=False, download_files=False)
    names = set(c.view_api(return_format="dict", print_info=False)["named_endpoints"])
    assert {"/results_runs", "/score_runs", "/show_results", "/export_results"} <= names
    runs_update, _ = c.predict(api_name="/results_runs")
    assert {"ui-a", "ui-b", "ui-c"} <= {choice[1] for choice in runs_update["choices"]}
    status = c.predict(["ui-a", "ui-b", "ui-c"], [], "all", api_name="/score_runs")
    assert "ui\\-a" in status and "verbench skipped" in status
    con = sqlite3.connect(server.db)
    assert con.execute("SELECT count(*) FROM scores WHERE protocol='general'").fetchone() == (18,)
    out = c.predict(["ui-a", "ui-b", "ui-c"], "general", api_name="/show_results")
    table, rules, domains = out[0], out[1], out[2]
    assert "m · CoT" in [row[0] for row in table["data"]]
    assert "micro-averaged" in rules
    assert {row[1] for row in domains["data"]} >= {"Plain", "Dom <b>"}
    assert "Pearson" in out[7] and "inductive" in out[7]             # correlation heatmap
    assert "No Clue" in out[6]                                        # injection heatmap
    path = c.predict(["ui-a", "ui-b"], "general", "leaderboard", "latex",
                     api_name="/export_results")
    assert path["orig_name"].endswith(".tex")


def test_hostile_labels_are_escaped_in_heatmaps_and_status(store):
    add_items(store, [{**i, "domain": "<script>x</script>"} for i in ITEMS[:3]])
    for run in ("<img src=x onerror=1>", "b", "c"):
        make_run(store, run, {f"u/{i}": "Answer: A" for i in range(3)})
    status = h.score_runs(store, ["<img src=x onerror=1>", "b", "c"], [], "general")
    assert "<img" not in status
    shown = h.show_results(store, ["<img src=x onerror=1>", "b", "c"])
    assert "<script>" not in shown["correlation"] and "<script>" not in shown["injection"]
    with pytest.raises(h.ResultsUiError, match="choose"):
        h.score_runs(store, [], [], "general")
    score_run(store, "b")
    assert h.export_table(store, ["b"], "general", "main", "csv").endswith(".csv")
