"""A login ends after LOGIN_IDLE_S unused or LOGIN_MAX_AGE_S in all (ui/login_route.py):
a reviewer found tokens lasting until a logout, a password change or `user disable`, so a
token taken from a browser served its thief for ever. Gradio's token table is its app's
`tokens` dict (the part of Gradio the login route writes to, ui/workarounds.py
GRADIO_LOGIN_ON_LOOP); the clock is the route's own, passed in."""
from __future__ import annotations

import time
from types import SimpleNamespace

from domain import limits
from ui.device_cookie import DeviceCookies
from ui.login_route import LoginRoute
from ui.login_throttle import LoginThrottle


def route_with_login(store):
    store.add_user("rita", "researcher", "lifetime-pw-1")
    route = LoginRoute(store.check_password, LoginThrottle(), DeviceCookies(b"k" * 32),
                       store.get_user)
    app = SimpleNamespace(tokens={}, cookie_id="test")
    route.logged_in({"app": app}, "rita", False, store.get_user("rita")["login_epoch"])
    return route, app, next(iter(app.tokens))


def test_a_login_in_use_lasts_and_an_unused_one_ends(store):
    route, app, token = route_with_login(store)
    assert route.current(app, token) == "rita"
    now = time.monotonic()
    assert route._lasts(token, now + limits.LOGIN_IDLE_S - 60)
    assert not route._lasts(token, now + limits.LOGIN_IDLE_S + 60)
    # idle too long: forgotten, by Gradio's table too
    route.times[token][1] -= limits.LOGIN_IDLE_S + 1
    assert route.current(app, token) is None
    assert token not in app.tokens and token not in route.times


def test_a_login_used_all_along_still_ends_at_its_maximum_age(store):
    route, app, token = route_with_login(store)
    route.times[token][0] -= limits.LOGIN_MAX_AGE_S + 1      # started over a week ago
    assert route.current(app, token) is None and token not in app.tokens


def test_ended_logins_are_not_kept_in_memory(store):
    route, app, old = route_with_login(store)
    route.times[old][1] -= limits.LOGIN_IDLE_S + 1
    route.logged_in({"app": app}, "rita", False, store.get_user("rita")["login_epoch"])
    assert old not in app.tokens and old not in route.times and len(app.tokens) == 1
