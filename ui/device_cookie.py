"""Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): a browser
that logged in as a name once is known when it logs in as that name again.

Failed logins lock a name per address (ui/login_throttle.py), and on a shared server every
user may have the same address (one proxy, or loopback): five wrong passwords for `admin`
sent by anyone there kept the admin out, for good if repeated once per lock. A successful
login now sets a cookie naming a random device id and when it expires, signed (HMAC-SHA256)
for the user name with a server secret; an attempt for that name that presents it is judged
by that device's own failures, not by the name's lock.

The cookie does not carry the name (the signature binds it), is HttpOnly and SameSite=Lax
(Secure too when the request came over https). The secret is 32 random bytes in a file
beside the database, `<db stem>-login.key` (mode 0600), made at the first start: not in the
database, so not in its copies or dumps, and never logged. Deleting it (then restarting)
makes every device cookie worthless.
"""
from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import time
from pathlib import Path

COOKIE = "cluelab-device"
MAX_AGE_S = 180 * 24 * 3600
"""A device cookie is good for 180 days from the last successful login it came with."""


def key_file(db_path: str | Path) -> Path:
    path = Path(db_path)
    return path.with_name(f"{path.stem}-login.key")


def load_key(path: Path) -> bytes:
    """The server's secret, made (readable by its owner only) if there is none yet."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return bytes.fromhex(path.read_text(encoding="ascii").strip())
    with os.fdopen(fd, "w", encoding="ascii") as out:
        key = secrets.token_bytes(32)
        out.write(key.hex())
    return key


class DeviceCookies:
    def __init__(self, key: bytes, clock=time.time):
        self.key = key
        self.clock = clock

    def _signature(self, name: str, device: str, expires: int) -> str:
        message = f"{name.strip()}\n{device}\n{expires}".encode("utf-8")
        return hmac.new(self.key, message, hashlib.sha256).hexdigest()

    def issue(self, name: str) -> str:
        """A new cookie value for `name`: `<device id>.<expires>.<signature>`."""
        device, expires = secrets.token_urlsafe(16), int(self.clock() + MAX_AGE_S)
        return f"{device}.{expires}.{self._signature(name, device, expires)}"

    def device(self, value: str | None, name: str) -> str | None:
        """The device id of a cookie value that is signed for `name` and not expired."""
        parts = (value or "").split(".")
        if len(parts) != 3 or not parts[1].isdigit() or int(parts[1]) < self.clock():
            return None
        device, expires, signature = parts
        good = hmac.compare_digest(signature, self._signature(name, device, int(expires)))
        return device if good else None

    @staticmethod
    def set_cookie(value: str, secure: bool) -> tuple[bytes, bytes]:
        """The Set-Cookie header that gives a browser `value`."""
        cookie = f"{COOKIE}={value}; Max-Age={MAX_AGE_S}; Path=/; HttpOnly; SameSite=Lax"
        return b"set-cookie", (cookie + ("; Secure" if secure else "")).encode("latin-1")
