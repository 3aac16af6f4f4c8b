"""Failed logins slow an attacker down, in memory that stays bounded.

Three kinds of record, each answering "may this attempt be tried now, and if not, for how
long not":
- a user name from an address: after FREE_TRIES wrong passwords every attempt for that name
  from there fails for FIRST_LOCK_S, doubling with each further failure up to LONGEST_LOCK_S
  (counted per name *and address*: per name alone, anyone could lock the admin out);
- an address, whatever the names: a bucket that holds ADDRESS_FAILURES failures and empties
  by one every ADDRESS_LEAK_S. A fresh name each time never met the per-name lock, so one
  client could make the server hash passwords as fast as it could send them (200 logins with
  random names made an annotator's load_item take 28 s); now, once the bucket is full, such
  a client gets one try per ADDRESS_LEAK_S;
- a device: a browser that once logged in as that name holds a signed device cookie for it
  (ui/device_cookie.py, OWASP's "device cookies"). Its attempts for that name are judged by
  its own record only, so nobody sharing its address (all users of a proxy, or loopback) can
  lock it out, the admin included; its own failures lock that cookie alone, as a name is.

Records are forgotten FORGET_AFTER_S after their last lock ended (a bucket: once empty), and
there are never more than MAX_RECORDS: the least recently failed go first. The throttle
hashes nothing and reads nothing; ui/login_route.py asks it before and tells it after each
password check.
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

FREE_TRIES = 5            # wrong passwords for a name (or with a device) before its first lock
FIRST_LOCK_S = 30.0       # then locked for 30 s, doubling with each further failure
LONGEST_LOCK_S = 900.0    # at most 15 minutes
ADDRESS_FAILURES = 20     # failures from one address, any names, before it must slow down
ADDRESS_LEAK_S = 30.0     # ... to one per 30 s (120 an hour for all the users behind it)
FORGET_AFTER_S = LONGEST_LOCK_S
MAX_RECORDS = 10_000


@dataclass
class Record:
    """Failures of one name-and-address, device or address. `until`: locked until then."""
    failures: float = 0.0
    last: float = 0.0
    until: float = 0.0


def name_key(name: str, address: str) -> tuple:
    return ("name", (name or "").strip().lower(), address)


class LoginThrottle:
    def __init__(self, clock=time.monotonic, max_records: int = MAX_RECORDS):
        self.clock = clock
        self.max_records = max_records
        self.lock = threading.Lock()
        self.records: OrderedDict[tuple, Record] = OrderedDict()

    def __len__(self) -> int:
        return len(self.records)

    def wait_s(self, name: str, address: str, device: str | None = None) -> float:
        """Seconds until `name` may be tried from `address` (0: now). `device`: the id of a
        device cookie valid for `name`, whose attempts only its own record limits."""
        now = self.clock()
        with self.lock:
            if device is not None:
                return self._left(("device", device), now)
            return max(self._left(name_key(name, address), now),
                       self._left(("address", address), now))

    def failed(self, name: str, address: str, device: str | None = None) -> None:
        now = self.clock()
        with self.lock:
            if device is not None:
                self._strike(("device", device), now)
            else:
                self._strike(name_key(name, address), now)
                self._fill(("address", address), now)
            self._prune(now)

    def succeeded(self, name: str, address: str, device: str | None = None) -> None:
        """A right password clears its name's (or device's) record; the address's bucket
        still empties only with time, so logging in to one's own account between guesses
        at others gains nothing."""
        with self.lock:
            self.records.pop(("device", device) if device is not None
                             else name_key(name, address), None)

    def _left(self, key: tuple, now: float) -> float:
        record = self.records.get(key)
        if record is None:
            return 0.0
        if key[0] == "address":
            over = self._level(record, now) - (ADDRESS_FAILURES - 1)
            return max(0.0, over * ADDRESS_LEAK_S)
        return max(0.0, record.until - now)

    @staticmethod
    def _level(bucket: Record, now: float) -> float:
        return max(0.0, bucket.failures - (now - bucket.last) / ADDRESS_LEAK_S)

    def _strike(self, key: tuple, now: float) -> None:
        record = self._touch(key)
        record.failures += 1
        record.last = now
        if record.failures >= FREE_TRIES:
            lock = FIRST_LOCK_S * 2 ** min(record.failures - FREE_TRIES, 10)
            record.until = now + min(LONGEST_LOCK_S, lock)

    def _fill(self, key: tuple, now: float) -> None:
        bucket = self._touch(key)
        bucket.failures = self._level(bucket, now) + 1
        bucket.last = now

    def _touch(self, key: tuple) -> Record:
        """The record of `key`, made the most recently failed."""
        record = self.records.pop(key, None) or Record()
        self.records[key] = record
        return record

    def _forgotten(self, key: tuple, record: Record, now: float) -> bool:
        if key[0] == "address":
            return self._level(record, now) == 0
        return now >= max(record.until, record.last) + FORGET_AFTER_S

    def _prune(self, now: float) -> None:
        """Drop records from the least recently failed on: over MAX_RECORDS, or forgotten."""
        while self.records:
            key, record = next(iter(self.records.items()))
            if len(self.records) <= self.max_records and not self._forgotten(key, record, now):
                return
            del self.records[key]
