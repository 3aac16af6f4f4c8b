"""The Results tab as an API: real server process, gradio_client, real SQLite; plus its plain
handlers (the reading dropdowns, human baselines, escaping of hostile labels)."""
import html
import json
import sqlite3

import pytest
from gradio_client import Client, handle_file

from scoring.score_run import score_run
from store import Store
from tests.live_server import LiveServer, event_names
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
    names = event_names(server.url)
    assert {"/results_runs", "/score_runs", "/show_results", "/export_results",
            "/shown_judges", "/add_human"} <= names
    runs_update, _, humans = c.predict(api_name="/results_runs")
    assert {"ui-a", "ui-b", "ui-c"} <= {choice[1] for choice in runs_update["choices"]}
    assert [choice[1] for choice in humans["choices"]] == [h.NO_HUMAN]
    status = c.predict(["ui-a", "ui-b", "ui-c"], [], "all", False, api_name="/score_runs")
    assert "m · No\\-CoT" in status and "verbench skipped" in status   # by label
    con = sqlite3.connect(server.db)
    assert con.execute("SELECT count(*) FROM scores WHERE protocol='general'").fetchone() == (18,)
    judges = c.predict(["ui-a"], "general", h.COMMON_JUDGE, api_name="/shown_judges")
    assert [choice[1] for choice in judges["choices"]] == [h.COMMON_JUDGE, "offline"]
    out = c.predict(["ui-a", "ui-b", "ui-c"], "general", h.COMMON_JUDGE, "majority", h.NO_HUMAN,
                    "cluelab", api_name="/show_results")
    table, rules, domains = out[0]["value"], out[1], out[2]   # the table: an update
    assert "m · CoT" in [row[0] for row in table["data"]]
    assert out[0]["label"] == ("Accuracy (%), general protocol, 6 items, with 95% CI; "
                               "samples rule: majority vote")
    assert "micro-averaged" in html.unescape(rules).replace("\\", "")
    assert 'data-group="Plain"' in domains and 'data-group="Dom &lt;b&gt;"' in domains
    assert "Dom <b>" not in domains                                   # escaped
    assert "Pearson" in out[7] and "inductive" in out[7]             # correlation heatmap
    assert "No Clue" in out[6]                                        # injection heatmap
    length = out[5]                       # one bar per run and output-length quartile
    for name in ("m · CoT", "m · No-CoT", "m · CoT · clues gt"):
        assert f'data-series="{name}" data-group="Q1"' in length
    baseline = server.db.parent / "human.json"
    baseline.write_text(json.dumps({"label": "Crowd", "results": {"u/0": True, "u/1": False}}))
    humans, _ = c.predict(handle_file(str(baseline)), api_name="/add_human")
    assert humans["value"] == "Crowd"
    out = c.predict(["ui-a"], "general", "offline", "mmr_life", "Crowd", "mmr-life",
                    api_name="/show_results")
    assert [row[0] for row in out[0]["value"]["data"]] == ["m · CoT", "Crowd"]
    assert "MMR-Life's regex" in out[1] and "0 of 6 multiple-choice verdicts differ" in out[1]
    path, line = c.predict(["ui-a", "ui-b"], "general", "leaderboard", "latex", h.COMMON_JUDGE,
                           "majority", "Crowd", "cluelab", api_name="/export_results")
    assert line == ""
    assert path["orig_name"].endswith(".tex")


def test_hostile_labels_are_escaped_in_heatmaps_and_status(store):
    add_items(store, [{**i, "domain": "<script>x</script>"} for i in ITEMS[:3]])
    for run in ("<img src=x onerror=1>", "b", "c"):
        make_run(store, run, {f"u/{i}": "Answer: A" for i in range(3)})
    status = h.score_runs(store, ["<img src=x onerror=1>", "b", "c"], [], "general")
    assert "<img" not in status
    shown = h.show_results(store, ["<img src=x onerror=1>", "b", "c"])
    assert "<script>" not in shown["correlation"] and "<script>" not in shown["injection"]
    # every chart and note the page shows (the per-domain bars name the domain too)
    texts = [v for v in shown.values() if isinstance(v, str)]
    assert texts
    assert all("<script>" not in t and "<img src=x" not in t for t in texts), \
        [k for k, v in shown.items() if isinstance(v, str) and "<script>" in v]
    assert any("&lt;script&gt;" in t for t in texts)           # the domain is shown, escaped
    with pytest.raises(h.ResultsUiError, match="choose"):
        h.score_runs(store, [], [], "general")
    score_run(store, "b")
    assert h.export_table(store, ["b"], "general", "main", "csv").endswith(".csv")


