"""Who is using the app: the logged-in user, or `local` in single-user mode."""
from __future__ import annotations

import gradio as gr

from store import NotFoundError

LOCAL_USER = "local"
EDIT_ROLES = {"admin", "researcher", "annotator"}
RUN_ROLES = {"admin", "researcher"}


def user_of(request: gr.Request | None) -> str:
    return (getattr(request, "username", None) or LOCAL_USER) if request else LOCAL_USER


def _require_role(store, request: gr.Request | None, roles: set[str], action: str,
                  who_may: str = "") -> str:
    """The user's name if their role is one of `roles` (`local` always is); else an error."""
    user = user_of(request)
    if user == LOCAL_USER:
        return user
    try:
        role = store.get_user(user)["role"]
    except NotFoundError:
        role = "none"
    if role not in roles:
        raise gr.Error(f"{user} may not {action} (role {role}{who_may})")
    return user


def require_editor(store, request: gr.Request | None) -> str:
    """The user's name, if their role may change items; participants may not."""
    return _require_role(store, request, EDIT_ROLES, "edit items")


def require_researcher(store, request: gr.Request | None, action: str = "run models") -> str:
    """The user's name, if their role may configure endpoints and create or control runs
    (admin, researcher; `local` in single-user mode). Anyone may watch runs."""
    return _require_role(store, request, RUN_ROLES, action, "; admins and researchers may")
