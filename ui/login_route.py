"""POST /login under `--auth`, answered by ClueLab instead of Gradio.

Gradio's /login is an `async def` that calls the app's synchronous check itself, on the
event loop: every attempt stopped the whole server for a scrypt hash (~70 ms here). 200
attempts with random names, 16 at a time, made an annotator's load_item take 28 s, and a
fresh name each time never met the per-name lock. Here:
- the lock is asked first (ui/login_throttle.py): a locked attempt is answered 429 with the
  wait, without hashing;
- hashes run in worker threads, at most HASHES_AT_ONCE at a time (half the cores): a flood
  of logins waits for its own turn while everyone else's events keep a core; the lock is
  asked again once an attempt's turn comes, so a flood already over its address's limit
  while it waited is answered at once; and one address holds at most PLACES_PER_ADDRESS
  places in that line, its further logins waiting behind its own (right passwords meet no
  lock: a flood of them held everyone's login up);
- a success gets Gradio's own login cookies (a token in Gradio's table, as its /login
  makes: ui/gradio_hooks.cookie_user reads them back) and a device cookie for the name
  (ui/device_cookie.py), which exempts this browser from that name's lock later;
- a login lasts while its account is enabled and keeps the password it was made with
  (`current`): each remembers the account's login epoch (store/users.py) read before its
  password was checked, and once `user disable` or `user password` moved it on, the
  login's next request finds it over and forgets it (the server and the command line are
  separate processes: the database is what they share).
The answers are Gradio's: 200 {"success": true}, 400 "Incorrect credentials.", and ClueLab's
429 (assets/login_lock.js shows its reason on Gradio's login page). Listed in
ui/workarounds.py (GRADIO_LOGIN_ON_LOOP); tests/test_access.py checks the Gradio internals.
"""
from __future__ import annotations

import asyncio
import math
import os
import secrets
import time
from typing import Callable

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse

from domain import limits
from store import NotFoundError
from ui import device_cookie, route_answers
from ui.login_throttle import LoginThrottle
from ui.quiet_log import shown