def test_reading_dropdowns_change_what_is_shown(store, tmp_path):
    add_items(store, ITEMS)
    trap = "# Answer: A\nThis matches the blue cube."       # ours A (right), MMR-Life's E
    make_run(store, "x", {f"u/{i}": ["Answer: A", trap, "Answer: B"] for i in range(6)},
             samples=3)
    make_run(store, "y", {f"u/{i}": "Answer: A" if i < 3 else "Answer: B" for i in range(6)})
    h.score_runs(store, ["x", "y"], [], "general")
    store.upsert_scores([{"run_id": "y", "protocol": "general", "judge": "llm:harsh",
                          "work_id": r["work_id"], "value": "wrong", "answer": r["answer"]}
                         for r in store.run_scores("y", "general", "offline")])
    assert h.shown_judge_choices(store, ["x", "y"]) == [h.COMMON_JUDGE, "offline", "llm:harsh"]

    def overall(**reading):
        shown = h.show_results(store, ["x", "y"], "general", **reading)
        return dict(zip(shown["table"].iloc[:, 0], shown["table"]["Overall"])), shown

    # by default both runs are read offline: the judge both were scored with (y's latest
    # scoring, llm:harsh, is not x's: before, y was read by it, 0.00, and ranked against x)
    common, shown = overall()
    assert common["m · CoT · 3 samples"].startswith("100.00")
    assert common["m · CoT"].startswith("50.00")
    assert "judge offline" in html.unescape(shown["rules"])
    assert overall(judge="offline")[0]["m · CoT"].startswith("50.00")
    harsh = h.show_results(store, ["y"], "general")             # y alone: its LLM judge
    assert "judge llm:harsh" in html.unescape(harsh["rules"])   # ":" is an entity: no auto-link
    assert list(overall(judge="llm:harsh")[0]) == ["m · CoT"]   # only y
    # x, by our reading: A, A, B per item: the majority is right, the first sample too;
    # MMR-Life's rule (more than 2 of the first 5) is refused on 3 samples, saying why
    with pytest.raises(h.ResultsUiError, match="with 3 an item would need all 3 samples"):
        overall(samples_rule="mmr_life")
    assert overall(samples_rule="first")[0]["m · CoT · 3 samples"].startswith("100.00")
    mmr, shown = overall(extraction="mmr-life")
    assert mmr["m · CoT · 3 samples"].startswith("0.00")             # A, E, B: a tie, no answer
    assert "6 of 18 multiple-choice verdicts differ" in shown["rules"]
    assert "Answers read by MMR-Life's regex" in shown["rules"]
    assert 'data-series="m · CoT · 3 samples"' in shown["length_chart"]
    assert 'data-series="m · CoT"' in shown["length_chart"]
    baseline = tmp_path / "crowd.json"
    baseline.write_text(json.dumps({"label": "<i>Crowd</i>", "results": {"u/0": True}}))
    name = h.add_human(store, str(baseline))
    assert (("<i>Crowd</i>", name)) in h.human_choices(store)
    with_human, _ = overall(human=name)
    assert with_human["<i>Crowd</i>"].startswith("100.00")
    with pytest.raises(h.ResultsUiError, match="not added"):
        baseline.write_text("{}")
        h.add_human(store, str(baseline))
    with pytest.raises(h.ResultsUiError, match="general protocol only"):
        h.show_results(store, ["x"], "rigorous", extraction="mmr-life")
    exported = h.export_table(store, ["x", "y"], "general", "main", "md", "offline",
                              "majority", name, "mmr-life")
    text = open(exported, encoding="utf-8").read()
    assert "answers read by MMR-Life's regex" in text and "Crowd" in text
