"""Experiments tab handlers, called directly on a real Store and the real fake OpenAI server
(its own process). Runs started here execute in detached processes, as from the UI."""
import json
import socket
import sqlite3
import subprocess
import sys
import time

import numpy as np
import pytest

from store import Store
from tests.live_server import build_ui_db, free_port
from tests.openai_server import start_server
from ui import experiments_endpoints as xe
from ui import experiments_handlers as xh
from ui import experiments_runs as xr
from ui import experiments_steering as xs
from ui.experiments_preview import preview
from ui import access

SECRET = "sk-test-Secret-value-0123456789"


@pytest.fixture(scope="module")
def fake():
    server = start_server(api_key=SECRET, echo_key_in_errors=True)
    yield server
    server.stop()


@pytest.fixture
def xstore(tmp_path, monkeypatch, fake):
    monkeypatch.setenv("XP_TEST_KEY", SECRET)
    build_ui_db(tmp_path / "ui.db")
    store = Store.open(tmp_path / "ui.db")
    xe.save_endpoint(store, "fake", fake.url, "fake-vlm", "XP_TEST_KEY", 4, None)
    yield store
    store.close()


def form(**values) -> dict:
    base = dict.fromkeys(xh.RUN_FIELDS)
    base.update(endpoint="fake", setting="direct", clues="none", image_mode="full",
                samples=1, repeats=1, dataset="(all)", flagged="all", image_quality=90,
                preset="none")
    base.update(values)
    return base


