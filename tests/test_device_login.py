"""Nobody on the same address can lock another user out (ui/device_cookie.py), on a real
server: all clients here share 127.0.0.1, as all users of one proxy do.

Five wrong passwords for `admin` sent by anyone locked the admin's own right password out
(429), and one wrong try per lock period kept it so. A browser that logged in as a name
before now holds a signed device cookie for it, and is judged by its own failures only."""
from __future__ import annotations

import httpx
import pytest

from tests.live_server import LiveServer, add_user, build_ui_db
from ui.device_cookie import COOKIE, key_file
from ui.login_throttle import FREE_TRIES

PASSWORD = "device-login-pw-1"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("device_login") / "d.db"
    build_ui_db(db)
    for name, role in (("ada", "admin"), ("ann", "annotator"), ("eve", "annotator"),
                       ("ivy", "researcher")):
        add_user(db, name, role, PASSWORD)
    srv = LiveServer(db, "--auth")
    srv.db = db
    yield srv
    srv.stop()


def browser(server, device: str | None = None) -> httpx.Client:
    """A new client, with the device cookie `device` if given."""
    client = httpx.Client(base_url=server.url, timeout=60)
    if device:
        client.cookies.set(COOKIE, device, domain="127.0.0.1")
    return client


def login(client: httpx.Client, name: str, password: str = PASSWORD) -> int:
    return client.post("/login", data={"username": name, "password": password}).status_code


def test_the_admins_browser_logs_in_while_others_have_locked_the_name(server):
    admins = browser(server)
    first = admins.post("/login", data={"username": "ada", "password": PASSWORD})
    assert first.status_code == 200
    device = admins.cookies[COOKIE]
    header = next(value for key, value in first.headers.multi_items()
                  if key == "set-cookie" and value.startswith(COOKIE))
    assert "HttpOnly" in header and "SameSite=Lax" in header
    attacker = browser(server)                        # same address, no device cookie
    for _ in range(FREE_TRIES):
        assert login(attacker, "ada", "guess") == 400
    assert login(attacker, "ada") == 429              # locked for untrusted browsers
    assert login(browser(server), "ada") == 429       # a new browser of the admin's too
    assert login(browser(server, device), "ada") == 200    # the admin's browser is not
    assert login(admins, "ada") == 200
    assert device not in server.log.read_text()       # never logged


def test_a_device_cookie_of_another_name_or_forged_does_not_exempt(server):
    anns = browser(server)
    assert login(anns, "ann") == 200
    for _ in range(FREE_TRIES):
        assert login(browser(server), "eve", "guess") == 400
    assert login(browser(server, anns.cookies[COOKIE]), "eve") == 429   # ann's, for eve
    device, expires, signature = anns.cookies[COOKIE].split(".")
    for _ in range(FREE_TRIES):
        assert login(browser(server), "ann", "guess") == 400
    forged = browser(server, f"{device}.{int(expires) + 9}.{signature}")
    assert login(forged, "ann") == 429                     # untrusted
    assert login(browser(server, anns.cookies[COOKIE]), "ann") == 200


def test_failures_with_a_device_cookie_lock_that_cookie_only(server):
    ivy = browser(server)
    assert login(ivy, "ivy") == 200
    thief = browser(server, ivy.cookies[COOKIE])           # ivy's cookie, guessing
    for _ in range(FREE_TRIES):
        assert login(thief, "ivy", "guess") == 400
    assert login(thief, "ivy") == 429                      # that cookie is locked now
    assert login(ivy, "ivy") == 429                        # wherever it is
    assert login(browser(server), "ivy") == 200            # not the name: it failed nowhere


def test_the_secret_is_beside_the_database_not_in_it(server):
    key = key_file(server.db)
    assert key.is_file() and oct(key.stat().st_mode & 0o777) == "0o600"
    secret = key.read_text().strip()
    assert secret.encode() not in server.db.read_bytes()
    assert bytes.fromhex(secret) not in server.db.read_bytes()
    assert secret not in server.log.read_text()
