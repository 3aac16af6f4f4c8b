"""The Experiments tab as an API: real app process, gradio_client, the real fake OpenAI
server, real SQLite. The API key lives only in the app server's environment."""
import html
import json
import re
import sqlite3
import time
import urllib.request

import pytest
from gradio_client import Client

from store import Store
from tests.live_server import LiveServer, build_ui_db, event_names, free_port
from tests.openai_server import start_server
from tests.queue_caller import refused_at_the_door
from ui.experiments_handlers import RUN_FIELDS
from ui.experiments_preview import STALE

SECRET = "sk-wiring-Secret-4242424242"


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    fake = start_server(api_key=SECRET, echo_key_in_errors=True)
    db = tmp_path_factory.mktemp("experiments") / "ui.db"
    build_ui_db(db)
    try:
        srv = LiveServer(db, "--no-auth", env={"XP_WIRING_KEY": SECRET})
    except Exception:
        fake.stop()
        raise
    srv.db, srv.fake = db, fake
    seen = []  # every value an API call returned, to look for the key
    yield srv, seen
    srv.stop()
    fake.stop()
    assert SECRET not in json.dumps(seen, default=str)


def call(setup, client, *args, api_name):
    out = client.predict(*args, api_name=api_name)
    setup[1].append(out)
    return out


def form(**values) -> list:
    base = dict.fromkeys(RUN_FIELDS)
    base.update(endpoint="fake", setting="cot", clues="none", clue_pass="clue_guided",
                image_mode="full", mask_style="black", samples=1, repeats=1, preset="none",
                image_format="jpeg", image_quality=90, dataset="(all)", domain="(all)",
                subtask="(all)", status="(all)", flagged="all", ids="")
    base.update(values)
    return [base[k] for k in RUN_FIELDS]


def test_every_experiments_event_has_an_api_name(setup):
    names = event_names(setup[0].url)
    for required in ("/experiments_open", "/save_endpoint", "/test_endpoint", "/preview_run",
                     "/start_run", "/poll_runs", "/watch_run", "/pause_run", "/cancel_run",
                     "/resume_run", "/list_responses", "/save_price", "/preset_protocol"):
        assert required in names


