"""Experiments handlers when the endpoint is gone: a run the cache answers entirely starts
and resumes from it, saying so; one it does not is refused with the count of cached requests.
A real fake OpenAI server process is stopped, so the checks meet real HTTP to a dead port."""
import pytest

from runner.coverage import FROM_CACHE
from tests.openai_server import start_server
from tests.test_experiments_handlers import (_created_run, fake, form, wait_final,  # noqa: F401
                                             xstore)
from ui import experiments_endpoints as xe
from ui import experiments_handlers as xh
from ui import experiments_steering as xs


def test_a_dead_endpoint_starts_and_resumes_from_the_cache_it_answers_entirely(xstore):
    with start_server() as mortal:
        xe.save_endpoint(xstore, "mortal", mortal.url, "fake-vlm", "", 1, None)
        first = xh.start_run(xstore, form(endpoint="mortal", ids="ui/alpha"), "local")
        assert first["warning"] is None and wait_final(xstore, first["run_id"])["status"] == "done"
    # the server is stopped: the start's check meets real HTTP to a dead port
    again = xh.start_run(xstore, form(endpoint="mortal", ids="ui/alpha"), "local")
    assert again["warning"].startswith(FROM_CACHE) and "cannot connect" in again["warning"]
    assert wait_final(xstore, again["run_id"])["status"] == "done"
    assert xstore.get_run(again["run_id"])["totals"]["cached"] == 1
    total = len(xstore.item_ids())
    with pytest.raises(xh.ExperimentError, match=f"not started: .*cannot connect.*; 1 of "
                                                 f"{total} requests are cached"):
        xh.start_run(xstore, form(endpoint="mortal"), "local")
    stuck = _created_run(xstore, endpoint="mortal", ids="ui/alpha")
    assert FROM_CACHE in xs.resume(xstore, stuck)
    assert wait_final(xstore, stuck)["status"] == "done"
    stuck = _created_run(xstore, endpoint="mortal")
    with pytest.raises(xh.ExperimentError, match=f"not resumed: .*; 1 of {total} requests"):
        xs.resume(xstore, stuck)
