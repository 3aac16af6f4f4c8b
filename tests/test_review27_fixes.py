"""Round 27 of the context-free reviews: what they found, each fixed, tested here."""
from __future__ import annotations

import math

import pytest

from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui.inspect_handlers import item_md


def test_inspect_gold_panel_writes_out_an_options_direction_controls():
    """Inspect's Ground truth read "Options: A. abcnoitpo dnoces .B · fed": option A's
    U+202E reversed option B and moved the gold answer's parenthesis."""
    shown = item_md({"question": "Pick \u202eone", "answer": "A", "options": [
        {"label": "A", "text": "abc\u202edef"}, {"label": "B", "text": "second option"}],
        "gt_reasoning": "r\u202eq"}).replace("\\", "")     # Markdown's escapes
    assert "\u202e" not in shown
    assert "A. abc\u27e8U+202E\u27e9def · B. second option" in shown
    assert "Pick \u27e8U+202E\u27e9one" in shown and "(abc\u27e8U+202E\u27e9def)" in shown


def test_the_yes_no_choice_showing_a_stored_lower_case_gold_is_no_edit():
    """An imported gold "yes" showed as Yes, and any save (of the status alone) recorded
    "answer: yes → Yes" in the annotator's name; the draft line named the gold answer."""
    from ui.answer_form import read_answer

    assert read_answer("yes_no", {"answer_yes_no": "Yes"}, "yes") == "yes"
    assert read_answer("yes_no", {"answer_yes_no": "No"}, "yes") == "No"
    assert read_answer("yes_no", {"answer_yes_no": "Yes"}, "Maybe") == "Yes"
    assert read_answer("yes_no", {"answer_yes_no": None}, "no.") == "no."


def test_a_line_that_opens_no_json_object_is_not_kept(tmp_path):
    """"SECRET_API_KEY=sk-live-… not json" in a file with JSON lines was stored as the item
    line-2's raw_line and shown to every annotator; a broken object keeps its text."""
    from formats.jsonl import read
    from ui.problems_wiring import question_hint, raw_line_html

    path = tmp_path / "mine.jsonl"
    path.write_text('{"id": "m/1", "question": "q?", "answer": "Yes", "answer_type": '
                    '"yes_no"}\nSECRET_API_KEY=sk-live-1234567890 not json\n'
                    '{"id": "m/3", "question": "broken\n', encoding="utf-8")
    records = {r["id"]: r for r in read(path)}
    secret, broken = records["mine/line-2"], records["mine/line-3"]
    assert "sk-live" not in repr(secret)
    assert secret["problems"][0].endswith("(it opens no JSON object: its text is not kept)")
    assert raw_line_html(secret) == "" and question_hint(secret)
    assert broken["metadata"]["raw_line"] == '{"id": "m/3", "question": "broken'
    assert "broken" in raw_line_html(broken)


def test_a_missing_question_problem_goes_when_the_question_is_typed():
    """"missing field: question" stayed after the question was typed and saved: "1 import
    problem stays until you mark it resolved … no rule can check it again"."""
    from ui.save_rules import marked_only_note, settle_problems

    item = {"question": "Which city?", "answer": "x", "answer_type": "open",
            "problems": ["missing field: question", "missing question: the user turn has no "
                         "text"]}
    settled, fixed, _ = settle_problems(item)
    assert settled["problems"] == [] and len(fixed) == 2
    empty = {**item, "question": " "}
    assert settle_problems(empty)[0]["problems"] == empty["problems"]
    assert "no rule can check" not in marked_only_note(empty)


def test_history_shows_an_added_options_image_as_a_thumbnail(ui_store):
    """An option added with an image read "E:  (image 05c9ed3b)" in History's diff (two
    spaces, no image), where README says an option's image shows as a small thumbnail."""
    from ui.history_handlers import HistoryHandlers

    item = ui_store.get_item("ui/gamma")
    sha = ui_store.get_item("ui/alpha")["images"][0]
    item["options"] = [*item["options"], {"label": "E", "text": "", "image": sha}]
    ui_store.save_item(item, item["version"], "local", "")
    [row] = [r for r in HistoryHandlers(ui_store).diff("ui/gamma", 1, 2) if r[2]]
    assert row[2].startswith('E: <img class="cl-history-thumb"'), row
    assert f'title="{sha}"' in row[2] and "  " not in row[2]


