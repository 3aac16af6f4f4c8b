"""The judge line under the Results table counts the responses to the table's items only
(it counted the whole runs': "0 readable verdicts of 0 asked (23 more decided by rules)"
under a table of 3 items), and the offline matcher, rules itself, is not said to have been
"asked". Real SQLite, real offline scoring, the page's handlers and a download."""
from scoring.score_run import score_run
from tests.scoring_helpers import add_items, judge_says, make_run, page_text
from ui import results_handlers as h

ITEMS = [{"id": f"demo/{i}", "answer_type": "multiple_choice", "answer": "A", "domain": "d",
          "subtask": "s"} for i in range(6)]
NOTE = ("Shown with offline (rules): decided 6 responses; the default judge for these runs "
        "is llm:judge-a (CLI tables use it).")


def _two_runs_sharing_3_items(store, *judges):
    """Run a on 3 items, run b on 6, scored offline and by llm:judge-a (the default judge:
    it gave a verdict on every response), and by each of `judges` (no readable verdict)."""
    add_items(store, ITEMS)
    make_run(store, "a", {i["id"]: "Answer: A" for i in ITEMS[:3]})
    make_run(store, "b", {i["id"]: "Answer: B" for i in ITEMS}, model="other")
    for run in ("a", "b"):
        score_run(store, run)
        judge_says(store, run, "llm:judge-a", lambda item: "correct")
        for judge in judges:
            judge_says(store, run, judge, lambda item: "unscored")


def test_offline_shown_counts_the_tables_items_and_says_rules(store):
    _two_runs_sharing_3_items(store)
    shown = page_text(h.show_results(store, ["a", "b"], "general", judge="offline")["rules"])
    assert NOTE in shown, shown
    assert "asked" not in shown.split("the default judge")[0]
    path = h.export_table(store, ["a", "b"], "general", "main", "md", judge="offline")
    assert NOTE in page_text(open(path, encoding="utf-8").read())


def test_an_llm_judge_shown_counts_the_tables_items_only(store):
    _two_runs_sharing_3_items(store, "llm:judge-bad")
    shown = page_text(h.show_results(store, ["a", "b"], "general", judge="llm:judge-bad")
                      ["rules"])
    assert "Shown with llm:judge-bad, which gave 0 readable verdicts of 6 asked;" in shown, \
        shown
