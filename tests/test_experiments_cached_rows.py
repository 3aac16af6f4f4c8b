"""The Experiments page's response list (Show responses) read "ok … answer: A" for a row
whose reply was another run's, taken from the cache, though the README says the list shows
"cached" and the run it came from. Now such a row's status says "cached" and its reason
names the source run by its table label. Real SQLite, the page's handler."""
from tests.scoring_helpers import add_items, make_run
from ui import experiments_runs as xr

ITEMS = [{"id": f"d/{i}", "answer_type": "multiple_choice", "answer": "A", "domain": "d",
          "subtask": "s"} for i in range(2)]


def test_a_cached_row_says_so_and_names_its_source_run(store):
    add_items(store, ITEMS)
    ids = [i["id"] for i in ITEMS]
    make_run(store, "a-clues", {i: "Answer: A" for i in ids}, model="mx")
    make_run(store, "b", {i: ["Answer: A", "Answer: B"] for i in ids}, repeats=2,
             cached_from={0: "a-clues"})
    rows = xr.responses(store, "b")
    cached = [row for row in rows if row[2].startswith("r0")]
    fresh = [row for row in rows if row[2].startswith("r1")]
    assert cached and all(row[3] == "ok, cached" for row in cached)
    assert all(row[5].startswith("from the cache, made by mx · CoT; answer: ")
               for row in cached), cached
    assert fresh and all(row[3] == "ok" and "cache" not in row[5] for row in fresh)
