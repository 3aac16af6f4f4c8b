"""Who is using the app: the logged-in user, or `local` in single-user mode."""
from __future__ import annotations

import gradio as gr

from store import NotFoundError

LOCAL_USER = "local"
EDIT_ROLES = {"admin", "researcher", "annotator"}


def user_of(request: gr.Request | None) -> str:
    return (getattr(request, "username", None) or LOCAL_USER) if request else LOCAL_USER


def require_editor(store, request: gr.Request | None) -> str:
    """The user's name, if their role may change items; participants may not."""
    user = user_of(request)
    if user == LOCAL_USER:
        return user
    try:
        record = store.get_user(user)
    except NotFoundError:
        record = None
    if not record or record["role"] not in EDIT_ROLES:
        raise gr.Error(f"{user} may not edit items (role {record['role'] if record else 'none'})")
    return user


RUN_ROLES = {"admin", "researcher"}


def require_researcher(store, request: gr.Request | None, action: str = "run models") -> str:
    """The user's name, if their role may configure endpoints and create or control runs
    (admin, researcher; `local` in single-user mode). Anyone may watch runs."""
    user = user_of(request)
    if user == LOCAL_USER:
        return user
    try:
        record = store.get_user(user)
    except NotFoundError:
        record = None
    if not record or record["role"] not in RUN_ROLES:
        raise gr.Error(f"{user} may not {action} (role {record['role'] if record else 'none'}; "
                       "admins and researchers may)")
    return user
