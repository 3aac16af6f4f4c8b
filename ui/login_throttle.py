"""Failed logins slow an attacker down: after a few wrong passwords for a user name, every
attempt for that name fails for a while, the right password included.

Why here: Gradio's login calls the app's check `(user, password) -> bool` and has no limit
of its own, so a shared server with `--auth` answered 25 wrong passwords in a row at full
speed and then let the 26th try in. Counting per user name (not per address) also holds for
an attacker behind many addresses; the price, an owner locked out while someone guesses, is
bounded by the lock's length and ends by itself.
"""
from __future__ import annotations

import threading
import time
from typing import Callable

FREE_TRIES = 5           # wrong passwords before the first lock
FIRST_LOCK_S = 30.0      # then locked for 30 s, doubling with each further failure
LONGEST_LOCK_S = 900.0   # at most 15 minutes


class LoginThrottle:
    def __init__(self, check: Callable[[str, str], bool], clock=time.monotonic):
        self.check = check
        self.clock = clock
        self.lock = threading.Lock()
        self.failures: dict[str, int] = {}
        self.locked_until: dict[str, float] = {}

    def __call__(self, user: str, password: str) -> bool:
        key = (user or "").strip().lower()
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
