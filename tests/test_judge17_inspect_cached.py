"""Inspect's response list showed a reply taken from the cache as status "ok", while
Experiments' list said "ok, cached" and named the run it came from by its table label. One
function (`ui.run_choices.cached_state`) says it for both. Real SQLite, the pages' handlers."""
from tests.scoring_helpers import add_items, make_run
from ui import experiments_runs as xr
from ui import inspect_browser as ib

ITEMS = [{"id": f"d/{i}", "answer_type": "multiple_choice", "answer": "A", "domain": "d",
          "subtask": "s"} for i in range(2)]


def test_inspect_says_cached_and_the_source_run_as_experiments_does(store):
    add_items(store, ITEMS)
    ids = [i["id"] for i in ITEMS]
    make_run(store, "a-clues", {i: "Answer: A" for i in ids}, model="mx")
    make_run(store, "b", {i: ["Answer: A", "Answer: B"] for i in ids}, repeats=2,
             cached_from={0: "a-clues"})
    listed = ib.browse(store, ib.run_filters("b", "offline"), "run order", 1)["rows"]
    status = {(row[2], row[3]): row[ib.HEADERS.index("status")] for row in listed}
    experiments = {(row[1], row[2]): row[3] for row in xr.responses(store, "b")}
    for item in ids:
        cached, fresh = status[(item, "r0 s0")], status[(item, "r1 s0")]
        assert cached.startswith(experiments[(item, "r0 s0")] + " · ") and \
            cached.startswith("ok, cached"), cached
        assert "from the cache, made by mx · CoT" in cached
        assert fresh == experiments[(item, "r1 s0")] == "ok"
