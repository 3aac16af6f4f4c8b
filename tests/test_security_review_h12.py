"""A security review's findings (an attacker with a participant account), against a real
server under a login:

- a read of the messages of a session the server does not hold logged a line per request
  (a log flood at will) and claimed the id for the reader, so its real owner was refused;
- the Host header (and X-Gradio-Server) named the root URL of the pages and /config, and
  answers to signed-in users said nothing about caching;
- a download (an export) was served to any staff member who learnt its link;
- an account could be neither disabled nor given a new password or role."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid

import pytest

from tests.live_server import ROOT, start_ui_server
from tests.queue_caller import QueueCaller
from tests.test_session_owners import join
from ui.session_owners import ANOTHER_ACCOUNTS

PASSWORD = "h12-review-pw"
USERS = {"ada": "admin", "pat": "participant", "ann": "annotator", "rita": "researcher",
         "dora": "annotator"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = start_ui_server(tmp_path_factory.mktemp("h12-review"), USERS, PASSWORD)
    yield srv
    srv.stop()


def user_command(server, *words: str, password: str | None = None) -> str:
    env = {**os.environ, **({"CLUELAB_PASSWORD": password} if password else {})}
    done = subprocess.run([sys.executable, str(ROOT / "app.py"), "user", *words,
                           "--db", str(server.db)], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout


def load_item_call(caller: QueueCaller):
    dep = next(d for d in caller.config()["dependencies"] if d["api_name"] == "load_item")
    values = {c["id"]: c.get("props", {}).get("value") for c in caller.config()["components"]}
    data = [values.get(i) for i in dep["inputs"]]
    data[0] = "ui/alpha"
    return dep, data


def test_reads_of_an_unknown_session_are_quiet_and_claim_nothing(server):
    pat, ann = QueueCaller(server.url, ("pat", PASSWORD)), QueueCaller(server.url, ("ann", PASSWORD))
    session = uuid.uuid4().hex
    before = server.log.read_text()
    for _ in range(30):
        got = pat.http.get("/gradio_api/queue/data", params={"session_hash": session})
        assert got.status_code == 200                          # Gradio's answer, as it was
        assert json.loads(got.text.split("data:", 1)[1])["session_not_found"] is True
    log = server.log.read_text()[len(before):]
    assert "request to /gradio_api/queue" not in log           # one line per request before
    assert log.count("session this server does not hold") <= 1
    dep, data = load_item_call(ann)
    joined = join(ann, dep, data, session)                     # pat did not claim it
    assert joined.status_code == 200, joined.text
    assert pat.http.get("/gradio_api/queue/data",
                        params={"session_hash": session}).json() == {"detail": ANOTHER_ACCOUNTS}


def test_the_root_is_never_the_hosts_a_client_names(server):
    ann = QueueCaller(server.url, ("ann", PASSWORD))
    for headers in ({"Host": "evil.test"}, {"X-Gradio-Server": "http://evil.test"}):
        for path in ("/config", "/"):
            got = ann.http.get(path, headers=headers)
            assert got.status_code == 200 and "evil.test" not in got.text, (headers, path)
    assert ann.config()["root"] == server.url                  # its own name still works


def test_every_answer_to_a_signed_in_user_is_kept_by_no_cache(server):
    ann = QueueCaller(server.url, ("ann", PASSWORD))
    [export] = ann.answers(ann.config(), only={"export_file"}).values()
    path = export["output"]["data"][0]["path"]
    dep, data = load_item_call(ann)
    for answer in (ann.http.get("/"), ann.http.get("/io"), ann.http.get("/config"),
                   ann.http.get("/gradio_api/info"), ann.http.get(f"/gradio_api/file={path}"),
                   join(ann, dep, data, uuid.uuid4().hex)):
        assert answer.status_code == 200, answer.request.url
        assert answer.headers.get("cache-control") == "no-store", answer.request.url


def test_a_download_is_served_only_to_the_account_it_was_made_for(server):
    callers = {n: QueueCaller(server.url, (n, PASSWORD)) for n in ("ann", "rita", "ada", "pat")}
    rita = callers["rita"]
    [export] = rita.answers(rita.config(), only={"export_file"}).values()
    path = export["output"]["data"][0]["path"]
    for prefix in ("/gradio_api/file=", "/gradio_api/file/"):
        assert rita.get(prefix + path).status_code == 200
        for other in ("ann", "ada", "pat"):               # an annotator, even an admin
            assert callers[other].get(prefix + path).status_code == 403, (other, prefix)
    assert callers["ann"].get(f"/gradio_api/file={path}/../{os.path.basename(path)}"
                              ).status_code in (403, 404)


def test_disable_enable_password_and_role_from_the_command_line(server):
    dora = QueueCaller(server.url, ("dora", PASSWORD))
    assert dora.get("/gradio_api/user").status_code == 200
    assert "Disabled user dora" in user_command(server, "disable", "dora")
    assert "dora\tannotator\tdisabled" in user_command(server, "list")
    assert dora.get("/config").status_code == 401              # its login ended
    refused = QueueCaller(server.url).http.post("/login", data={"username": "dora",
                                                                "password": PASSWORD})
    assert refused.status_code == 400
    user_command(server, "enable", "dora")
    dora = QueueCaller(server.url, ("dora", PASSWORD))
    user_command(server, "role", "dora", "researcher")
    assert dora.get("/results").status_code == 200             # a research page, at once
    user_command(server, "password", "dora", password="a-new-pw-for-dora")
    assert dora.get("/config").status_code == 401              # the old login ended
    assert QueueCaller(server.url).http.post("/login", data={
        "username": "dora", "password": PASSWORD}).status_code == 400
    assert QueueCaller(server.url, ("dora", "a-new-pw-for-dora")).get(
        "/gradio_api/user").status_code == 200