def test_endpoint_preview_start_and_watch_a_run(setup):
    srv, _ = setup
    c = Client(srv.url, verbose=False, download_files=False)
    saved = call(setup, c, "fake", srv.fake.url, "fake-vlm", "XP_WIRING_KEY", 2, "",
                 api_name="/save_endpoint")
    assert "added" in saved[2]
    judge = call(setup, c, "judge", srv.fake.url, "gpt-4o-mini", "", 1, "", "fake",
                 api_name="/save_endpoint")      # saving a judge's endpoint keeps the run's
    assert judge[1]["value"] == "fake" and "judge" in str(judge[1]["choices"])
    opened = call(setup, c, "", None, api_name="/experiments_open")
    listed = opened[0]["value"]          # an update: the rows and their column widths
    assert opened[0]["column_widths"] and len(opened[0]["column_widths"]) == 5
    assert listed["data"][0][:5] == ["fake", srv.fake.url, "fake-vlm", "XP_WIRING_KEY",
                                        "yes"]
    tested = call(setup, c, "fake", api_name="/test_endpoint")
    assert tested.startswith("✓") and re.search(r"answers in \d+ ms", tested)
    assert "latency" not in tested                        # said once, not twice
    # the server's model ids are counted, not quoted (runner/endpoints.py)
    assert "(2 models listed)" in tested.replace("\\", "")   # Markdown escapes
    assert "gpt-4o-mini" not in tested
    # one control for the preset: choosing it fills its protocol and sampling
    assert call(setup, c, "mmr-life", api_name="/preset_protocol") == (
        "cot", "none", "full", "0.5", "0.5", "17")

    summary, transcript, gallery, payload = call(
        setup, c, "ui/gamma", *form(preset="mmr-life", temperature=0.5, top_p=0.5, seed=17),
        api_name="/preview_run")
    assert "ui/gamma" in summary and "3 items" in summary
    assert "Pick the colour of the sign." in transcript and "seed: 17" in transcript
    assert len(gallery) == 1 and json.loads(payload)["temperature"] == 0.5
    assert "base64" not in summary + transcript + payload
    # marked stale from the server's own copy of the preview: the event takes nothing from
    # the page (it sent back the Markdown the page sent it)
    assert call(setup, c, api_name="/preview_stale") == f"{STALE}\n\n{summary}"

    run_id, message, runs, progress, *_ = call(setup, c, *form(), api_name="/start_run")
    assert run_id in message.replace("\\", "") and runs["data"][0][1] == run_id
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline:
        watched = call(setup, c, run_id, "all", api_name="/watch_run")
        if "id='run-done'>3/3<" in watched[1] and "xp-done" in watched[1]:
            break
        time.sleep(0.3)
    assert "id='run-done'>3/3<" in watched[1], watched[1]
    config, responses = watched[2], watched[3]
    # key: value lines, the totals' "errors" (a copy of "error") left out
    assert "\nstatus: done\n" in config and "\n  setting: cot\n" in config
    assert "\n  error: 0\n" in config and "errors:" not in config
    # an update: the rows and their caption (which says when a filter matches none)
    assert [r[1] for r in responses["value"]["data"]] == ["ui/alpha", "ui/beta", "ui/gamma"]
    with Store(setup[0].db) as store:
        store.label_run(run_id, name="wired cot")
    by_name = call(setup, c, " wired cot ", "all", api_name="/watch_run")  # a name: its id
    assert by_name[0] == run_id and by_name[2].startswith(f"id: {run_id}\n")
    runs, panel, sample, _retry, _line = call(setup, c, run_id, "all",
                                              api_name="/poll_runs")
    # the list names a named run by its name, its id beside it (what a click watches)
    assert runs["data"][0][:4] == ["wired cot", run_id, "done", "3/3"]
    assert "xp-done" in panel and len(sample["value"]["data"]) == 3
    # nothing changed since: every output skipped, one for each (a skip short made every
    # unchanged poll fail, "returned 8 values for 9 outputs", and the panel went stale)
    call(setup, c, run_id, "all", api_name="/poll_runs")
    call(setup, c, run_id, "all", api_name="/poll_runs")
    assert "values for" not in srv.log.read_text()     # ui/handler_errors._counted's line

    con = sqlite3.connect(srv.db)
    assert con.execute("SELECT status, created_by FROM model_runs WHERE id = ?",
                       [run_id]).fetchone() == ("done", "local")
    assert con.execute("SELECT count(*) FROM run_responses WHERE run_id = ?",
                       [run_id]).fetchone()[0] == 3
    assert SECRET not in json.dumps(con.execute("SELECT * FROM endpoints").fetchall()
                                    + con.execute("SELECT config FROM model_runs").fetchall())
    with pytest.raises(Exception, match="nothing left to send"):
        c.predict(run_id, False, api_name="/resume_run")
    with pytest.raises(Exception, match="is done"):
        c.predict(run_id, api_name="/pause_run")

    # a run's name is shown as text on the line under Pause/Cancel, never drawn as markup
    named = call(setup, c, run_id, "<img src=x onerror=alert(1)>", "", api_name="/label_run")
    assert "<img" not in named[0] and "img src=x" in named[0].replace("\\", "")

    # the same draws are now cached, made by that run; unticking the cache sends them again
    again = html.unescape(call(setup, c, "", *form(), api_name="/preview_run")[0]
                          ).replace("\\", "")
    # the source run by its table label (its name), as the tables say it
    assert "3 cached draws (same item, repeat and sample), made by <img src=x " \
        "onerror=alert(1)> (3)" in again
    fresh = call(setup, c, "", *form(use_cache=False), api_name="/preview_run")[0]
    assert "the cache is not used: every request is sent" in html.unescape(fresh)
    fresh_id = call(setup, c, *form(use_cache=False), api_name="/start_run")[0]
    assert json.loads(con.execute("SELECT execution FROM model_runs WHERE id = ?",
                                  [fresh_id]).fetchone()[0])["use_cache"] is False
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline and "xp-done" not in (panel := call(
            setup, c, fresh_id, "all", api_name="/watch_run")[1]):
        time.sleep(0.3)
    assert "cache not used: every reply was sent by this run" in panel


def test_a_dead_endpoint_gives_a_clear_message(setup):
    srv, _ = setup
    c = Client(srv.url, verbose=False, download_files=False)
    call(setup, c, "dead", f"http://127.0.0.1:{free_port()}/v1", "m", "", 1, "",
         api_name="/save_endpoint")
    tested = call(setup, c, "dead", api_name="/test_endpoint")
    assert tested.startswith("✗") and "connection\\_refused" in tested
    assert "is the server running" in tested
    with pytest.raises(Exception, match="not started: .*cannot connect") as err:
        c.predict(*form(endpoint="dead"), api_name="/start_run")
    assert "Traceback" not in str(err.value)
    con = sqlite3.connect(srv.db)
    assert con.execute("SELECT count(*) FROM model_runs WHERE endpoint = 'dead'"
                       ).fetchone()[0] == 0


