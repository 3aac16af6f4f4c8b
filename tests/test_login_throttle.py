"""Failed logins lock a user name for a while (ui/login_throttle.py), on a real store."""
from __future__ import annotations

from ui.login_throttle import FIRST_LOCK_S, FREE_TRIES, LoginThrottle


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_wrong_passwords_lock_the_name_then_the_lock_ends(store):
    store.add_user("ada", "admin", "right-pw")
    clock = Clock()
    login = LoginThrottle(store.check_password, clock)
    assert login("ada", "right-pw")
    for _ in range(FREE_TRIES):
        assert not login("ada", "wrong")
    assert not login("ada", "right-pw")          # locked: even the right password fails
    assert not login("ADA ", "right-pw")         # the same name, however written
    clock.now += FIRST_LOCK_S + 1
    assert login("ada", "right-pw")              # the lock ended; success clears the count
    assert not login("ada", "wrong")
    assert login("ada", "right-pw")


def test_each_further_failure_doubles_the_lock_and_other_names_are_free(store):
    store.add_user("ada", "admin", "right-pw")
    store.add_user("bob", "annotator", "bob-pw")
    clock = Clock()
    login = LoginThrottle(store.check_password, clock)
    for _ in range(FREE_TRIES):
        login("ada", "wrong")
    clock.now += FIRST_LOCK_S + 1
    assert not login("ada", "wrong")             # the sixth failure: locked twice as long
    clock.now += FIRST_LOCK_S + 1
    assert not login("ada", "right-pw")
    clock.now += FIRST_LOCK_S
    assert login("ada", "right-pw")
    assert login("bob", "bob-pw")


def test_the_lock_is_per_address_so_nobody_locks_the_owner_out_from_elsewhere(store):
    from ui.login_throttle import CLIENT

    store.add_user("ada", "admin", "right-pw")
    login = LoginThrottle(store.check_password, Clock())
    token = CLIENT.set("10.0.0.66")               # the attacker's address
    try:
        for _ in range(FREE_TRIES):
            assert not login("ada", "wrong")
        assert not login("ada", "right-pw")
        assert login.wait_s("ada", "10.0.0.66") == FIRST_LOCK_S
    finally:
        CLIENT.reset(token)
    assert login.wait_s("ADA", "127.0.0.1") == 0  # the owner's address is not locked
    token = CLIENT.set("127.0.0.1")
    try:
        assert login("ada", "right-pw")
    finally:
        CLIENT.reset(token)
