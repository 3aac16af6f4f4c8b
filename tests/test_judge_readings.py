"""A structured reply with "clues": [] said it has no clue: the judge was asked to extract
clues from its text anyway (the empty list read as a missing field). Now the empty list is
the model's answer: no extraction request, rigorous wrong, "its clue list is empty"."""
from domain.extract.structured import states_clue_list
from scoring.score_run import score_run
from tests.scoring_helpers import add_items, make_run
from tests.test_scoring import ITEMS, JUDGE, chats, server  # noqa: F401 (fixture)


def test_an_explicit_empty_clue_list_is_not_extracted_by_the_judge(store, server):  # noqa: F811
    add_items(store, ITEMS)
    make_run(store, "r1", {"t/5": '{"answer": "the French capital", "clues": []}'})
    store.add_endpoint("j", server.url, "gpt-4o-mini")
    server.configure(replies=JUDGE)
    before = len(chats(server))
    score_run(store, "r1", protocol="rigorous", judges=["j"], use_cache=False)
    sent = chats(server)[before:]
    # the log holds no prompt text: counted, the open answer's general verdict is the one
    # request (no clue extraction, no clue matching: its clue list is empty)
    assert len(sent) == 1, sent
    [row] = [r for r in store.run_scores("r1", "rigorous", "llm:j", full=True)]
    assert row["value"] == "wrong" and "clue list is empty" in row["rationale"]


def test_states_clue_list():
    assert states_clue_list('{"answer": "A", "clues": []}')
    assert not states_clue_list('{"answer": "A"}') and not states_clue_list("Answer: A")


def test_agreement_when_rules_decided_every_item_says_so(store, server):  # noqa: F811
    """'agreement offline vs llm:j: – of 0 responses both judges scored' when no judge was
    asked (every answer a multiple choice the rules decide): now said plainly."""
    from tests.test_scoring import cli
    from ui.results_handlers import agreement_lines

    add_items(store, ITEMS[:2])
    make_run(store, "mc", {"t/1": "Answer: A", "t/2": "Answer: C"})
    store.add_endpoint("j", server.url, "gpt-4o-mini")
    score_run(store, "mc", protocol="general", judges=["j"])
    code, out, _ = cli("report", "--db", store.path, "--run", "mc")
    assert code == 0 and "of 0" not in out
    assert "agreement not applicable: rules decided all 2 responses" in out
    assert "rules decided all responses" in agreement_lines(store, ["mc"], "general")
    make_run(store, "mc2", {"t/1": "Answer: B", "t/2": "Answer: C"}, model="m2")
    score_run(store, "mc2", protocol="general", judges=["j"])
    lines = agreement_lines(store, ["mc", "mc2"], "general")
    # one line for the runs whose agreement is moot, not one per run and pair
    assert lines.count("not applicable") + lines.count("Not applicable") == 1, lines
    assert lines.count("rules decided all responses") == 1     # the reason said once
    assert "(2 responses); " in lines and lines.rstrip().endswith("(2 responses)")


def test_agreement_says_how_many_of_how_many(store, server):  # noqa: F811
    """'agree on 100.0% of 1 responses': a percentage of one response, and a plural. The
    line says the count first, then the percentage."""
    from ui.results_handlers import agreement_lines

    add_items(store, ITEMS)
    make_run(store, "open1", {"t/5": "Clue 1: the Eiffel Tower\nAnswer: the French capital"})
    store.add_endpoint("j", server.url, "gpt-4o-mini")
    store.add_endpoint("k", server.url.replace("127.0.0.1", "localhost"), "gpt-4o-mini")
    server.configure(replies=JUDGE)
    score_run(store, "open1", protocol="general", judges=["j", "k"], use_cache=False)
    lines = agreement_lines(store, ["open1"], "general")
    assert "agree on" in lines and " of 1 response both judges scored (" in lines, lines
    assert "% of 1" not in lines
    # the offline matcher left the open answer unscored and the judges graded it: no
    # agreement with it, but not because "no judge was asked"
    assert "no judge was asked" not in lines
    assert "vs offline: not applicable, no response was judged by both judges" in \
        lines.replace("&#58;", ":")


def test_a_rigorous_verdict_made_without_asking_is_no_judgement_of_the_judge(store, server):  # noqa: F811
    """A reply that is its answer alone is rigorous-wrong without a request to the judge;
    the verdict said it was the LLM judge's, and agreement counted it: a judge whose every
    reply was unreadable "agreed on 3 of 3 (100.0%)". It is a rule's now."""
    from scoring.judge_agreement import agreement
    from ui.results_handlers import agreement_lines

    add_items(store, ITEMS)
    make_run(store, "bare", {"t/5": "Answer: the French capital"})
    store.add_endpoint("j", server.url, "gpt-4o-mini")
    server.configure(replies=JUDGE)
    score_run(store, "bare", protocol="rigorous", judges=["j"], use_cache=False)
    [row] = store.run_scores("bare", "rigorous", "llm:j", full=True)
    assert row["value"] == "wrong" and "its answer alone" in row["rationale"]
    assert row["decided_by"] == "rule:no_clues"
    assert all(pair["agreement"] is None for pair in agreement(store, "bare", "rigorous"))
    assert "agree on" not in agreement_lines(store, ["bare"], "rigorous")


def test_agreement_lines_are_grouped_by_run_in_the_tables_order(store, server):  # noqa: F811
    """A review: the agreement notes interleaved runs (one run's figures, another's, then
    the first's "not applicable" lines after them). Each run's lines are together now, in
    the table's order; only a reason shared by several runs is one line after them."""
    from ui.results_handlers import agreement_lines

    add_items(store, ITEMS)
    make_run(store, "mc", {"t/1": "Answer: A", "t/2": "Answer: C"}, model="m2")
    make_run(store, "open1", {"t/5": "Clue 1: the Eiffel Tower\nAnswer: the French capital"})
    store.add_endpoint("j", server.url, "gpt-4o-mini")
    store.add_endpoint("k", server.url.replace("127.0.0.1", "localhost"), "gpt-4o-mini")
    server.configure(replies=JUDGE)
    for run in ("mc", "open1"):
        score_run(store, run, protocol="general", judges=["j", "k"], use_cache=False)
    lines = [line for line in agreement_lines(store, ["mc", "open1"], "general").splitlines()
             if line.startswith("- ")]
    runs = ["open1" if "m · CoT" in line and "m2 · CoT" not in line else "mc"
            for line in lines]
    assert runs == sorted(runs, key=["open1", "mc"].index), lines     # m · CoT, then m2
    assert runs.count("open1") >= 2 and runs.count("mc") >= 1


def test_agreement_with_some_answers_decided_by_rules_says_how_many(store, server):  # noqa: F811
    """Two closed answers the rules decided and an open one only the LLM judge graded:
    "no response of the 3 was judged by both judges themselves" did not say that rules had
    decided two of them (the judge was never asked)."""
    from scoring.judge_agreement import agreement, not_applicable_why

    add_items(store, ITEMS)
    make_run(store, "mixed", {"t/1": "Answer: A", "t/2": "Answer: C",
                              "t/5": "Answer: the French capital"})
    store.add_endpoint("j", server.url, "gpt-4o-mini")
    server.configure(replies=JUDGE)
    score_run(store, "mixed", protocol="general", judges=["j"], use_cache=False)
    [pair] = agreement(store, "mixed", "general")
    assert pair["n"] == 0 and pair["rules_decided"] == 2, pair
    assert not_applicable_why(pair) == ("rules decided 2 of the 3 responses (no judge was "
                                        "asked), and no other was judged by both judges "
                                        "themselves")
