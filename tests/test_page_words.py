"""Messages the command line and the pages share say their remedy in each surface's words:
the CLI names its flags, a page names its controls (ui/page_words.py). Each message here is
made for real (real SQLite, real scoring, the real fake OpenAI server), then read as the page
shows it: no flag, no `python app.py`, and the control named is on the page."""
from __future__ import annotations

import re

import pytest

from scoring.score_run import score_run
from tests.openai_server import start_server
from tests.scoring_helpers import add_items, cli, make_run
from ui import experiments_endpoints as xe
from ui import experiments_runs as xr
from ui import messages
from ui import results_handlers as h
from ui import results_page as page
from ui.page_words import on_page

ITEMS = [{"id": f"w/{i}", "answer_type": "multiple_choice", "answer": "A", "domain": "d",
          "subtask": "s"} for i in range(3)]
CLI_WORDS = re.compile(r"(?<![\w-])--[a-z]|app\.py")


def plain(text: str) -> str:
    """Markdown-escaped text read back as the page shows it."""
    return re.sub(r"\\(.)", r"\1", text.replace("&#58;", ":"))


def on_the_page(text: str, *controls: str) -> None:
    shown = plain(text)
    assert not CLI_WORDS.search(shown), shown
    for control in controls:
        assert control in shown, shown


def test_an_unscored_run_is_refused_with_the_score_button_not_the_command(store):
    from scoring.results import ResultsError, run_summary

    add_items(store, ITEMS)
    make_run(store, "not scored", {i["id"]: "Answer: A" for i in ITEMS})
    with pytest.raises(ResultsError) as refused:
        run_summary(store, "not scored")
    assert "python app.py score --run 'not scored' --protocol general" in str(refused.value)
    on_the_page(messages.error(refused.value).message, "under Runs", "Protocol to score",
                "press Score")
    on_the_page(messages.status(refused.value), "press Score")
    on_the_page(page.shown(store, ["not scored"])["notice"], "score them first")
    code, _, err = cli("report", "--db", store.path, "--run", "not scored")
    assert code != 0 and "python app.py score --run" in err          # the CLI keeps its own


def test_two_runs_in_one_cell_and_the_judge_flag_are_said_with_the_page_controls(store):
    add_items(store, ITEMS)
    for run in ("gt-1", "gt-2"):
        make_run(store, run, {i["id"]: "Answer: A" for i in ITEMS}, clues="gt")
        score_run(store, run)
    # both are shown (resfix17: the other has a row of its own), so no command to quote
    code, out, _ = cli("table", "--db", store.path, "--kind", "injection", "--runs",
                       "gt-1,gt-2")
    assert code == 0 and "in a row of its own" in out and "python app.py" not in out
    shown = h.show_results(store, ["gt-1", "gt-2"])
    assert "Clue injection not shown: none of the runs has injected clues" not in \
        shown["injection"]
    on_the_page(shown["injection"], "in a row of its own")
    with pytest.raises(h.ResultsUiError) as verbench:
        h.score_runs(store, ["gt-1"], [], "verbench")
    on_the_page(messages.error(verbench.value).message, "LLM judge(s)")
    status = h.score_runs(store, ["gt-1"], [], "all")
    assert "verbench skipped" in plain(status)
    on_the_page(status, "LLM judge(s)")


def test_rows_read_by_different_judges_say_so_in_the_pages_words(store):
    add_items(store, ITEMS)
    for run in ("x", "y"):
        make_run(store, run, {i["id"]: "Answer: A" for i in ITEMS})
        score_run(store, run)
    store.upsert_scores([{"run_id": "y", "protocol": "general", "judge": "llm:other",
                          "work_id": r["work_id"], "value": "wrong", "answer": r["answer"]}
                         for r in store.run_scores("y", "general", "offline")])
    store.delete_scores("y", "general", "offline")        # no judge scored both runs
    shown = h.show_results(store, ["x", "y"])
    on_the_page(shown["rules"], "each row is read with its own (Judge column)",
                "no best or second is marked")


