"""A clue-injection cell whose run took only some of its replies from the cache (repeats 0
and 1 of 3 from run a-clues): `table --kind injection --format csv/json` and the Results
page's Export said `No Clue_from_cache = False`, the field being true only when every reply
was cached, though `report`'s cache line says 28 of 42 came from another run. Now the field
counts the cached replies (0 when none), and the notes give the run's cache line. Real
SQLite, real scoring, the CLI and the page's export."""
from __future__ import annotations

import csv
import io

from scoring import tables
from scoring.score_run import score_run
from tests.scoring_helpers import add_items, cli, make_run
from tests.test_injection_table_marks import ITEMS
from ui import results_handlers as h



def runs(store) -> list[str]:
    add_items(store, ITEMS)
    ids = [i["id"] for i in ITEMS]
    make_run(store, "a-clues", {i: ["Answer: A"] * 3 for i in ids}, repeats=3)
    make_run(store, "none1", {i: ["Answer: A", "Answer: A", "Answer: B"] for i in ids},
             repeats=3, cached_from={0: "a-clues", 1: "a-clues"})
    make_run(store, "gt1", {i: ["Answer: A"] * 3 for i in ids}, repeats=3, clues="gt")
    store.finish_run("none1", "test", "done", "", {"cached": 8, "cached_from": {"a-clues": 8}})
    chosen = ["none1", "gt1"]
    for run in chosen:
        score_run(store, run)
    return chosen


def test_a_partly_cached_cell_counts_its_cached_replies(store):
    chosen = runs(store)
    table = tables.injection_table(store, chosen)
    row = table.rows[0]
    assert row["No Clue_from_cache"] == 8 and row["GT_from_cache"] == 0
    assert "from the cache)" not in row["solver"]     # not all of its replies
    assert "repeat 0: 4 of 4 from" in table.notes and "repeat 2: none" in table.notes
    code, out, err = cli("table", "--kind", "injection", "--db", store.path, "--runs",
                         ",".join(chosen), "--format", "csv")
    assert code == 0, err
    found = next(csv.DictReader(io.StringIO(out)))
    assert found["No Clue_from_cache"] == "8" and found["GT_from_cache"] == "0"
    code, out, err = cli("table", "--kind", "injection", "--db", store.path, "--runs",
                         ",".join(chosen), "--format", "json")
    assert code == 0, err
    assert '"No Clue_from_cache": 8' in out
    path = h.export_table(store, chosen, "general", "injection", "csv")
    with open(path, newline="") as f:
        assert next(csv.DictReader(f))["No Clue_from_cache"] == "8"
