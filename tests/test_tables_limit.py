"""A run with fewer items (a cancelled one) limits the items runs are compared on: every
caption and note that gives that n names the run ("n = 2: run X covers 2 of 6 items"), in
the tables, the Results page's charts and the CLI's `table` and `leaderboard`. Real SQLite,
runs written through the store, the real CLI."""
import pytest

from scoring import tables
from scoring.score_run import score_run
from store import Store
from tests.scoring_helpers import add_items, cli, make_run
from tests.scoring_helpers import page_text

ITEMS = [{"id": f"demo/{i}", "answer_type": "yes_no", "answer": "Yes", "domain": "Street",
          "subtask": "signs"} for i in range(6)]
LIMIT = "n = 2: run m · CoT · clues gt (cancelled) covers 2 of 6 items"


def cancelled_beside_two(path, answered: int) -> Store:
    """cot and direct answer all 6 items; gt was cancelled after `answered` of them."""
    store = Store.open(path)
    add_items(store, ITEMS)
    ids = [i["id"] for i in ITEMS]
    make_run(store, "cot", {i: "Yes." for i in ids})
    make_run(store, "direct", {i: "No." for i in ids}, setting="direct")
    make_run(store, "gt", {i: "Yes." for i in ids[:answered]}, clues="gt")
    store.finish_run("gt", "test", "cancelled", "cancelled by the user", {})
    for run in ("cot", "direct", "gt"):
        score_run(store, run)
    return store


@pytest.fixture
def three_runs(tmp_path):
    """cot and direct answer all 6 items; gt was cancelled after 2 of them."""
    store = cancelled_beside_two(tmp_path / "t.db", 2)
    yield store
    store.close()


def test_main_table_caption_and_notes_name_the_run_that_limits_n(three_runs):
    table = tables.main_table(three_runs, ["cot", "direct", "gt"])
    assert table.caption == f"Accuracy (%), general protocol, {LIMIT}"
    assert f"Runs compared on the 2 items all 3 runs share; {LIMIT} (" in table.notes
    drop = tables.drop_table(three_runs, ["cot", "gt"])
    assert drop.caption.endswith("(run m · CoT · clues gt (cancelled) covers 2 of 6 items); "
                                 "no run has rigorous scores")      # general scored alone
    # runs that all cover the same items: the caption says the n alone
    assert tables.main_table(three_runs, ["cot", "direct"]).caption.endswith(", 6 items")


def test_results_page_caption_and_charts_name_the_run_that_limits_n(three_runs):
    from ui import results_handlers as h

    shown = h.show_results(three_runs, ["cot", "direct", "gt"])
    assert shown["caption"].endswith(LIMIT)
    for chart in ("group_chart", "second_chart"):     # the n said once
        assert f"on the 2 items the runs share ({LIMIT.removeprefix('n = 2: ')})" in \
            shown[chart]
    assert LIMIT in page_text(shown["rules"])


@pytest.mark.parametrize("command", [("leaderboard",), ("table", "--kind", "main"),
                                     ("table", "--kind", "ablation")])
def test_cli_table_and_leaderboard_notes_name_the_run_that_limits_n(three_runs, command):
    code, out, err = cli(*command, "--db", three_runs.path, "--runs", "cot,direct,gt")
    assert code == 0, err
    if command[-1] == "ablation":   # gt has clues: left out, cot and direct share all 6
        assert "covers" not in out and "Left out: m · CoT · clues gt (cancelled)" in out
        return
    assert LIMIT in out
    assert "(m · CoT: 6, m · CoT · clues gt (cancelled): 2, m · No-CoT: 6 items" in out


@pytest.mark.parametrize("command", [("leaderboard",), ("table", "--kind", "main")])
def test_without_runs_a_cancelled_run_on_few_items_gets_a_table_of_its_own(three_runs,
                                                                           command):
    """gt shares 2 of the 6 items: in one table it would cut every run's n to 2. Without
    --runs, cot and direct are compared on their 6 items and gt is a group of its own."""
    code, out, err = cli(*command, "--db", three_runs.path)
    assert code == 0, err
    first, second = out.split("## Dataset demo, group 2 of 2 (1 run)")
    assert "## Dataset demo, group 1 of 2 (2 runs)" in first and "share too few items" in first
    assert ", 6 items; samples rule: majority vote**" in first and LIMIT not in out
    assert "m · CoT · clues gt" not in first and "m · CoT · clues gt (cancelled)" in second
    assert ", 2 items; samples rule: majority vote**" in second


def test_without_runs_a_run_cancelled_halfway_does_not_halve_everyones_n(tmp_path):
    """gt was cancelled after 3 of the 6 items: under the rule 'a run joins a table that
    keeps at least half of its first run's items' it joined cot and direct and the
    leaderboard compared all three on 3 items. cot and direct are compared on their 6, gt
    is a table of its own; naming the runs compares them on the 3 shared, saying so."""
    store = cancelled_beside_two(tmp_path / "h.db", 3)
    code, out, err = cli("leaderboard", "--db", store.path)
    assert code == 0, err
    first, second = out.split("## Dataset demo, group 2 of 2 (1 run)")
    assert "## Dataset demo, group 1 of 2 (2 runs)" in first
    assert ", 6 items; samples rule: majority vote**" in first
    assert "no run narrows the others' n" in first and "clues gt" not in first
    assert ", 3 items; samples rule: majority vote**" in second
    assert "m · CoT · clues gt (cancelled)" in second
    code, out, err = cli("leaderboard", "--db", store.path, "--runs", "cot,direct,gt")
    assert code == 0 and "n = 3: run m · CoT · clues gt (cancelled) covers 3 of 6 items" in out
    store.close()


