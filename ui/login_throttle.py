"""Failed logins slow an attacker down: after a few wrong passwords for a user name from one
address, every attempt for that name from there fails for a while, the right password
included, and is answered "too many failed logins … try again in N s".

Why here: Gradio's login calls the app's check `(user, password) -> bool` and has no limit
of its own, so a shared server with `--auth` answered 25 wrong passwords in a row at full
speed and then let the 26th try in. The count is per user name *and address*: counted per
name alone, anyone could keep the admin locked out by sending wrong passwords for "admin",
and the admin was then told their right password was wrong. The check itself is not told
the address; ui/gradio_hooks.RouteAccess puts it in CLIENT for the login request, and
answers a locked name itself (with the wait) before Gradio's check is asked.
"""
from __future__ import annotations

import contextvars
import threading
import time
from typing import Callable

FREE_TRIES = 5           # wrong passwords before the first lock
FIRST_LOCK_S = 30.0      # then locked for 30 s, doubling with each further failure
LONGEST_LOCK_S = 900.0   # at most 15 minutes
CLIENT = contextvars.ContextVar("login_client", default="")    # the login request's address


class LoginThrottle:
    def __init__(self, check: Callable[[str, str], bool], clock=time.monotonic):
        self.check = check
        self.clock = clock
        self.lock = threading.Lock()
        self.failures: dict[str, int] = {}
        self.locked_until: dict[str, float] = {}

    @staticmethod
    def _key(user: str, address: str) -> tuple[str, str]:
        return (user or "").strip().lower(), address

    def wait_s(self, user: str, address: str) -> float:
        """Seconds until `user` may try again from `address` (0: now)."""
        with self.lock:
            until = self.locked_until.get(self._key(user, address), 0.0)
        return max(0.0, until - self.clock())

    def __call__(self, user: str, password: str) -> bool:
        key = self._key(user, CLIENT.get())
        with self.lock:
            if self.clock() < self.locked_until.get(key, 0.0):
                return False
        ok = bool(self.check(user, password))
        with self.lock:
            if ok:
                self.failures.pop(key, None)
                self.locked_until.pop(key, None)
                return True
            count = self.failures.get(key, 0) + 1
            self.failures[key] = count
            if count >= FREE_TRIES:
                lock = min(LONGEST_LOCK_S, FIRST_LOCK_S * 2 ** (count - FREE_TRIES))
                self.locked_until[key] = self.clock() + lock
        return False
