"""`compare --json` gave two equal accuracies as different floats: 9 of 14 items right read
0.6428571428571429 for a run of one repeat and 0.6428571428571427 for a run of 3 repeats
(each repeat's 1/3 share summed as floats). Accuracies are computed exactly and rounded
once, so equal accuracies are equal. Real SQLite, real offline scoring, the real CLI."""
import json

from scoring.score_run import score_run
from store import Store
from tests.scoring_helpers import add_items, cli, make_run

ITEMS = [{"id": f"x/{i}", "answer_type": "yes_no", "answer": "Yes", "domain": "d",
          "subtask": "s"} for i in range(14)]


def test_equal_accuracies_are_equal_floats_in_compare_json_and_report(tmp_path):
    store = Store.open(tmp_path / "c.db")
    add_items(store, ITEMS)
    right = {f"x/{i}": "Yes." if i < 9 else "No." for i in range(14)}
    make_run(store, "once", right, model="once")
    make_run(store, "thrice", {k: [v] * 3 for k, v in right.items()}, model="thrice",
             repeats=3)
    for run in ("once", "thrice"):
        score_run(store, run)
    store.close()
    code, out, err = cli("compare", "--db", tmp_path / "c.db", "once", "thrice", "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["accuracy_a"] == result["accuracy_b"] == 9 / 14
    for run in ("once", "thrice"):
        code, out, _ = cli("report", "--db", tmp_path / "c.db", "--run", run, "--json")
        assert json.loads(out)["overall"]["accuracy"] == 9 / 14
