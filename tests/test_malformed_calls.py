"""Calls no page sends, through the API: every event, called with missing, empty or wrong-kind
values, answers a refusal or its own message, and the server's log gets one line for it and
no traceback, quoting nothing of what was sent (ui/gradio_hooks.GuardedBlocks). Before,
start_run called with no values put Gradio's "didn't receive enough input values" traceback
in the log and answered `error: None`; a list where a text goes reached SQLite.

Also the API page: each documented event's parameters are named (start_run's 25 were
param_0 … param_24)."""
from __future__ import annotations

import pytest

from tests.live_server import start_ui_server
from tests.queue_caller import QueueCaller, error_text
from ui import route_answers
from ui.session_owners import NO_SUCH_EVENT
from ui.experiments_handlers import RUN_FIELDS

PASSWORD = "malformed-pw-1"
MARK = "zq-marker-<b>"
KINDS = {
    "no values": lambda dep: [],
    "one value": lambda dep: [MARK],
    "nothing": lambda dep: [None] * len(dep["inputs"]),
    "lists": lambda dep: [[1, MARK]] * len(dep["inputs"]),
    "objects": lambda dep: [{MARK: 1}] * len(dep["inputs"]),
    "numbers": lambda dep: [987654321] * len(dep["inputs"]),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    # the sweep calls every event in a session of its own, with no heartbeat, as a script
    # may: each is released as soon as the account meets its cap (ui/session_caps.py)
    srv = start_ui_server(tmp_path_factory.mktemp("malformed"), {"ada": "admin"}, PASSWORD,
                          env={"CLUELAB_SESSION_IDLE_S": "0"})
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def ada(server):
    return QueueCaller(server.url, ("ada", PASSWORD))


@pytest.mark.parametrize("kind", list(KINDS))
def test_malformed_calls_are_answered_without_a_traceback(server, ada, kind):
    config = ada.config()
    before = server.log.read_text()
    answers = ada.answers(config, data=KINDS[kind], timeout=120)
    assert len(answers) == len(config["dependencies"])
    for api_name, answer in answers.items():
        assert isinstance(answer, dict), (api_name, answer)
        if answer["success"] is False:     # a refusal or the handler's message, never None
            assert error_text(answer), (api_name, answer)
            # the refusal of a malformed call quotes nothing sent; a handler's own refusal,
            # now a failure for every client (ui/handler_errors.py), may name what it was
            # asked for ("no endpoint named 'N'", "has no version N"): to a script as
            # written, to a page escaped (tests/test_messages.py)
            if "Nothing was done" in error_text(answer):
                assert "987654321" not in error_text(answer), api_name
                assert "zq-marker" not in error_text(answer), api_name
    log = server.log.read_text()[len(before):]
    assert "Traceback" not in log and MARK not in log and "987654321" not in log
    refused = [line for line in log.splitlines() if "refused a malformed call" in line]
    assert all(line.count("refused") == 1 for line in refused)
    if kind == "no values":
        start = answers["start_run"]
        assert start["success"] is False
        takes = f"start_run: it takes {len(RUN_FIELDS)} values, 0 were sent"   # 27
        assert len(RUN_FIELDS) == 27 and takes in error_text(start)
        assert f"refused a malformed call ({takes})" in log


def test_a_wrong_kind_names_the_control_not_the_value(ada):
    config = ada.config()
    values = {c["id"]: c.get("props", {}).get("value") for c in config["components"]}

    def quality_is_text(dep):
        sent = [values.get(i) for i in dep["inputs"]]
        sent[RUN_FIELDS.index("image_quality")] = MARK
        return sent
    [answer] = ada.answers(config, only={"start_run"}, data=quality_is_text).values()
    assert "start_run: Quality is not" in error_text(answer) and MARK not in error_text(answer)


def test_the_documented_events_name_their_parameters(ada):
    info = ada.get("/gradio_api/info").json()["named_endpoints"]
    assert [p["parameter_name"] for p in info["/start_run"]["parameters"]] == \
        [name.replace("status", "status_filter") for name in RUN_FIELDS]
    unnamed = {name: [p["parameter_name"] for p in e["parameters"]
                      if p["parameter_name"].startswith("param_")]
               for name, e in info.items()}
    assert {name: names for name, names in unnamed.items() if names} == {}


def test_the_gradio_internals_the_malformed_check_relies_on_are_still_there():
    """ui/gradio_hooks.GuardedBlocks overrides Blocks.preprocess_data (which reads every
    input, its errors naming the input's index) and reads BlockFunction's collects_event_data
    and fn; ui/server.name_parameters fills BlockFunction.input_parameter_names."""
    import inspect

    import gradio as gr
    from gradio import blocks
    from gradio.block_function import BlockFunction

    assert list(inspect.signature(gr.Blocks.preprocess_data).parameters)[:5] == \
        ["self", "block_fn", "inputs", "state", "explicit_call"]
    message = inspect.getsource(gr.Blocks._format_processing_error)
    assert 'f"Could not {stage} {kind} component at index {index} "' in message
    assert 'kind = "input" if is_input' in message
    assert ".preprocess_data(" in inspect.getsource(gr.Blocks.process_api)
    assert "event_data" in inspect.signature(gr.Blocks.process_api).parameters
    init = inspect.signature(BlockFunction.__init__).parameters
    assert {"collects_event_data", "input_parameter_names"} <= set(init)
    assert "block_fn.input_parameter_names[index]" in inspect.getsource(
        blocks._get_api_parameter_name)


def test_gradio_routes_that_fail_log_one_line(server, ada):
    """Gradio's own routes failed with a traceback on a session they do not hold or an
    api_name that is none (uvicorn: "Exception in ASGI application")."""
    before = server.log.read_text()
    refused = ada.http.post(f"/gradio_api/call/v2/no_such_{MARK}", json={})
    # refused before Gradio (its POST /call/v2 fails whatever it names): a 400 saying so
    assert (refused.status_code, refused.json()) == (400, route_answers.NO_SUCH_EVENT)
    ended = ada.http.get("/gradio_api/queue/data?session_hash=nope")
    assert ended.status_code == 200 and "Not Found" in ended.text
    # an event the server does not hold: not found before Gradio (ui/session_owners.py)
    unheld = ada.http.get("/gradio_api/call/load_item/nope")
    assert (unheld.status_code, unheld.json()) == (404, NO_SUCH_EVENT)
    log = server.log.read_text()[len(before):]
    assert "Traceback" not in log and "ASGI" not in log and MARK not in log
    # the read of a session it does not hold is answered without Gradio, counted in at most
    # one line a minute (ui/session_owners.not_held)
    assert log.count("request to /gradio_api/") == 0
    assert log.count("session this server does not hold") <= 1


def test_every_event_called_with_the_pages_starting_values_answers_without_a_bug(server, ada):
    """Events called as the page starts (no item open, nothing picked): each answers or
    refuses with its own message. compare_with_saved and reload_saved, called before an
    item was open, failed with a TypeError and a traceback in the log."""
    config = ada.config()
    before = server.log.read_text()
    answers = {}
    for dep in config["dependencies"]:   # each in a session of its own: nothing opened first
        answers.update(ada.answers(config, only={dep["api_name"]}, timeout=60))
    assert len(answers) == len(config["dependencies"])
    bugs = {name: error_text(a) for name, a in answers.items()
            if isinstance(a, dict) and "Something went wrong" in (error_text(a) or "")}
    assert bugs == {}
    assert "Traceback" not in server.log.read_text()[len(before):]


def test_a_call_without_its_one_value_says_none_was_sent(server):
    """gradio_client's delete_item with no reason was refused as "it takes 1 values, 1 were
    sent": the None the client puts in for a hidden State was counted as the reason."""
    from gradio_client import Client

    client = Client(server.url, auth=("ada", PASSWORD), download_files=False,
                    ssl_verify=False, verbose=False)
    with pytest.raises(Exception) as refused:
        client.predict(api_name="/delete_item")
    assert ("delete_item: it takes 1 value besides the page's state (3 in all); 2 arrived, "
            "state included") in str(refused.value)