def test_the_key_never_reaches_the_browser(setup):
    srv, seen = setup
    c = Client(srv.url, verbose=False, download_files=False)
    call(setup, c, "fake", srv.fake.url, "gpt-4o-mini", "XP_WIRING_KEY", 2, "",
         api_name="/save_endpoint")
    srv.fake.configure(api_key=SECRET + "-rotated")  # now the server echoes a refused key
    try:
        tested = call(setup, c, "fake", api_name="/test_endpoint")
        assert "unauthorized" in tested and "XP\\_WIRING\\_KEY" in tested
    finally:
        srv.fake.configure(api_key=SECRET)
    call(setup, c, "", "fake", api_name="/experiments_open")
    with urllib.request.urlopen(srv.url + "/config", timeout=10) as page:
        assert SECRET not in page.read().decode()
    assert SECRET not in json.dumps(seen, default=str)


def test_with_a_login_only_admins_and_researchers_run_models(tmp_path):
    """...and only admins set up endpoints: an endpoint's settings decide where the server
    sends the key its named variable holds, so a researcher who could set them could send
    any of the server's environment variables to an address of their choice."""
    from store import Store

    db = tmp_path / "auth.db"
    build_ui_db(db)
    with Store.open(db) as store:
        store.add_user("ann", "annotator", "pw-ann")
        store.add_user("rita", "researcher", "pw-rita")
        store.add_user("ada", "admin", "pw-ada")
    srv = LiveServer(db, "--auth")
    try:
        ann = Client(srv.url, auth=("ann", "pw-ann"), verbose=False, download_files=False)
        refused = "ann may not run experiments or read endpoint settings"
        with refused_at_the_door("ann may not set up or test endpoints"):
            ann.predict("x", "http://127.0.0.1:9/v1", "m", "", 1, "", api_name="/save_endpoint")
        with refused_at_the_door(refused):
            ann.predict(*form(), api_name="/start_run")
        with refused_at_the_door(refused):    # endpoint settings show in runs
            ann.predict("", "all", api_name="/poll_runs")
        rita = Client(srv.url, auth=("rita", "pw-rita"), verbose=False, download_files=False)
        for args, api_name in (((["x", "http://127.0.0.1:9/v1", "m", "OPENAI_API_KEY", 1, ""]),
                                "/save_endpoint"), ((["x", "", "", ""]), "/test_endpoint")):
            with refused_at_the_door("rita may not set up or test endpoints"):
                rita.predict(*args, api_name=api_name)
        ada = Client(srv.url, auth=("ada", "pw-ada"), verbose=False, download_files=False)
        assert "added" in ada.predict("x", "http://127.0.0.1:9/v1", "m", "", 1, "",
                                      api_name="/save_endpoint")[2]
    finally:
        srv.stop()


def test_a_setting_that_departs_from_the_preset_clears_it(setup):
    """The preset stayed selected when the setting was switched to clue_guided with GT
    clues, and the run was labelled "preset mmr-life" though it was not that protocol.
    Switching away clears it; choosing it sets its protocol's setting (cot, no clues,
    full images)."""
    c = Client(setup[0].url, verbose=False, download_files=False)
    assert call(setup, c, "mmr-life", "clue_guided", "none", "full",
                api_name="/preset_after_setting") == "none"
    assert call(setup, c, "mmr-life", "cot", "gt", "full",
                api_name="/preset_after_clues") == "none"
    assert call(setup, c, "mmr-life", "cot", "none", "text_only",
                api_name="/preset_after_image_mode") == "none"
    assert call(setup, c, "mmr-life", "cot", "none", "full",
                api_name="/preset_after_setting") == "mmr-life"
    assert call(setup, c, "mmr-life", api_name="/preset_protocol") == ("cot", "none", "full",
                                                                        "0.5", "0.5", "17")


def test_pause_cancel_and_resume_are_live_only_when_the_run_allows_them():
    """On a cancelled run all three looked live, each click answering 'nothing to do'."""
    from ui.experiments_steering import buttons

    def live(status):         # Pause, Cancel, Resume ('retry errors' goes with Resume)
        return [b["interactive"] for b in buttons(status)][:3]

    assert live("running") == [True, True, False]
    assert live("running (pause requested)") == [False, True, False]
    assert live("cancelled") == [False, False, True] == live("done")
    assert live("paused") == [False, True, True] == live("interrupted")
    assert live(None) == [False, False, False]
