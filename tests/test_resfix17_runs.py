"""resfix17: runs with the real fake server. A clue-injection run whose every item had no
source clue ended "failed" though nothing failed: now it ends "done", saying how many rows
were skipped and why."""
import pytest

from runner.config import Execution, RunConfig
from runner.engine import execute
from runner.planning import create_run, plan_run
from tests.openai_server import start_server


@pytest.fixture(scope="module")
def server():
    with start_server() as handle:
        yield handle


def launch(store, ids, **config):
    plan = plan_run(store, RunConfig(endpoint="fake", ids=ids, **config),
                    Execution(retry_base_delay=0.05, batch_interval=0.1))
    return execute(store, create_run(store, plan), items=plan.items)


def items(store, make_item, prefix: str, count: int) -> list[str]:
    ids = []
    for i in range(count):
        item = make_item(f"demo/{prefix}_{i}")
        store.create_item(item, "t")
        ids.append(item["id"])
    return ids


def test_an_injection_run_with_no_source_clue_at_all_ends_done(store, server, make_item):
    store.add_endpoint("fake", server.url, "fake-vlm", concurrency=4)
    ids = items(store, make_item, "N", 3)
    server.configure(reset=True, replies={}, default_reply="Answer: B")   # lists no clue
    source = launch(store, ids, setting="structured")
    outcome = launch(store, ids, setting="cot", clues=f"run:{source.run_id}")
    run = store.get_run(outcome.run_id)
    assert run["status"] == "done", run.get("message")
    assert "all 3 answer rows skipped, none failed" in run["message"]
    assert "no clue" in run["message"]
