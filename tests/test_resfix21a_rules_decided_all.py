"""The judge line under the Results table of a judge that rules decided every response of
(letters, read by the multiple-choice rule) read "Shown with llm:judge, which gave 0 readable
verdicts of 0 asked (6 more decided by rules)". Now it says "rules decided all 6 responses
(the judge was not asked)". Real SQLite, real scoring through the fake judge server, the
page's handler."""
from scoring.score_run import score_run
from tests.openai_server import start_server
from tests.scoring_helpers import add_items, judge_says, make_run, page_text
from ui import results_handlers as h

ITEMS = [{"id": f"demo/{i}", "answer_type": "multiple_choice", "answer": "A", "domain": "d",
          "subtask": "s"} for i in range(6)]


def test_a_judge_rules_left_nothing_to_says_so(store):
    add_items(store, ITEMS)
    make_run(store, "a", {i["id"]: "Answer: A" if i["id"] != "demo/0" else "Answer: B"
                          for i in ITEMS})
    score_run(store, "a")
    judge_says(store, "a", "llm:judge-a", lambda item: "correct")  # the runs' default judge
    with start_server(default_reply="correct") as judge:
        store.add_endpoint("zjudge", judge.url, "gpt-4o-mini")
        score_run(store, "a", judges=["zjudge"])
        assert not [r for r in judge.requests() if r.get("path", "").endswith("completions")]
    shown = page_text(h.show_results(store, ["a"], "general", judge="llm:zjudge")["rules"])
    assert ("Shown with llm:zjudge: rules decided all 6 responses (the judge was not "
            "asked); the default judge for these runs is llm:judge-a") in shown, shown
    assert "0 asked" not in shown