def wait_final(store, run_id, timeout=30.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        [row] = [r for r in xr.runs_table(store) if r[1] == run_id]
        if row[2] in ("done", "failed", "cancelled", "stopped"):
            return {"status": row[2], "row": row}
        time.sleep(0.2)
    raise AssertionError(f"run {run_id} did not finish: {xr.runs_table(store)}")


def test_endpoints_are_listed_edited_and_never_show_the_key(xstore):
    rows = xe.endpoint_rows(xstore)
    assert rows == [["fake", rows[0][1], "fake-vlm", "XP_TEST_KEY", "yes"]]  # the rest: a click
    assert "updated" in xe.save_endpoint(xstore, "fake", rows[0][1], "gpt-4o-mini",
                                         "XP_TEST_KEY", 2, 1_000_000)
    assert xe.endpoint_form(xstore, "fake")[2:] == ["gpt-4o-mini", "XP_TEST_KEY", 2, 1_000_000]
    with pytest.raises(xh.ExperimentError, match="NAME of the environment variable"):
        xe.save_endpoint(xstore, "pasted", "http://x/v1", "m", SECRET, 1, None)
    with pytest.raises(xh.ExperimentError, match="not an http"):
        xe.save_endpoint(xstore, "bad", "localhost:8000", "m", "", 1, None)
    xe.save_endpoint(xstore, "unset", "http://127.0.0.1:9/v1", "m", "XP_UNSET_VAR", 1, None)
    assert [r[4] for r in xe.endpoint_rows(xstore)] == ["yes", "NOT SET"]
    assert SECRET not in json.dumps(xe.endpoint_rows(xstore))
    assert "deleted" in xe.delete_endpoint(xstore, "unset")
    con = sqlite3.connect(xstore.path)
    assert SECRET not in json.dumps(con.execute("SELECT * FROM endpoints").fetchall())


def test_connection_reports_models_latency_or_a_clear_reason(xstore, fake, monkeypatch):
    ok = xe.test_connection(xstore, "fake")
    assert ok["ok"] and ok["models"] == ["fake-vlm", "gpt-4o-mini"]
    assert ok["latency_ms"] is not None and "(2 models listed)" in ok["message"]
    fake.configure(models=["fake-vlm"])               # one is "1 model", not "1 models"
    assert "(1 model listed)" in xe.test_connection(xstore, "fake")["message"]
    fake.configure(models=["fake-vlm", "gpt-4o-mini"])
    dead = free_port()  # nothing listens there
    xe.save_endpoint(xstore, "dead", f"http://127.0.0.1:{dead}/v1", "m", "", 1, None)
    down = xe.test_connection(xstore, "dead")
    assert not down["ok"] and down["kind"] == "connection_refused"
    assert "is the server running" in down["message"]
    monkeypatch.setenv("XP_TEST_KEY", SECRET[:-1] + "X")  # a wrong key, echoed by the server
    refused = xe.test_connection(xstore, "fake")
    assert refused["kind"] == "unauthorized" and "XP_TEST_KEY" in refused["message"]
    assert SECRET[:-1] not in json.dumps(refused)
    monkeypatch.delenv("XP_TEST_KEY")
    assert xe.test_connection(xstore, "fake")["kind"] == "missing_key"
    with pytest.raises(xh.ExperimentError, match="no endpoint named"):
        xe.test_connection(xstore, "nope")


def test_connection_tries_the_forms_values_before_they_are_saved(xstore, fake, monkeypatch):
    """The form's base URL, model and key variable, saved or not; nothing is written."""
    before = xstore.list_endpoints()
    dead = f"http://127.0.0.1:{free_port()}/v1"
    down = xe.test_connection(xstore, "fake", dead, "fake-vlm", "XP_TEST_KEY")
    assert down["kind"] == "connection_refused" and dead in down["message"]
    unknown = xe.test_connection(xstore, "fake", fake.url, "other-model", "XP_TEST_KEY")
    assert unknown["kind"] == "unknown_model" and "other-model" in unknown["message"]
    monkeypatch.setenv("XP_OTHER_KEY", SECRET[:-1] + "Y")  # a variable no endpoint names yet
    refused = xe.test_connection(xstore, "new", fake.url, "fake-vlm", "XP_OTHER_KEY")
    assert refused["kind"] == "unauthorized" and SECRET[:-1] not in json.dumps(refused)
    ok = xe.test_connection(xstore, "", fake.url, "fake-vlm", "XP_TEST_KEY")
    assert ok["ok"] and "(unsaved)" in ok["message"]
    with pytest.raises(xh.ExperimentError, match="NAME of the environment variable"):
        xe.test_connection(xstore, "new", fake.url, "fake-vlm", SECRET)
    with pytest.raises(xh.ExperimentError, match="base URL"):
        xe.test_connection(xstore, "new", "", "fake-vlm", "")
    # the reason, not "Something went wrong on the server (ValueError)"
    for url in ("file:///etc/passwd", "ftp://host/v1", "http://u:" + SECRET + "@host/v1"):
        with pytest.raises(xh.ExperimentError, match="base_url: ") as refused:
            xe.test_connection(xstore, "new", url, "fake-vlm", "")
        assert SECRET not in str(refused.value) and "passwd" not in str(refused.value)
    assert xstore.list_endpoints() == before


def test_form_to_config_preset_ids_and_clue_runs():
    config, execution = xh.config_from_form(form(
        preset="mmr-life", temperature=0.5, top_p=0.5, seed=17, samples=3, max_tokens=256.0,
        ids="ui/alpha, ui/beta\nui/gamma", dataset="ui", budget=1.5, deadline=60))
    assert (config.preset, config.samples, config.max_tokens) == ("mmr-life", 3, 256)
    assert config.ids == ["ui/alpha", "ui/beta", "ui/gamma"] and config.filters == {}
    assert (execution.budget, execution.deadline) == (1.5, 60)
    assert execution.use_cache is True                   # the box's default, or unset
    assert xh.config_from_form(form(use_cache=False))[1].use_cache is False
    config, _ = xh.config_from_form(form(dataset="ui", flagged="not flagged", clues="run",
                                         clue_run="20260101-000000-abcd"))
    assert config.filters == {"dataset": "ui", "flagged": False}
    assert config.clues == "run:20260101-000000-abcd"
    with pytest.raises(xh.ExperimentError, match="choose the run"):
        xh.config_from_form(form(clues="run"))
    with pytest.raises(xh.ExperimentError, match="whole number"):
        xh.config_from_form(form(samples=1.5))
    with pytest.raises(xh.ExperimentError, match="choose an endpoint"):
        xh.config_from_form(form(endpoint=None))


def test_preview_shows_the_request_as_text_and_thumbnails_never_base64(xstore):
    out = preview(xstore, form(setting="cot", clues="gt", preset="mmr-life", temperature=0.5,
                               top_p=0.5, seed=17), "ui/alpha")
    assert out["item_id"] == "ui/alpha" and out["items"] == ["ui/alpha", "ui/beta", "ui/gamma"]
    assert "──── system ────" in out["transcript"] and "EXIT 12" in out["transcript"]
    assert "temperature: 0.5" in out["transcript"] and "seed: 17" in out["transcript"]
    assert "[image 1: image/jpeg, 1200×800 px" in out["transcript"]
    assert len(out["thumbnails"]) == 2 and out["thumbnails"][0][0].size[0] <= 320
    body = json.loads(out["payload"])
    assert body["model"] == "fake-vlm" and body["top_p"] == 0.5
    for text in (out["summary"], out["transcript"], out["payload"]):
        assert "base64" not in text and "data:image" not in text
    assert "3 items" in out["summary"] and "unknown" in out["summary"]  # no price yet
    assert "no GT clues" in out["summary"]
    xe.save_price(xstore, "fake-*", 1.0, 2.0)
    assert xe.price_rows(xstore)[0][:3] == ["fake-*", 1.0, 2.0]
    priced = preview(xstore, form())["summary"]
    assert "$0." in priced and "unknown" not in priced
    assert "deleted" in xe.delete_price(xstore, "fake-*") and xe.price_rows(xstore) == []
    with pytest.raises(xh.ExperimentError, match="not part of this run"):
        preview(xstore, form(ids="ui/beta"), "ui/alpha")
    with pytest.raises(xh.ExperimentError, match="do not exist"):
        preview(xstore, form(ids="ui/nothing"))


def test_preview_says_that_start_would_refuse_a_dead_endpoint(xstore):
    """A preview on an endpoint where nothing listens said "3 to send" without a word; only
    Start refused. The preview tests it as Start does and says so."""
    xe.save_endpoint(xstore, "dead", f"http://127.0.0.1:{free_port()}/v1", "fake-vlm", "", 1,
                     None)
    summary = preview(xstore, form(endpoint="dead"))["summary"]
    assert "⚠ Start would refuse this run" in summary and "cannot connect" in summary


def test_masked_preview_blacks_out_the_gt_box(xstore):
    item = xstore.get_item("ui/alpha")
    item["clues"][0]["boxes"] = [{"image": item["images"][0], "x0": 300, "y0": 200,
                                  "x1": 420, "y1": 260}]
    xstore.save_item(item, item["version"], "test")
    full = preview(xstore, form(image_mode="full"), "ui/alpha")["thumbnails"][0][0]
    masked = preview(xstore, form(image_mode="clue_masked", mask_style="black"),
                     "ui/alpha")["thumbnails"][0][0]
    box = (slice(int(205 * 0.2667), int(255 * 0.2667)), slice(int(305 * 0.2667),
                                                                int(415 * 0.2667)))
    assert np.asarray(masked)[box].max() < 40  # black where the sign was
    assert np.asarray(full)[box].mean() > 60   # the blue sign in the full image


def test_start_watch_and_read_a_run(xstore, fake):
    fake.reset_log()
    started = xh.start_run(xstore, form(setting="cot"), "local")
    run_id = started["run_id"]
    assert "closing the browser does not stop it" in started["message"]
    final = wait_final(xstore, run_id)
    assert final["status"] == "done" and final["row"][3] == "3/3"
    panel = xr.progress_html(xstore, run_id)
    assert "id='run-done'>3/3<" in panel and "xp-done" in panel and "latency p95" in panel
    rows = xr.responses(xstore, run_id)
    assert [r[1] for r in rows] == ["ui/alpha", "ui/beta", "ui/gamma"]
    assert all(r[3] in ("ok", "unparsed") for r in rows) and rows[0][2] == "r0 s0"
    assert xr.responses(xstore, run_id, "error") == []
    text, extracted = xr.response_detail(xstore, run_id, rows[0][0])
    assert text.startswith("Answer:") and json.loads(extracted)["item"] == "ui/alpha"
    detail = xr.run_config(xstore, run_id)
    assert detail["config"]["setting"] == "cot" and detail["created_by"] == "local"
    assert len([r for r in fake.requests() if r["path"].endswith("/chat/completions")]) == 3
    assert SECRET not in json.dumps([panel, rows, detail, xr.runs_table(xstore)])
    con = sqlite3.connect(xstore.path)
    assert con.execute("SELECT count(*) FROM run_responses WHERE run_id = ?",
                       [run_id]).fetchone()[0] == 3
    assert run_id in [value for _, value in xr.clue_run_choices(xstore)]


def test_the_form_states_how_the_model_writes_boxes_and_the_run_keeps_it(xstore):
    """*Boxes in replies* (auto unless chosen) is stored with the run and said in the runs
    list and every run picker beside its other settings."""
    assert xh.config_from_form(form())[0].box_convention == "auto"
    started = xh.start_run(xstore, form(ids="ui/alpha", box_convention="xywh_normalized_1000"),
                           "local")
    run_id = started["run_id"]
    final = wait_final(xstore, run_id)
    assert final["row"][0].endswith("No-CoT · boxes xywh 0-1000")          # the runs list
    assert xr.run_config(xstore, run_id)["config"]["box_convention"] == "xywh_normalized_1000"
    assert "· boxes xywh 0-1000 ·" in dict((v, k) for k, v in xr.clue_run_choices(xstore))[
        run_id]
    with pytest.raises(xh.ExperimentError, match="box convention must be one of auto"):
        xh.plan(xstore, form(box_convention="yxyx"))


def test_a_dead_endpoint_is_refused_at_start_with_a_reason(xstore):
    xe.save_endpoint(xstore, "dead", f"http://127.0.0.1:{free_port()}/v1", "m", "", 1, None)
    with pytest.raises(xh.ExperimentError, match="not started: .*cannot connect"):
        xh.start_run(xstore, form(endpoint="dead"), "local")
    assert xstore.list_runs() == []
    with pytest.raises(xh.ExperimentError, match="budget needs a price"):
        xh.start_run(xstore, form(budget=1.0), "local")
    stuck = _created_run(xstore, endpoint="dead")  # e.g. the server died after it started
    with pytest.raises(xh.ExperimentError, match="not resumed: .*is the server running"):
        xs.resume(xstore, stuck)


def _created_run(store, **values) -> str:
    from runner.planning import create_run

    return create_run(store, xh.plan(store, form(**values)), author="local")


def test_pause_cancel_resume_and_interrupted_runs(xstore):
    paused = _created_run(xstore)
    assert "now paused" in xs.control(xstore, paused, "pause")
    assert "3 requests left" in xs.resume(xstore, paused)
    assert wait_final(xstore, paused)["status"] == "done"
    with pytest.raises(xh.ExperimentError, match="nothing left to send"):
        xs.resume(xstore, paused)
    with pytest.raises(xh.ExperimentError, match="is done"):
        xs.control(xstore, paused, "cancel")

    cancelled = _created_run(xstore, setting="cot")
    assert "now cancelled" in xs.control(xstore, cancelled, "cancel")
    total = len(xstore.item_ids())
    assert xstore.get_run(cancelled)["message"] == (f"cancelled on request: 0 done, 0 failed, "
                                                    f"{total} not run = {total} work rows")
    assert "cancelled on request" in xr.progress_html(xstore, cancelled)

    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    lost = _created_run(xstore, setting="clue_guided")
    xstore.claim_run(lost, f"{socket.gethostname()}:{gone.pid}", lambda *a: True)
    assert [r[2] for r in xr.runs_table(xstore) if r[1] == lost] == ["interrupted"]
    with pytest.raises(xh.ExperimentError, match="interrupted"):
        xs.control(xstore, lost, "pause")
    with pytest.raises(xh.ExperimentError, match="no run"):
        xs.resume(xstore, "nope")
    assert xr.progress_html(xstore, None).count("Select a run") == 1


def test_only_admins_and_researchers_may_run_models(xstore):
    """The access table decides (ui/access.py); the handlers no longer check roles."""
    xstore.add_user("ann", "annotator", "pw")
    xstore.add_user("rita", "researcher", "pw")
    assert access.refusal("start_run", access.caller(xstore, None, login_required=False)) is None
    assert access.refusal("start_run", access.caller(xstore, "rita", True)) is None
    assert access.refusal("start_run", access.caller(xstore, "ann", True)).startswith(
        "ann may not run experiments")


def test_model_output_is_returned_as_plain_text(xstore, fake):
    hostile = "<script>alert(1)</script><img src=x onerror=alert(2)> [x](javascript:alert(3))"
    fake.configure(reply_queue=[hostile + "\nAnswer: 12"])
    try:
        run_id = xh.start_run(xstore, form(ids="ui/alpha"), "local")["run_id"]
        assert wait_final(xstore, run_id)["status"] == "done"
    finally:
        fake.configure(reply_queue=[])
    text, _ = xr.response_detail(xstore, run_id, xr.responses(xstore, run_id)[0][0])
    assert text.startswith(hostile)  # the Textbox shows it verbatim, as text
    assert "<script>" not in xr.progress_html(xstore, run_id)


def test_preview_summary_renders_tildes_as_text_never_struck_through(xstore):
    from markdown_it import MarkdownIt

    summary = preview(xstore, form(setting="cot"), "ui/alpha")["summary"]
    assert "\\~" not in summary and "~" not in summary    # entities: no GFM delimiter left
    rendered = MarkdownIt("commonmark").enable("strikethrough").render(summary)
    assert "<s>" not in rendered and "\\" not in rendered
    assert "(~4 characters a token" in rendered      # the entity renders as "~"


def test_the_endpoint_starts_on_the_latest_runs_never_the_first_by_name(xstore, fake):
    """...and only on one a run reached: the latest run's endpoint was preselected even when
    that run failed to reach it (a dead one, chosen again for the next run)."""
    xe.save_endpoint(xstore, "dead", "http://127.0.0.1:9/v1", "m", "", 1, None)
    assert xe.default_endpoint(xstore, xe.endpoint_names(xstore)) is None   # choose one
    ran = xh.start_run(xstore, form(endpoint="fake", ids="ui/alpha"), "local")["run_id"]
    assert wait_final(xstore, ran)["status"] == "done"
    assert xe.default_endpoint(xstore, xe.endpoint_names(xstore)) == "fake"
    failed = _created_run(xstore, endpoint="dead", ids="ui/alpha")   # never reached it
    assert xstore.list_runs(limit=1)[0]["id"] == failed
    assert xe.default_endpoint(xstore, xe.endpoint_names(xstore)) == "fake"
    xe.delete_endpoint(xstore, "dead")
    assert xe.default_endpoint(xstore, ["fake"]) == "fake"


def test_the_cost_ceiling_is_called_one_only_when_max_tokens_sets_it(xstore):
    """'$0.1468 at most (max_tokens bound)' with max_tokens empty: nothing bounds a reply
    then, and the figure is what replies of 1,024 tokens would cost."""
    xstore.set_price("fake-vlm", 1.0, 2.0)
    free = preview(xstore, form(setting="cot"), "ui/alpha")["summary"]
    assert "at most (max_tokens bound)" not in free
    assert "if every reply ran to 1,024 tokens (no max_tokens is set: nothing bounds a " \
        "reply" in free
    capped = preview(xstore, form(setting="cot", max_tokens=64), "ui/alpha")["summary"]
    assert "at most (max_tokens bound)" in capped


def test_the_preview_warns_of_an_api_key_unset_in_the_servers_environment(xstore, monkeypatch):
    """The preview showed a full plan and cost; only Start refused ("environment variable
    FAKE_KEY ... is not set"). It says so now, naming the variable, never a value."""
    assert "API key" not in preview(xstore, form(setting="cot"), "ui/alpha")["summary"]
    monkeypatch.delenv("XP_TEST_KEY")
    summary = preview(xstore, form(setting="cot"), "ui/alpha")["summary"]
    assert "⚠ environment variable XP\\_TEST\\_KEY \\(the API key of endpoint fake\\) is not " \
        "set in the server" in summary and "Start will refuse the run" in summary
    assert SECRET not in summary


def test_saving_or_deleting_an_endpoint_keeps_the_run_forms_endpoint():
    """Saving a judge's endpoint switched the New run form's Endpoint to the judge, and a run
    could start on it unnoticed; deleting one moved the form to the first by name."""
    assert xe.run_endpoint_after("fake", ["fake", "judge"]) == "fake"     # judge just saved
    assert xe.run_endpoint_after(None, ["judge"]) == "judge"      # the list was empty
    assert xe.run_endpoint_after(None, ["fake", "judge"]) is None      # the user chooses
    assert xe.run_endpoint_after("gone", ["a-judge", "fake"]) is None  # never the first
    assert xe.run_endpoint_after("gone", ["fake"]) == "fake"


def test_configuration_and_totals_read_as_key_value_lines_without_the_copied_errors(xstore,
                                                                                     fake):
    """gr.JSON showed a run's configuration one token a line, its totals with both "error"
    and "errors" (the runner writes errors = error)."""
    from ui.experiments_config import config_text

    run_id = xh.start_run(xstore, form(ids="ui/alpha"), "local")["run_id"]
    assert wait_final(xstore, run_id)["status"] == "done"
    detail = xr.run_config(xstore, run_id)
    assert detail["totals"]["errors"] == detail["totals"]["error"]      # a copy
    text = config_text(detail)
    assert text.startswith(f"id: {run_id}\n") and "\nstatus: done\n" in text
    assert "\n  error: 0\n" in text and "errors" not in text
    assert "\n  setting: direct\n" in text and "{" not in text.replace("{}", "")


def test_a_start_with_a_budget_below_one_request_warns_as_the_cli_does(xstore):
    """The CLI warned "the budget of $… is below one request's estimated cost"; the page
    started the run without a word, and it stopped with nothing sent (a review, round 27)."""
    xstore.set_price("fake-vlm", 1.0, 2.0)
    started = xh.start_run(xstore, form(budget=1e-9, ids="ui/alpha"), "local")
    assert "the budget of $0.000000001 is below one request's estimated cost" in \
        (started["warning"] or ""), started
    wait_final(xstore, started["run_id"])
