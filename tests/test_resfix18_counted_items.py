"""'1 items' in `report`'s heading, in `compare` ('on the 1 items both scored') and in the
table notes ('on these 1 items', 'was made on only 1 items'): one item is said in the
singular. Real SQLite, real scoring, the real CLI."""
from judges.cells import delta_text, delta_where
from judges.pairing import shared_items
from scoring.score_run import score_run
from tests.scoring_helpers import add_items, cli, make_run

ITEMS = [{"id": f"demo/{i}", "answer_type": "multiple_choice", "answer": "A", "domain": "d",
          "subtask": "s"} for i in range(3)]


def test_one_item_is_said_in_the_singular(store):
    add_items(store, ITEMS)
    make_run(store, "one", {"demo/0": "Answer: A"}, model="ma", asked=1)
    make_run(store, "all", {i["id"]: "Answer: A" for i in ITEMS}, model="mb")
    for run in ("one", "all"):
        score_run(store, run)
    code, out, err = cli("report", "--db", store.path, "--run", "one")
    assert code == 0, err
    code, both, err = cli("compare", "--db", store.path, "one", "all")
    assert code == 0, err
    code, table, err = cli("table", "--db", store.path, "--kind", "main", "--runs", "one,all")
    assert code == 0, err
    text = out + both + table
    assert "1 items" not in text
    assert "on the 1 item both scored" in both
    assert "was made on only 1 item" in table
    row = {"c": 2.0, "c_delta": 1.0, "c_n": 1, "_baseline_n": 3, "c_delta_n": 1,
           "c_delta_base": 50.0}
    assert delta_text(row, "c") + delta_where(row, "c") == \
        "+1.00 vs 50.00 without clue, on these 1 item"
    assert "1 items" not in delta_where({**row, "c_n": 2}, "c")
    shared = shared_items({"a": {"x"}, "b": {"x"}}, "runs", {"a": 1, "b": 1})
    assert "1 items" not in shared.note() + shared.caption()
