"""Where a group table puts each group's n: one rule for the whole table. When every group's
cells have one n, it is in the column titles; when runs have different numbers of unscored
items in some group, every group cell says its own n (not just that group's) and no title
does; the notes say which. Real SQLite, real offline scoring, the Results handler and the
real CLI."""
import pytest

from judges.tables import N_IN_CELLS, N_IN_TITLES
from scoring.score_run import score_run
from store import Store
from tests.scoring_helpers import add_items, cli, make_run
from ui import results_handlers as h
from tests.scoring_helpers import page_text

CHOICE = [{"id": f"demo/mc{i}", "answer_type": "multiple_choice", "answer": "A",
           "domain": "Shop", "subtask": "s"} for i in range(2)]
OPEN = [{"id": "demo/open", "answer_type": "open", "answer": "a red kite",
         "domain": "Street", "subtask": "s"},
        {"id": "demo/yes", "answer_type": "yes_no", "answer": "Yes", "domain": "Street",
         "subtask": "s"}]


@pytest.fixture
def store(tmp_path):
    """exact and loose answer the same 4 items; the open one (Street) exact matches the
    gold, loose says "kite", which the offline judge cannot decide (unscored): Street has
    n 2 in exact and n 1 in loose; Shop n 2 in both. same: as exact."""
    store = Store.open(tmp_path / "t.db")
    add_items(store, CHOICE + OPEN)
    answers = {"demo/mc0": "Answer: A", "demo/mc1": "Answer: B", "demo/yes": "Yes."}
    make_run(store, "exact", {**answers, "demo/open": "Answer: a red kite"}, model="exact")
    make_run(store, "loose", {**answers, "demo/open": "Answer: kite"}, model="loose")
    make_run(store, "same", {**answers, "demo/open": "Answer: a red kite"}, model="same")
    for run in ("exact", "loose", "same"):
        score_run(store, run)
    yield store
    store.close()


def test_different_unscored_counts_put_every_group_n_in_its_cell(store):
    shown = h.show_results(store, ["exact", "loose"])
    frame = shown["table"]
    assert list(frame.columns[3:5]) == ["Shop", "Street"]          # no n in any title
    cells = dict(zip(frame["Model"], zip(frame["Shop"], frame["Street"])))
    assert cells == {"exact · CoT": ("50.00 [9.45, 90.55] (n 2)", "100.00 [34.24, 100.00] (n 2)"),
                     "loose · CoT": ("50.00 [9.45, 90.55] (n 2)", "100.00 [20.65, 100.00] (n 1)")}
    assert N_IN_CELLS in page_text(shown["rules"]) and N_IN_TITLES not in page_text(shown["rules"])
    code, out, _ = cli("table", "--db", store.path, "--runs", "exact,loose")
    assert code == 0 and "| Shop | Street |" in out and "(n 1)" in out and N_IN_CELLS in out


def test_equal_counts_put_each_group_n_in_its_title_only(store):
    shown = h.show_results(store, ["exact", "same"])
    frame = shown["table"]
    assert list(frame.columns[3:5]) == ["Shop (n\u00a02)", "Street (n\u00a02)"]  # NBSP
    assert not any("(n " in cell for column in frame.columns[3:5] for cell in frame[column])
    assert N_IN_TITLES in page_text(shown["rules"]) and N_IN_CELLS not in page_text(shown["rules"])
    code, out, _ = cli("leaderboard", "--db", store.path, "--runs", "exact,same")
    assert code == 0 and "| Shop (n 2) | Street (n 2) |" in out and N_IN_TITLES in out


def test_a_group_with_no_scored_item_says_n_0(tmp_path):
    """Sky's one item is an open answer the offline judge cannot decide in either run: its
    column is all "–", and its title still says its n, (n 0), as the others do."""
    store = Store.open(tmp_path / "t.db")
    add_items(store, CHOICE + [{"id": "demo/sky", "answer_type": "open",
                                "answer": "a blue balloon", "domain": "Sky", "subtask": "s"}])
    for run in ("one", "two"):
        make_run(store, run, {"demo/mc0": "Answer: A", "demo/mc1": "Answer: B",
                              "demo/sky": "Answer: balloon"}, model=run)
        score_run(store, run)
    frame = h.show_results(store, ["one", "two"])["table"]
    assert "Sky (n\u00a00)" in list(frame.columns) and "Shop (n\u00a02)" in list(frame.columns)
    assert set(frame["Sky (n\u00a00)"]) == {"–"}
    code, out, _ = cli("table", "--db", store.path, "--runs", "one,two")
    assert code == 0 and "| Shop (n 2) | Sky (n 0) |" in out
    store.close()


def test_a_run_with_nothing_scored_in_a_group_puts_every_n_in_the_cells(tmp_path):
    """Sky's one item, an open answer: run one's matches the gold, run two's ("balloon")
    the offline judge cannot decide (unscored): two's Sky cell is "–" on n 0. The title
    said "Sky (n 1)" and the notes that every row has that n; now each cell says its own
    n, "–" (n 0) too, and the notes say the rows' n differ."""
    store = Store.open(tmp_path / "t.db")
    add_items(store, CHOICE + [{"id": "demo/sky", "answer_type": "open",
                                "answer": "a blue balloon", "domain": "Sky", "subtask": "s"}])
    for run, sky in (("one", "Answer: a blue balloon"), ("two", "Answer: balloon")):
        make_run(store, run, {"demo/mc0": "Answer: A", "demo/mc1": "Answer: B",
                              "demo/sky": sky}, model=run)
        score_run(store, run)
    shown = h.show_results(store, ["one", "two"])
    frame = shown["table"]
    assert "Sky" in list(frame.columns)
    cells = dict(zip(frame["Model"], frame["Sky"]))
    assert cells["one · CoT"].endswith("(n 1)") and cells["two · CoT"] == "– (n 0)"
    assert N_IN_CELLS in page_text(shown["rules"]) and N_IN_TITLES not in page_text(shown["rules"])
    code, out, _ = cli("table", "--db", store.path, "--runs", "one,two", "--by", "domain")
    assert code == 0 and "| Sky |" in out and "– (n 0)" in out and N_IN_TITLES not in out
    store.close()