def test_the_drop_captions_name_the_limiting_run_once_and_say_the_n_once(three_runs):
    """The drop table compares run–protocol pairs, and said so in its caption: "on the 2
    items both protocols scored (n = 2: X (general) and X (rigorous) each cover 2 of 6
    items)", the stopped run named once a protocol and the n twice; the
    charts' "on the 2 items the runs share (n = 2: ...)" said the n twice too. An answer
    one protocol has no verdict for counts as unscored there, not as an item left out."""
    from ui import results_handlers as h

    run = "run m · CoT · clues gt (cancelled) covers 2 of 6 items"
    drop = tables.drop_table(three_runs, ["cot", "direct", "gt"])
    # only the general protocol scored: the caption says so ("both protocols scored" claimed
    # items the rigorous protocol never scored: a review, round 26)
    assert drop.caption == ("General vs rigorous accuracy (%), on the 2 items the general "
                            f"protocol scored ({run}); no run has rigorous scores")
    assert drop.notes.startswith(f"Runs compared on the 2 items all 3 runs share; n = 2: {run}")
    shown = h.show_results(three_runs, ["cot", "direct", "gt"])
    assert (f"on the 2 items the general protocol scored ({run}); no run has rigorous "
            "scores</figcaption>") in shown["drop_chart"]
    for chart in ("group_chart", "second_chart", "drop_chart"):
        caption = shown[chart].split("</figcaption>")[0]
        assert caption.count("m · CoT · clues gt") == 1 and caption.count("n = ") == 0, caption

    # the rigorous verdict of one item of cot gone: cot's protocols differ in their items
    from scoring.results import forget_summaries

    for run in ("cot", "gt"):
        score_run(three_runs, run, protocol="rigorous")
    three_runs.db.conn.execute(
        "DELETE FROM scores WHERE run_id = 'cot' AND protocol = 'rigorous' AND work_id = "
        "(SELECT min(work_id) FROM scores WHERE run_id = 'cot')")
    three_runs.db.conn.commit()
    forget_summaries()
    drop = tables.drop_table(three_runs, ["cot", "gt"])
    # the answer without a rigorous verdict counts its item unscored under rigorous (as the
    # tables count an answer scored after it came), not left out of the comparison: it
    # narrowed it to "the 1 item all 4 run–protocol pairs share"
    assert "run–protocol pairs" not in drop.notes, drop.notes
    assert "Runs compared on the 2 items both share" in drop.notes, drop.notes
    assert {r["run_id"]: r["unscored_rigorous"] for r in drop.rows} == {"cot": 2, "gt": 2}


def test_a_cancelled_run_beside_a_small_whole_run_is_said_honestly(tmp_path):
    """small: done, made on 2 items; big: cancelled after 11 of its 14. Without --runs big
    joins small's table (it has both of small's items) and the table is on those 2 items;
    it said "n = 2: run small covers 2 of its 2 items", nothing of big's 11 of 14, as if the
    cancelled run were whole and small had stopped. Now small is said to be made on 2 items
    and big to have 11 of its 14, in the notes (the caption names what limits n alone)."""
    from tests.scoring_helpers import NOT_RUN

    store = Store.open(tmp_path / "s.db")
    add_items(store, [{**ITEMS[0], "id": f"demo/{i}"} for i in range(14)])
    ids = [f"demo/{i}" for i in range(14)]
    make_run(store, "small", {i: "Yes." for i in ids[:2]}, asked=2)
    make_run(store, "big", {i: "Yes." if k < 11 else NOT_RUN for k, i in enumerate(ids)},
             model="b", asked=14)
    store.finish_run("small", "test", "done", "", {})
    store.finish_run("big", "test", "cancelled", "cancelled by the user", {})
    for run in ("small", "big"):
        score_run(store, run)
    code, out, err = cli("leaderboard", "--db", store.path)
    assert code == 0, err
    # the caption names what limits n alone (round 29: "; run b … has 11 of its 14 items"
    # named a run that limits nothing, in a second wording); the notes say big's 11 of 14
    said = "n = 2: run m · CoT was made on only 2 items"
    assert f"**Leaderboard: general accuracy (%), {said}; samples rule: majority vote**" in out
    assert f"{said} (b · CoT (cancelled): 11 of its 14, m · CoT: 2 items; the rest left out)" \
        in out
    assert "covers 2 of its 2" not in out
    assert "| b · CoT (cancelled) | 100.00 | 2 |" in out and "| m · CoT | 100.00 | 2 |" in out
    store.close()