def test_a_fixed_rejected_item_goes_back_in_review():
    """bob rejected; ann corrected the gold and saved: it stayed "rejected", no word of
    sending it back, where an edited verified item went back in review by itself."""
    from ui.save_rules import BACK_FROM_REJECTED, status_after

    saved = {"status": "rejected", "question": "q?", "answer": "Paris"}
    fixed, said = status_after({**saved, "answer": "Lyon"}, saved)
    assert fixed["status"] == "in_review" and said == BACK_FROM_REJECTED
    assert status_after(dict(saved), saved) == (saved, "")              # nothing changed
    kept = {**saved, "answer": "Lyon", "status": "draft"}                 # her own choice
    assert status_after(kept, saved) == (kept, "")


@pytest.mark.parametrize("amount", [math.nan, math.inf])
def test_a_budget_of_nan_or_inf_is_refused(amount):
    """--budget=nan passed "<= 0", was shown "$nan" and limited nothing; inf alike."""
    from runner.config import ConfigError, Execution

    with pytest.raises(ConfigError, match="budget must be a positive amount"):
        Execution(budget=amount).validate()
    with pytest.raises(ConfigError, match="deadline must be a positive"):
        Execution(deadline=amount).validate()


@pytest.mark.parametrize("typed", ["nan", "inf", "-inf", "NaN"])
def test_a_budget_on_resume_of_nan_is_refused(typed):
    from ui.experiments_handlers import ExperimentError
    from ui.experiments_steering import resume_budget

    with pytest.raises(ExperimentError, match="a positive amount of USD"):
        resume_budget(typed)


def test_a_cli_resume_checks_its_budget_before_anything(store):
    """`run --resume ID --budget=nan` (or -3) was taken unchecked."""
    from tests.scoring_helpers import add_items, cli, make_run

    add_items(store, [{"id": "o/1", "answer_type": "open", "answer": "x"}])
    make_run(store, "r1", {"o/1": "Answer: x"}, model="vlm-a")
    before = store.get_run("r1")["execution"]
    for amount in ("nan", "-3"):
        code, out, err = cli("run", "--db", store.path, "--resume", "r1", f"--budget={amount}")
        assert code == 2 and "budget must be a positive amount of USD" in err, (code, err)
    assert store.get_run("r1")["execution"] == before


def test_a_budget_is_written_as_plain_dollars():
    """"the budget of $1e-07": scientific notation read as no amount of money."""
    from runner.costs import usd

    assert [usd(v) for v in (1e-7, 2.5, 2, 100, 0.25)] == \
        ["$0.0000001", "$2.5", "$2", "$100", "$0.25"]


def test_the_judge_note_names_a_panel_by_its_member_that_judged_its_own_model():
    """"not panel:ma+judgej, llm:ma, which judged its own model's answers" made the panel
    the self-judge; only its member ma is."""
    from scoring.judge_choice import choice_note

    note = choice_note("llm:j", ["panel:a+j", "llm:a", "llm:j"],
                       {"panel:a+j": 3, "llm:a": 3, "llm:j": 3}, 3, {"panel:a+j", "llm:a"})
    assert "not panel:a+j, a member of which judged its own model's answers; llm:a, which " \
        "judged its own model's answers in a compared run" in note


def test_compare_with_a_run_never_scored_says_to_score_it(store):
    """"run X has no general scores by judge llm:judgej" for a run with no scores at all
    read as a judge mismatch."""
    from tests.scoring_helpers import add_items, cli, make_run

    add_items(store, [{"id": "o/1", "answer_type": "open", "answer": "x"}])
    make_run(store, "r1", {"o/1": "Answer: x"}, model="vlm-a")
    make_run(store, "r2", {"o/1": "Answer: y"}, model="vlm-b")
    assert cli("score", "--db", store.path, "--run", "r1")[0] == 0
    code, out, err = cli("compare", "--db", store.path, "r1", "r2")
    assert code != 0 and "run r2 has no general scores: score it first" in err, err
