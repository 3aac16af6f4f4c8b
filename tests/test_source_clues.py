"""A run that injects another run's clues (clues=run:ID) is not asked an item the source run
has no clue for (its reply there failed, or listed none). Those rows were counted as this
run's errors (in the progress counters, and as wrong answers in every accuracy) and the
injection table did not say so. Now they are counted apart ("no source clue"), the counters
still add up to the total, the verdicts are unscored, and the injection table marks the cell
and says why."""
import pytest

from runner.config import Execution, RunConfig
from runner.engine import execute
from runner.planning import create_run, plan_run
from runner.totals import status_counts, counts_text
from scoring.results import run_summary
from scoring.score_run import score_run
from scoring.tables import injection_table, main_table
from tests.openai_server import start_server

CLUED = '{"answer": "A", "clues": [{"clue": "snow on the roof", "reasoning": "winter"}]}'


@pytest.fixture(scope="module")
def server():
    with start_server() as handle:
        yield handle


def launch(store, ids, **config):
    plan = plan_run(store, RunConfig(endpoint="fake", ids=ids, **config),
                    Execution(retry_base_delay=0.05, batch_interval=0.1))
    return execute(store, create_run(store, plan), items=plan.items)


def endpoint_and_items(store, server, make_item, prefix: str, count: int) -> list[str]:
    """The fake server as endpoint "fake", and `count` items demo/<prefix>_<i>: their ids."""
    store.add_endpoint("fake", server.url, "fake-vlm", concurrency=4)
    ids = []
    for i in range(count):
        item = make_item(f"demo/{prefix}_{i}")
        store.create_item(item, "t")
        ids.append(item["id"])
    return ids


def test_items_without_a_source_clue_are_no_errors_of_the_injecting_run(store, server,
                                                                         make_item):
    ids = endpoint_and_items(store, server, make_item, "Q", 4)
    # the source lists clues for two items only; the other two replies list none
    server.configure(reset=True, replies={"demo/Q_0": CLUED, "demo/Q_1": CLUED},
                     default_reply="Answer: B")
    source = launch(store, ids, setting="structured")
    server.configure(replies={"1. snow on the roof": "Answer: A"}, default_reply="Answer: B")
    nocue = launch(store, ids, setting="cot")
    outcome = launch(store, ids, setting="cot", clues=f"run:{source.run_id}")
    run = store.get_run(outcome.run_id)
    counts = status_counts(run["totals"], store.run_work_counts(outcome.run_id), run["status"])
    assert counts["error"] == 0 and counts["no_source_clue"] == 2 and counts["ok"] == 2
    assert counts["total"] == 4 == sum(counts[k] for k in ("ok", "error", "no_source_clue",
                                                          "refused", "truncated", "unparsed",
                                                          "pending", "not_run"))
    assert "no source clue 2" in counts_text(counts)
    # the counters read back from the store (a resume starts from them) say the same
    found = store.run_aggregates(outcome.run_id)["by_status"]
    assert (found["ok"], found.get("error", 0), found["no_source_clue"]) == (2, 0, 2)
    for rid in (source.run_id, nocue.run_id, outcome.run_id):
        score_run(store, rid, protocol="general")
    overall = run_summary(store, outcome.run_id)["summary"]["overall"]
    assert (overall.n, overall.correct, overall.error, overall.unscored) == (2, 2, 0, 2)
    assert main_table(store, [outcome.run_id]).rows[0]["overall"] == 100.0
    table = injection_table(store, [nocue.run_id, outcome.run_id])
    cells = table.rows[0]
    column = next(k for k in cells if k.endswith("_no_source_clue") and cells[k])
    assert cells[column] == 2 and cells["_flags"][column[:-len("_no_source_clue")]] == "‡"
    assert "‡ No source clue" in table.notes and "2 items its source run" in table.notes
    assert "not counted as errors of the run" in table.to_markdown()
    assert f"{column}" in table.to_csv().splitlines()[0]


def test_the_preview_of_an_item_without_a_source_clue_says_one_thing(store, server, make_item):
    """The preview said the items "are not asked, counted apart from the errors as 'no source
    clue'" and, a line below, "this item would be recorded as an error": the run counts them
    "no source clue 2, error 0"."""
    from ui.experiments_handlers import RUN_FIELDS
    from ui.experiments_preview import preview

    ids = endpoint_and_items(store, server, make_item, "P", 2)
    server.configure(reset=True, replies={"demo/P_0": CLUED}, default_reply="Answer: B")
    source = launch(store, ids, setting="structured")
    form = dict.fromkeys(RUN_FIELDS)
    form.update(endpoint="fake", setting="cot", clues="run", clue_run=source.run_id,
                image_mode="full", samples=1, repeats=1, dataset="(all)", flagged="all",
                image_quality=90, preset="none", ids=", ".join(ids))
    summary = preview(store, form, "demo/P_1")["summary"]
    assert "no clues for 1 of these 2 items&#58; they are not asked" in summary
    assert "recorded as an error" not in summary
    assert "this item is not asked: counted as \"no source clue\", not as an error" in summary
    assert "this item" not in preview(store, form, "demo/P_0")["summary"]      # it is sent