def test_the_experiments_page_says_resume_and_the_key_field(store):
    from runner.endpoints import explain_failure
    from runner.replies import RequestFailed

    add_items(store, ITEMS)
    make_run(store, "half", {i["id"]: "Answer: A" for i in ITEMS})
    # as runner/engine.py ends a run with work left
    store.finish_run("half", "test", "stopped",
                     "2 work rows have no result; 2 left: resume with python app.py run "
                     "--resume half", {})
    on_the_page(xr.progress_html(store, "half"), "press Resume")
    endpoint = {"name": "e", "base_url": "http://127.0.0.1:1/v1", "model": "m",
                "api_key_env": None}
    hint = explain_failure(RequestFailed("HTTP 401", status=401), endpoint)
    assert "--api-key-env" in hint                                     # the CLI's words
    on_the_page(messages.status(hint), "API key environment variable")


def test_the_connection_test_counts_models_without_naming_a_flag(store):
    server = start_server()
    try:
        result = xe.test_connection(store, "t", server.url, "no-such-model", "")
    finally:
        server.stop()
    assert result["kind"] == "unknown_model" and "--json" in result["message"]
    on_the_page(result["markdown"], "Test connection")


def test_a_flag_no_table_knows_is_not_passed_off_as_a_control():
    assert on_page("use --frobnicate X") == "use the command line's --frobnicate"
    assert on_page("nothing to change") == "nothing to change"


def test_the_results_experiments_and_statistics_pages_label_no_flag(store):
    """A page's own labels name no command-line flag either (the Statistics page's JSON was
    labelled "stats --json")."""
    import gradio as gr

    from ui.experiments_tab import build_experiments_tab
    from ui.results_tab import build_results_tab
    from ui.stats_tab import build_stats_tab

    for build in (build_stats_tab, build_results_tab, build_experiments_tab):
        with gr.Blocks() as demo:
            build(store, demo.load)
        labels = [str(b.label) for b in demo.blocks.values() if getattr(b, "label", None)]
        assert labels, build.__name__
        assert [text for text in labels if CLI_WORDS.search(text)] == [], build.__name__


def test_a_server_without_import_roots_is_said_in_a_whole_sentence(tmp_path):
    """It read "(no the command line's --import-root configured)"."""
    from ui.import_roots import ImportRootError, ImportRoots
    with pytest.raises(ImportRootError) as refused:
        ImportRoots([]).check(str(tmp_path / "a.jsonl"))
    words = on_page(str(refused.value))
    assert "--" not in words and "the command line's" not in words
    assert "started without import folders" in words


def test_score_commands_with_a_judge_are_said_with_the_pages_controls(store):
    """A score command names the judge to ask again (`--judge` per endpoint, `--semantic`)
    and VER-Bench's judge endpoint: the page names the controls that do it."""
    from scoring.by_dataset import no_scores_yet
    from scoring.commands import score_command

    stale = f"score it again ({score_command('r 1', 'rigorous', 'panel:a+b')})."
    on_the_page(messages.status(stale), "Protocol to score to rigorous", "LLM judge(s)",
                "press Score).")
    on_the_page(messages.status(score_command("r", "rigorous", "offline:semantic")),
                "tick Semantic clue matcher too")
    on_the_page(messages.status(score_command("r", "verbench", endpoints=["a", "b"])),
                "LLM judge(s)")
    none = "run r has no verbench scores; it needs " + score_command("r", "verbench")
    on_the_page(messages.status(none), "under Endpoints on the Experiments page")
    on_the_page(messages.status(no_scores_yet(store, "general")), "on the Experiments page")


def test_a_quoted_commands_database_is_not_said_on_a_page(store):
    """A command quoted by a process given --db names that database (domain/commands.py):
    the UI's runs do. On the page, "press Resume to run them" was followed by "the command
    line's --db /srv/…" (a server path, and no control of the page)."""
    from domain.commands import quote_db
    from runner.engine import resume_advice

    add_items(store, ITEMS)
    make_run(store, "half", {i["id"]: "Answer: A" for i in ITEMS})
    for budget, control in ((False, "press Resume to run them"),
                            (True, "give a higher Budget on resume (or none) and press Resume")):
        quote_db(store.path)                          # as `python app.py run --db ...` does
        try:
            advice = resume_advice("half", budget)
        finally:
            quote_db(None)
        assert f"--db {store.path.resolve()}" in advice
        store.finish_run("half", "test", "stopped", f"2 left: {advice}", {})
        panel = xr.progress_html(store, "half")
        on_the_page(panel, control)
        assert str(store.path.parent) not in panel
