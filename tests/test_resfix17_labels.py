"""resfix17: runs named by their table label (the Results page's) wherever a page or command
names them: Inspect's header, the cache source of a run's replies. Real SQLite."""
from tests.scoring_helpers import add_items, make_run


def _items(store, n=2):
    add_items(store, [{"id": f"u/{i}", "answer_type": "multiple_choice", "answer": "A",
                       "domain": "d", "subtask": "s"} for i in range(n)])
    return {f"u/{i}": "Answer: A" for i in range(n)}


def test_inspect_header_names_the_run_by_its_table_label(store):
    from ui import inspect_handlers as ih
    from ui.inspect_view import response_view

    make_run(store, "20261207-070000-ab12", _items(store), model="vlm-b")
    [row, _] = store.run_results("20261207-070000-ab12")
    header = ih.header_md(response_view(store, row["work_id"])).replace("\\", "")
    assert "· run vlm-b · CoT · item" in header, header