HASHES_AT_ONCE = max(1, (os.cpu_count() or 2) // 2)
PLACES_PER_ADDRESS = 4
"""Places one address holds in the line of password checks; its further logins wait behind
its own. The hashes are few at a time for everyone: 240 threads logging in with a right
password (no lock stops those) filled the line, and another user's login waited 11 s."""
REFUSED = {"detail": "Incorrect credentials."}
"""Gradio's answer to a wrong name or password (its login page shows its own text on a 400)."""


def locked(wait: float) -> dict:
    return {"detail": ("Too many failed logins from your address or browser: try again in "
                       f"{math.ceil(wait)} s.")}


class LoginRoute:
    def __init__(self, check: Callable[[str, str], bool], throttle: LoginThrottle,
                 devices: device_cookie.DeviceCookies, account: Callable[[str], dict]):
        self.check = check              # (name, password) -> bool: the store's, ~70 ms
        self.throttle = throttle
        self.devices = devices
        self.account = account          # name -> the store's user row (NotFoundError)
        self.hashing = asyncio.Semaphore(HASHES_AT_ONCE)
        self.lines: dict[str, list] = {}    # address: [its places (a semaphore), logins]
        self.epochs: dict[str, int] = {}     # token: its account's login epoch at login
        self.times: dict[str, list[float]] = {}  # token: [logged in, last used] (monotonic)

    async def __call__(self, scope, receive, send) -> None:
        length = dict(scope.get("headers", [])).get(b"content-length", b"0")
        if not length.isdigit() or int(length) > route_answers.MAX_CANCEL_BODY or \
                (body := await route_answers.read_body(receive)) is None:
            return await route_answers.send_json(send, 413, route_answers.SMALL_TOO_LARGE)
        if body is route_answers.CUT_OFF:
            return                      # the client went: no answer, no login checked
        request = Request(scope, route_answers.replay(body))
        try:
            form = await request.form()
            name, password = str(form.get("username") or "").strip(), form.get("password")
        except Exception:  # noqa: BLE001 - a body that is no form: no name, no password
            name, password = "", None
        if not name or not isinstance(password, str) or not password:
            return await route_answers.send_json(send, 400, REFUSED)
        address = (scope.get("client") or ("", 0))[0]
        device = self.devices.device(request.cookies.get(device_cookie.COOKIE), name)
        if (wait := self.throttle.wait_s(name, address, device)) > 0:
            self._log_failure(name, address, "while locked")
            return await route_answers.send_json(send, 429, locked(wait))
        line = self.lines.setdefault(address, [asyncio.Semaphore(PLACES_PER_ADDRESS), 0])
        line[1] += 1
        try:
            async with line[0], self.hashing:
                if (wait := self.throttle.wait_s(name, address, device)) > 0:
                    return await route_answers.send_json(send, 429, locked(wait))
                epoch = self._epoch(name)   # before the check: a change after it ends it
                ok = await anyio.to_thread.run_sync(self.check, name, password)
        finally:
            line[1] -= 1
            if not line[1]:
                del self.lines[address]
        if not ok:
            self.throttle.failed(name, address, device)
            self._log_failure(name, address)
            return await route_answers.send_json(send, 400, REFUSED)
        self.throttle.succeeded(name, address, device)
        await self.logged_in(scope, name, request.url.scheme == "https", epoch)(
            scope, receive, send)

    def _log_failure(self, name: str, address: str, locked_out: str = "") -> None:
        """A failed login in the server's log, so an admin sees a guessing attack (there was
        no line for 40 failures and their locks): the account when it exists, else "an
        unknown name" (a password typed into the name box is never written down), and the
        address, at most a line a minute per address, kind and account, the others counted."""
        try:
            self.account(name)
            who = f"account {shown(name)}"
        except NotFoundError:
            who = "an unknown name"
        kind = "refused a login" + (f" {locked_out}" if locked_out else "")
        route_answers.quiet.warning((kind, address, who), f"{kind} for {who} from address "
                                    f"{shown(address) or '(unknown)'}",
                                    held="failed logins from that address")

    def _epoch(self, name: str) -> int | None:
        try:
            return self.account(name)["login_epoch"]
        except NotFoundError:
            return None

    def current(self, app, token: str) -> str | None:
        """The account of the login `token` while it lasts: None (and the token forgotten,
        by Gradio too) once its account is gone or disabled, or its password changed."""
        name = app.tokens.get(token)
        try:
            user = self.account(name) if name else None
        except NotFoundError:
            user = None
        if user is not None and user["disabled_at"] is None and \
                self.epochs.get(token) == user["login_epoch"] and self._lasts(token):
            self.times[token][1] = time.monotonic()
            return name
        self._forget(app, token)
        return None

    def _lasts(self, token: str, now: float | None = None) -> bool:
        """Whether the login is within LOGIN_IDLE_S of its last use and LOGIN_MAX_AGE_S of
        its start: a token taken from a browser lasted until a logout, a password change or
        `user disable`."""
        now = time.monotonic() if now is None else now
        started, used = self.times.get(token, (0.0, 0.0))
        return token in self.times and now - used <= limits.LOGIN_IDLE_S and \
            now - started <= limits.LOGIN_MAX_AGE_S

    def _forget(self, app, token: str) -> None:
        app.tokens.pop(token, None)
        self.epochs.pop(token, None)
        self.times.pop(token, None)

    def logged_in(self, scope, name: str, secure: bool, epoch: int | None) -> JSONResponse:
        """Gradio's answer to a right password (routes.py, `login`): a new token for `name`
        in its table, in its two cookies; with this server's device cookie for `name`."""
        app = scope["app"]
        token = secrets.token_urlsafe(16)
        now = time.monotonic()
        for old in [t for t in self.times if not self._lasts(t, now)]:
            self._forget(app, old)          # ended logins no longer held in memory
        app.tokens[token] = name
        self.epochs[token] = epoch
        self.times[token] = [now, now]
        response = JSONResponse({"success": True})
        response.set_cookie(f"access-token-{app.cookie_id}", token, httponly=True,
                            samesite="none", secure=True)
        response.set_cookie(f"access-token-unsecure-{app.cookie_id}", token, httponly=True)
        response.raw_headers.append(self.devices.set_cookie(self.devices.issue(name), secure))
        return response
