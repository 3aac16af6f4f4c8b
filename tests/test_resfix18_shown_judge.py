"""The Results page shown with an LLM judge whose every reply was unreadable: "Judge shown"
became that judge and the accuracies changed (n dropped) with only "Unscored 1" as a sign.
The page (and a download made then) says the judge shown is not the runs' default one, with
its readable verdicts. Real SQLite, real scoring, the page's handlers."""
from scoring.score_run import score_run
from tests.scoring_helpers import add_items, judge_says, make_run, page_text
from ui import results_handlers as h

ITEMS = [{"id": f"demo/{i}", "answer_type": "multiple_choice", "answer": "A", "domain": "d",
          "subtask": "s"} for i in range(2)]
NOTE = ("Shown with llm:judge-bad, which gave 1 readable verdict of 2 asked; the default "
        "judge for these runs is llm:judge-a (CLI tables use it).")


def test_a_judge_other_than_the_default_one_is_said(store):
    add_items(store, ITEMS)
    make_run(store, "r", {i["id"]: "Answer: A" for i in ITEMS})
    score_run(store, "r")
    judge_says(store, "r", "llm:judge-a", lambda item: "correct")
    judge_says(store, "r", "llm:judge-bad",
               lambda item: "correct" if item == "demo/0" else "unscored")
    shown = h.show_results(store, ["r"], "general", judge="llm:judge-bad")
    assert NOTE in page_text(shown["rules"])
    path = h.export_table(store, ["r"], "general", "main", "md", judge="llm:judge-bad")
    assert NOTE in page_text(open(path, encoding="utf-8").read())
    # the default judge, or none named: no such note
    assert "Shown with" not in h.show_results(store, ["r"], "general",
                                              judge="llm:judge-a")["rules"]
    assert "Shown with" not in h.show_results(store, ["r"], "general")["rules"]


def test_verdicts_decided_by_rules_are_not_counted_as_the_judges(store):
    """A judge whose every reply was unreadable read "39 readable verdicts of 42 asked": the
    verdicts rules decided (a letter, an unparsed answer) were counted as the judge's
    (a review, round 19). Its own replies alone: 0 of 1 asked, the rest said apart."""
    add_items(store, ITEMS)
    make_run(store, "r", {i["id"]: "Answer: A" for i in ITEMS})
    score_run(store, "r")
    judge_says(store, "r", "llm:judge-a", lambda item: "correct")
    store.upsert_scores([{"run_id": "r", "protocol": "general", "judge": "llm:judge-bad",
                          "work_id": r["work_id"], "answer": r["answer"],
                          "value": "correct" if r["item_id"] == "demo/0" else "unscored",
                          "decided_by": "rule:multiple_choice" if r["item_id"] == "demo/0"
                          else "llm:judge-bad"}
                         for r in store.run_scores("r", "general", "offline")])
    shown = page_text(h.show_results(store, ["r"], "general", judge="llm:judge-bad")["rules"])
    assert ("Shown with llm:judge-bad, which gave 0 readable verdicts of 1 asked (1 more "
            "decided by rules); the default judge") in shown, shown
