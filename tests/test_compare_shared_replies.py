"""`compare A B` said nothing when run B was partly run A's own cached replies (B's repeat 0
is A's 14 replies): an item read "lost (right in A, wrong in B)" although B's repeat 0 is
A's right reply, and McNemar took dependent draws for independent ones; `compare --json`,
`table` and `leaderboard` said nothing of the cache either. Now they print the cache line
as `report` does, and `compare` warns how many replies the runs share. Real SQLite, real
scoring, the CLI."""
import json

from scoring.score_run import score_run
from tests.scoring_helpers import add_items, cli, make_run

ITEMS = [{"id": f"demo/{i}", "answer_type": "multiple_choice", "answer": "A", "domain": "d",
          "subtask": "s"} for i in range(4)]
LINE = ("replies from the cache (another run's draws, not new ones): repeat 0: 4 of 4 "
        "from m · CoT; repeat 1: none")        # the source as the tables label it (compare said
                                             # "from run a": resfix17)


def runs(store) -> None:
    add_items(store, ITEMS)
    ids = [i["id"] for i in ITEMS]
    make_run(store, "a", {i: "Answer: A" for i in ids})
    make_run(store, "b", {i: ["Answer: A", "Answer: B"] for i in ids}, repeats=2,
             cached_from={0: "a"})
    store.finish_run("a", "test", "done", "", {})
    store.finish_run("b", "test", "done", "", {"cached": 4, "cached_from": {"a": 4}})
    for run in ("a", "b"):
        score_run(store, run)


def test_compare_says_the_runs_share_replies(store):
    runs(store)
    code, out, err = cli("compare", "--db", store.path, "a", "b")
    assert code == 0, err
    assert f"B m · CoT · 2 repeats: {LINE}" in out
    assert "McNemar's test assumes the runs' replies are independent draws, and these " \
           "share 4: 4 replies of one run are the other's own" in out
    code, out, _ = cli("compare", "--db", store.path, "a", "b", "--json")
    found = json.loads(out)
    assert found["shared_replies"] == 4 and found["cache_b"] == LINE and found["cache_a"] == ""
    assert "share 4" in found["independence"]


def test_table_and_leaderboard_print_the_cache_line(store):
    runs(store)
    said = LINE                                        # the source as the table labels it
    for command in (["table", "--kind", "main"], ["leaderboard"]):
        code, out, err = cli(*command, "--db", store.path, "--runs", "a,b")
        assert code == 0, err
        assert out.count(f"m · CoT · 2 repeats: {said}") == 1, out    # in the notes, once
    code, out, err = cli("table", "--db", store.path, "--runs", "a,b", "--format", "csv")
    assert said in err and said not in out       # a CSV's stdout is the table alone
