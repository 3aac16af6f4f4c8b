"""Who is using the app, for author fields: the logged-in user, or `local` without a login.

The name is only a name. What a user may do is decided by the access table (ui/access.py)
before any handler runs; a user named `local` under a login is an ordinary user.
"""
from __future__ import annotations

import gradio as gr

LOCAL_USER = "local"


def user_of(request: gr.Request | None) -> str:
    return (getattr(request, "username", None) or LOCAL_USER) if request else LOCAL_USER


def login_name(request: gr.Request | None) -> str | None:
    """The logged-in user's name; None in local mode, whose one user owns everything."""
    return getattr(request, "username", None) if request else None


def browser_session(request: gr.Request | None) -> str | None:
    """Which page load (browser tab) sent the event: two tabs of one user are two sessions,
    so one tab's draft is never silently replaced by the other's (store/drafts.py)."""
    return getattr(request, "session_hash", None) if request else None
