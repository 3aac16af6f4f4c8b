"""Findings of a researcher review (round 14), each with the test that failed before its fix."""
import pytest

from tests.inspect_helpers import built, env  # noqa: F401 (fixtures)

from domain.extract import clues_of, extract


# -- 1. a "Clue N:" after other text on its line is read -----------------------------------

def test_a_clue_after_other_text_on_its_line_is_read():
    """Only "people are waiting" was read (as M1): the model's Clue 1 followed "Let me look."."""
    reply = ("Let me look. Clue 1: the sign shows a bus number.\n"
             "Clue 2: people are waiting.\nAnswer: B")
    assert [c["text"] for c in clues_of(reply)] == ["the sign shows a bus number",
                                                    "people are waiting"]


@pytest.mark.parametrize("reply", [
    "Let me look at this clue: the sign is red.\nAnswer: B",
    "As clue 2 shows, the queue is long. So B.\nAnswer: B",
    "This matches clue 2. The bus is red.\nAnswer: B",
    "Read the sign, as in clue 2: it is red.\nAnswer: B",
])
def test_prose_naming_a_clue_is_no_clue(reply):
    assert clues_of(reply) == []


def test_the_text_before_a_clue_on_its_line_is_still_prose():
    """The answer rules read the prose: "the count is 7." before the clue is kept."""
    reply = "So the count is 7. Clue 1: 3 cars and 4 more."
    assert extract(reply, "numeric").answer == "7"


# -- 2. the Results page says which repeat of a run was another run's cached replies ---------

def test_the_results_page_says_a_repeat_came_from_another_runs_cache(store):
    """A 2-repeat run whose repeat 0 was an older run's cached replies showed on the page as
    a row of its own, "cache" nowhere (`report` said "repeat 0: 3 of 3 from run old")."""
    import html

    from tests.scoring_helpers import add_items, make_run
    from ui import results_handlers as h

    add_items(store, [{"id": f"u/{i}", "answer_type": "multiple_choice", "answer": "A",
                       "domain": "d", "subtask": "s"} for i in range(3)])
    replies = {f"u/{i}": "Answer: A" for i in range(3)}
    make_run(store, "old", replies)
    make_run(store, "new", {k: [v, v] for k, v in replies.items()}, repeats=2,
             cached_from={0: "old"})
    store.finish_run("new", "test", "done", "", {"cached": 3, "cached_from": {"old": 3}})
    h.score_runs(store, ["old", "new"], [], "general")
    shown = h.show_results(store, ["old", "new"])
    rules = html.unescape(shown["rules"])
    # said once, in the table's notes (resfix17: the Shown line said it again)
    said = "m · CoT · 2 repeats: replies from the cache"      # which run: its label
    assert rules.count(said) == 1, rules
    assert rules.count("repeat 0: 3 of 3 from m · CoT; repeat 1: none") == 1, rules


def test_a_sample_taken_from_the_cache_is_said_per_sample():
    from runner.provenance import per_draw_text

    entries = [{"phase": "answer", "repeat": 0, "sample": 0, "source": "old", "n": 3}]
    assert per_draw_text(None, entries, 1, 2, 3, name=str.upper).endswith(
        "sample 0: 3 of 3 from OLD; sample 1: none")


# -- 3. compare says which way an item changed --------------------------------------------

def test_compare_says_the_direction_of_a_gained_and_a_lost_item(store):
    """`compare A B` listed "gained demo/…" and "lost demo/…", not saying from which run."""
    from tests.scoring_helpers import add_items, cli, make_run

    add_items(store, [{"id": f"u/{i}", "answer_type": "multiple_choice", "answer": "A",
                       "domain": "d", "subtask": "s"} for i in range(2)])
    make_run(store, "a", {"u/0": "Answer: A", "u/1": "Answer: B"})
    make_run(store, "b", {"u/0": "Answer: B", "u/1": "Answer: A"}, model="mb")
    assert cli("score", "--db", store.path, "--run", "a")[0] == 0
    assert cli("score", "--db", store.path, "--run", "b")[0] == 0
    code, out, err = cli("compare", "--db", store.path, "a", "b")
    assert code == 0, err
    assert "  gained (wrong in A, right in B)\tu/1" in out
    assert "  lost (right in A, wrong in B)\tu/0" in out


# -- 4. Inspect's list shows "–" for a grounded verdict that is not applicable ---------------

def test_the_inspect_list_shows_a_dash_for_grounded_under_an_llm_judge(env):
    """A CoT run asks for no boxes: under an LLM judge (which stored no grounded verdict)
    the list's grounded cell was empty, where every table and Inspect's verdict table say
    "–"; under the offline judge it read "n/a"."""
    from scoring.score_run import score_run
    from tests.inspect_helpers import ALPHA_A, add_llm_general_verdict, make_run
    from tests.test_inspect_handlers import filters
    from ui import inspect_browser as ib

    store, _ = env
    cot = make_run(store, "run-cot", "m-c", {"ui/alpha": ALPHA_A}, setting="cot")
    score_run(store, "run-cot", protocol="all")
    add_llm_general_verdict(store, "run-cot", cot["ui/alpha"])
    column = ib.HEADERS.index("grounded")
    for judge in ("llm:judge", "offline"):
        found = ib.browse(store, filters(run="run-cot", judge=judge), "run order", 1)
        assert [row[column] for row in found["rows"]] == ["–"], judge
        assert "grounded –: not applicable, its run asked for no boxes" in found["count"]
    structured = ib.browse(store, filters(run="run-a", judge="llm:judge"), "run order", 1)
    assert "–" not in [row[column] for row in structured["rows"]]


# -- 5. a setting is titled everywhere: the runs listing and the Experiments radio -----------

def test_the_runs_listing_titles_the_setting(store):
    """`runs` listed `direct` / `clue_guided` where the tables say No-CoT / Clue-guided CoT."""
    from tests.scoring_helpers import add_items, cli, make_run, runs_listed

    add_items(store, [{"id": "u/0", "answer_type": "multiple_choice", "answer": "A",
                       "domain": "d", "subtask": "s"}])
    for setting in ("direct", "clue_guided", "structured"):
        make_run(store, setting, {"u/0": "Answer: A"}, setting=setting)
    code, out, err = cli("runs", "--db", store.path)
    assert code == 0, err
    assert {rid: row["setting"] for rid, row in runs_listed(out).items()} == {
        "direct": "No-CoT", "clue_guided": "Clue-guided CoT", "structured": "Structured"}


def test_the_prompt_setting_radio_shows_titles_and_keeps_the_values():
    from types import SimpleNamespace

    import gradio as gr

    from ui.experiments_layout import build_builder

    ui = SimpleNamespace()
    with gr.Blocks():
        build_builder(ui)
    assert ui.setting.choices == [("No-CoT", "direct"), ("CoT", "cot"),
                                  ("Clue-guided CoT", "clue_guided"),
                                  ("Structured", "structured")]
    assert ui.setting.value == "cot"
    assert ui.clue_pass.choices == [("Clue-guided CoT", "clue_guided"),
                                    ("Structured", "structured")]
