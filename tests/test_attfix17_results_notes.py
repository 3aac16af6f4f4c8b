"""An audit (round 17): the Results page's notes under the table (#results-rules) quoted run
labels — a run's name, a model id — unescaped: a run renamed `<img src=x …>` or a model id
holding a Markdown link reached every researcher's page as markup."""
from __future__ import annotations

from scoring.score_run import score_run
from store import Store
from tests.scoring_helpers import NOT_RUN, add_items, make_run
from ui import results_handlers as h

PAYLOAD = "<img src=x onerror=alert(1)>"


def test_the_notes_under_the_table_are_escaped(tmp_path):
    store = Store.open(tmp_path / "r.db")
    add_items(store, [{"id": f"u/{i}", "answer_type": "multiple_choice", "answer": "A",
                       "domain": "D", "subtask": "s", "reasoning_type": "inductive"}
                      for i in range(4)])
    make_run(store, "ra", {f"u/{i}": "Answer: A" for i in range(4)})
    make_run(store, "rb", {f"u/{i}": ("Answer: A" if i < 2 else NOT_RUN) for i in range(4)},
             model="m2[l](http://e.x)")
    store.db.execute("UPDATE model_runs SET status='cancelled' WHERE id='rb'")
    store.label_run("rb", name="RunName" + PAYLOAD)
    for run_id in ("ra", "rb"):
        score_run(store, run_id, protocol="general")
    rules = h.show_results(store, ["ra", "rb"], "general", h.COMMON_JUDGE, "majority",
                           None)["rules"]
    assert "Not finished" in rules and "covers 2 of" in rules, rules    # the notes are there
    assert PAYLOAD not in rules and "&lt;img" in rules, rules
    store.close()
