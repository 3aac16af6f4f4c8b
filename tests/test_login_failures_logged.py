"""Failed logins are in the server's log (ui/login_route.py `_log_failure`): a reviewer's 40
failed logins and their locks left no line, so an admin could not see a guessing attack.
The account is named when it exists; a name that is no account is not written down (a
password typed into the name box would be), and repeats are counted, not repeated."""
from __future__ import annotations

import httpx
import pytest

from tests.live_server import LiveServer, add_user, build_ui_db

PASSWORD = "failures-logged-pw-1"
TYPED_IN_THE_NAME_BOX = "hunter2-secret-pw"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("login_log") / "l.db"
    build_ui_db(db)
    add_user(db, "rita", "researcher", PASSWORD)
    srv = LiveServer(db, "--auth")
    yield srv
    srv.stop()


def test_failed_logins_and_locks_are_logged_without_a_typed_secret(server):
    statuses = [httpx.post(server.url + "/login", data={"username": "rita",
                                                        "password": f"wrong-{n}"}).status_code
                for n in range(7)]
    assert 400 in statuses and 429 in statuses, statuses     # failures, then the lock
    unknown = httpx.post(server.url + "/login", data={"username": TYPED_IN_THE_NAME_BOX,
                                                      "password": "x"})
    assert unknown.status_code in (400, 429)
    log = server.log.read_text()
    assert "refused a login for account rita from address 127.0.0.1" in log, log
    assert "refused a login while locked for account rita from address 127.0.0.1" in log
    assert "for an unknown name from address 127.0.0.1" in log
    assert TYPED_IN_THE_NAME_BOX not in log and "wrong-" not in log
    # one line a minute per address, kind and account: 7 tries are not 7 lines
    assert log.count("refused a login for account rita") == 1
