"""resfix17: runs named by their table label (the Results page's) wherever a page or command
names them (Inspect's header), the cache line said once on the Results page, and Inspect's
clue colours saying when they fell back to the offline matcher. Real SQLite."""
from tests.inspect_helpers import built, env  # noqa: F401 (fixtures)
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


def test_the_results_page_says_the_cache_line_once(store):
    """"N of M replies from X's cache" was on the Results page twice: in the table's notes
    and again in the Shown line of the run."""
    import html

    from ui import results_handlers as h

    replies = _items(store, 3)
    make_run(store, "old", replies)
    make_run(store, "new", {k: [v, v] for k, v in replies.items()}, repeats=2,
             cached_from={0: "old"})
    store.finish_run("new", "test", "done", "", {"cached": 3, "cached_from": {"old": 3}})
    h.score_runs(store, ["old", "new"], [], "general")
    rules = html.unescape(h.show_results(store, ["old", "new"])["rules"])
    assert rules.count("3 of 3 from m · CoT") == 1, rules


def test_inspect_says_the_colours_fell_back_to_the_matcher(env):
    """The chosen judge's rigorous verdict had no readable clue match: the colours followed
    the offline matcher and the title said "matched by matcher offline" as if chosen."""
    from ui import inspect_handlers as ih

    store, ids = env
    work = ids["a"]["ui/alpha"]
    with store.atomic():       # llm:judge's verdict unread: no clue match in it
        store.db.conn.execute(
            "UPDATE scores SET details = json_remove(details, '$.best_gt') WHERE run_id = "
            "'run-a' AND protocol = 'rigorous' AND judge = 'llm:judge' AND work_id = ?",
            [work])
    view = ih.open_view(store, work, "llm:judge")
    label = ih.model_clues_label(view)
    assert "coloured by matcher offline" in label, label
    assert "llm:judge gave no readable verdict for this reply" in label, label
    assert "no readable" not in ih.model_clues_label(ih.open_view(store, work, "offline"))


def test_judge_shown_after_a_score_is_the_judge_just_used(store):
    """"Judge shown" stayed on the common judge after the user scored with another judge:
    the page went on showing the offline verdicts beside "Scored with llm:fj"."""
    from tests.openai_server import start_server
    from ui import results_handlers as h

    make_run(store, "r1", _items(store))
    h.score_runs(store, ["r1"], [], "general")                   # the offline judge
    assert h.scored_judge(store, ["r1"], [], "general", h.COMMON_JUDGE) == "offline"
    with start_server(default_reply='{"verdict": "correct", "reason": "same"}') as server:
        store.add_endpoint("fj", server.url, "fake-vlm", concurrency=2)
        h.score_runs(store, ["r1"], ["fj"], "general")
    assert "llm:fj" in h.shown_judge_choices(store, ["r1"], "general")
    assert h.scored_judge(store, ["r1"], ["fj"], "general", h.COMMON_JUDGE) == "llm:fj"
    # a judge that did not score under the protocol shown: the choice is kept
    assert h.scored_judge(store, ["r1"], ["fj"], "rigorous", h.COMMON_JUDGE) == h.COMMON_JUDGE


def test_two_runs_of_one_solver_and_source_are_not_merged_in_the_injection_table(store):
    """Two named runs of 'vlm-b · CoT' with No Clue were one row 'vlm-b · CoT', one of them
    nowhere in it: the other now has a row of its own, labelled as the main table labels it."""
    from scoring import tables
    from scoring.score_run import score_run
    from tests.scoring_helpers import cli

    replies = _items(store, 4)
    make_run(store, "r1", replies, model="vlm-b")
    make_run(store, "r2", {k: "Answer: B" for k in replies}, model="vlm-b")
    make_run(store, "r3", replies, model="vlm-b", clues="gt")
    for rid, name in (("r1", "b-first"), ("r2", "b-second"), ("r3", "b-gt")):
        store.label_run(rid, name=name)
        score_run(store, rid)
    table = tables.injection_table(store, ["r1", "r2", "r3"])
    solvers = [row["solver"] for row in table.rows]
    assert len(solvers) == len(set(solvers)) == 2, solvers
    shown = {row["No Clue_run_id"] for row in table.rows}
    assert shown == {"r1", "r2"}
    assert "b-first" in solvers or "b-second" in solvers
    code, out, _ = cli("table", "--db", store.path, "--kind", "injection")
    assert code == 0 and "in a row of its own" in out
