"""Failed logins lock a user name, an address or a device for a while, in bounded memory
(ui/login_throttle.py), and device cookies are signed for their name (ui/device_cookie.py)."""
from __future__ import annotations

import os
import stat

from ui import login_throttle
from ui.device_cookie import MAX_AGE_S, DeviceCookies, key_file, load_key
from ui.login_throttle import (ADDRESS_FAILURES, ADDRESS_LEAK_S, FIRST_LOCK_S, FREE_TRIES,
                               LONGEST_LOCK_S, LoginThrottle)

HERE, THERE = "127.0.0.1", "10.0.0.66"


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def fail(throttle, name, address=HERE, device=None, times=1):
    for _ in range(times):
        throttle.failed(name, address, device)


def test_wrong_passwords_lock_the_name_then_the_lock_ends():
    clock = Clock()
    throttle = LoginThrottle(clock)
    fail(throttle, "ada", times=FREE_TRIES - 1)
    assert throttle.wait_s("ada", HERE) == 0
    fail(throttle, "ada")
    assert throttle.wait_s("ada", HERE) == FIRST_LOCK_S
    assert throttle.wait_s("ADA ", HERE) == FIRST_LOCK_S      # the same name, however written
    clock.now += FIRST_LOCK_S + 1
    assert throttle.wait_s("ada", HERE) == 0
    throttle.succeeded("ada", HERE)                            # a success clears the count
    fail(throttle, "ada")
    assert throttle.wait_s("ada", HERE) == 0


def test_each_further_failure_doubles_the_lock_up_to_the_longest():
    clock = Clock()
    throttle = LoginThrottle(clock)
    fail(throttle, "ada", times=FREE_TRIES)
    clock.now += FIRST_LOCK_S
    fail(throttle, "ada")
    assert throttle.wait_s("ada", HERE) == 2 * FIRST_LOCK_S
    for _ in range(12):
        clock.now += LONGEST_LOCK_S
        fail(throttle, "ada")
    assert throttle.wait_s("ada", HERE) == LONGEST_LOCK_S
    assert throttle.wait_s("bob", HERE) == 0                   # other names are free


def test_the_name_lock_is_per_address():
    throttle = LoginThrottle(Clock())
    fail(throttle, "ada", THERE, times=FREE_TRIES)
    assert throttle.wait_s("ada", THERE) == FIRST_LOCK_S
    assert throttle.wait_s("ada", HERE) == 0


def test_an_address_that_fails_with_many_names_is_slowed_down():
    """A fresh name each time never met the per-name lock."""
    clock = Clock()
    throttle = LoginThrottle(clock)
    for n in range(ADDRESS_FAILURES - 1):
        fail(throttle, f"name-{n}", THERE)
    assert throttle.wait_s("anyone", THERE) == 0
    fail(throttle, "one-more", THERE)
    assert throttle.wait_s("anyone", THERE) == ADDRESS_LEAK_S
    assert throttle.wait_s("anyone", HERE) == 0                # another address is not
    clock.now += ADDRESS_LEAK_S                                # the bucket leaks: one more try
    assert throttle.wait_s("anyone", THERE) == 0
    fail(throttle, "again", THERE)
    assert throttle.wait_s("anyone", THERE) == ADDRESS_LEAK_S
    throttle.succeeded("ann", THERE)                           # a success does not empty it
    assert throttle.wait_s("anyone", THERE) == ADDRESS_LEAK_S


def test_a_device_is_judged_by_its_own_failures_only():
    throttle = LoginThrottle(Clock())
    fail(throttle, "admin", times=FREE_TRIES)                  # anyone here locks the name
    fail(throttle, "x", times=ADDRESS_FAILURES)                # ... and the address
    assert throttle.wait_s("admin", HERE) > 0
    assert throttle.wait_s("admin", HERE, device="dev-1") == 0
    fail(throttle, "admin", device="dev-1", times=FREE_TRIES)  # the device's own failures
    assert throttle.wait_s("admin", HERE, device="dev-1") == FIRST_LOCK_S
    assert throttle.wait_s("admin", HERE, device="dev-2") == 0
    throttle.succeeded("admin", HERE, device="dev-2")
    assert throttle.wait_s("admin", HERE) > 0                  # others stay locked


def test_the_tables_stay_bounded_and_forget():
    """It kept a count for every (name, address) it saw, for good."""
    clock = Clock()
    throttle = LoginThrottle(clock, max_records=500)
    for n in range(20_000):
        fail(throttle, f"name-{n}", f"10.{n // 65536}.{n // 256 % 256}.{n % 256}")
        assert len(throttle) <= 500
    fail(throttle, "admin", THERE, times=FREE_TRIES)
    assert throttle.wait_s("admin", THERE) > 0                 # the newest are kept
    clock.now += FIRST_LOCK_S + login_throttle.FORGET_AFTER_S
    fail(throttle, "late", HERE)
    assert len(throttle) == 2                                  # "late" and its address


def test_a_device_cookie_is_good_for_its_name_only_and_until_it_expires(tmp_path):
    clock = Clock()
    key = load_key(key_file(tmp_path / "x.db"))
    cookies = DeviceCookies(key, clock)
    value = cookies.issue("ada")
    device = cookies.device(value, "ada")
    assert device and device == value.split(".")[0]
    assert cookies.device(value, "Ada") is None                # the name is signed
    assert cookies.device(value, "bob") is None
    assert DeviceCookies(os.urandom(32), clock).device(value, "ada") is None
    forged = value.split(".")
    assert cookies.device(".".join([forged[0], str(int(forged[1]) + 1), forged[2]]),
                          "ada") is None
    for junk in ("", None, "a.b", "a.b.c.d", "a.notnumber.c"):
        assert cookies.device(junk, "ada") is None
    clock.now += MAX_AGE_S + 1
    assert cookies.device(value, "ada") is None


def test_the_secret_is_made_once_beside_the_database_for_its_owner_only(tmp_path):
    path = key_file(tmp_path / "bench.db")
    assert path == tmp_path / "bench-login.key"
    key = load_key(path)
    assert len(key) == 32 and load_key(path) == key
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    header = DeviceCookies.set_cookie("v", secure=False)[1].decode()
    assert "HttpOnly" in header and "SameSite=Lax" in header and "Secure" not in header
    assert "; Secure" in DeviceCookies.set_cookie("v", secure=True)[1].decode()
