"""Experiments page: the endpoints and prices panels, and Test connection.

Plain functions of plain values (the wiring in experiments_tab unpacks widgets and turns
ExperimentError into an on-screen message).
"""
from __future__ import annotations

import os
import re

from store import NotFoundError, StoreError, ValidationError
from store.runner_endpoints import check_base_url
from ui.experiments_common import ExperimentError, as_float, as_int, redact
from ui.page_words import on_page
from ui.table_fit import fitted_widths
from ui.text import escape_md

ENDPOINT_HEADERS = ["name", "base URL", "model", "key variable", "key set"]
# The list at 1400x900, in the run form's column (~630 px) and the list's font: a name, base
# URL, model id and key variable each on one line (seven columns broke them anywhere: a vLLM
# model id stood as a column of three-letter lines). The widths follow the endpoints listed
# (ui/table_fit.fitted_widths): each column as wide as its values on one line while the room
# holds them, "key set" wrapping at its spaces first; a value longer than the room left is cut with an
# ellipsis, whole in its tooltip (assets/cluelab.css, assets/cell_titles.js) and in the form
# a click on the row fills, with the endpoint's concurrency and image limit.
ONE_LINE = (0, 1, 2, 3)
ENDPOINT_ROOM, ENDPOINT_FONT_PX = 630, 12
TYPICAL_ENDPOINT = ["openai-gpt-4o", "https://api.openai.com/v1", "gpt-4o-2024-08-06",
                    "OPENAI_API_KEY", "NOT SET"]


def endpoint_widths(rows: list[list]) -> list[str]:
    """The list's column widths for these rows (a typical endpoint's while there is none)."""
    return fitted_widths(ENDPOINT_HEADERS, rows or [TYPICAL_ENDPOINT], ENDPOINT_ROOM,
                         ENDPOINT_FONT_PX, ONE_LINE)


ENDPOINT_WIDTHS = endpoint_widths([])
PRICE_HEADERS = ["model pattern", "input $/1M", "output $/1M", "updated"]
_LOOKS_LIKE_KEY = re.compile(r"(?=.*[a-z])(?=.*[0-9])[A-Za-z0-9_]{20,}")


def endpoint_rows(store) -> list[list]:
    return [[e["name"], e["base_url"], e["model"], e["api_key_env"] or "",
             ("yes" if os.environ.get(e["api_key_env"], "").strip() else "NOT SET")
             if e["api_key_env"] else "no key needed"]
            for e in store.list_endpoints()]


def endpoint_names(store) -> list[str]:
    return [e["name"] for e in store.list_endpoints()]


def default_endpoint(store, names: list[str]) -> str | None:
    """The endpoint the tab starts on: the one the latest run that reached its endpoint used
    (a reply received from it, not from the cache: a run that failed to reach it preselected
    a dead endpoint), else the only one, else none (the user chooses): never the
    alphabetically first of several, which may be dead."""
    for run in store.list_runs(limit=20):
        if run["endpoint"] in names and _reached(run.get("totals") or {}):
            return run["endpoint"]
    return names[0] if len(names) == 1 else None


def run_endpoint_after(chosen, names: list[str]):
    """The run form's endpoint after the endpoints list changed (one saved or deleted): the
    one chosen while it still exists. Saving a judge's endpoint switched the run form to it,
    and a run could start on the judge unnoticed; deleting one moved it to the first by name.
    With none chosen (or the chosen one deleted), the only endpoint, else none: the user
    chooses."""
    if chosen and chosen in names:
        return chosen
    return names[0] if len(names) == 1 else None


def _reached(totals: dict) -> bool:
    """Did the run get a reply from its endpoint (not only from the cache)?"""
    replies = sum(totals.get(k) or 0 for k in ("ok", "refused", "truncated", "unparsed"))
    return replies > (totals.get("cached") or 0)


def endpoint_form(store, name: str) -> list:
    """[name, base_url, model, key env var, concurrency, max image pixels] of one endpoint."""
    try:
        e = store.get_endpoint(name)
    except NotFoundError as err:
        raise ExperimentError(str(err)) from None
    return [e["name"], e["base_url"], e["model"], e["api_key_env"] or "", e["concurrency"],
            e["max_image_pixels"] or ""]


def _key_env(api_key_env) -> str:
    """The key variable's name from the form; refused when it looks like a key itself."""
    env = (api_key_env or "").strip()
    if env and (_LOOKS_LIKE_KEY.fullmatch(env) or env.lower().startswith(("sk-", "sk_"))):
        raise ExperimentError("key env var: give the NAME of the environment variable that "
                              "holds the key (e.g. OPENAI_API_KEY), never the key itself")
    return env


def save_endpoint(store, name, base_url, model, api_key_env, concurrency, max_pixels) -> str:
    """Add the endpoint, or update it when the name exists; returns what was done."""
    name, env = (name or "").strip(), _key_env(api_key_env)
    if not name:
        raise ExperimentError("give the endpoint a name")
    fields = {"base_url": (base_url or "").strip(), "model": (model or "").strip(),
              "api_key_env": env or None,
              "concurrency": as_int(concurrency, "concurrency", 8),
              "max_image_pixels": as_int(max_pixels, "max image pixels")}
    try:
        if name in endpoint_names(store):
            store.update_endpoint(name, **fields)
            return f"Endpoint {name} updated."
        store.add_endpoint(name, **fields)
        return f"Endpoint {name} added."
    except StoreError as err:
        raise ExperimentError(str(err)) from None


def delete_endpoint(store, name: str) -> str:
    try:
        store.delete_endpoint((name or "").strip())
    except StoreError as err:
        raise ExperimentError(str(err)) from None
    return f"Endpoint {name} deleted (runs keep their own copy of it)."


def form_endpoint(name, base_url, model, api_key_env) -> dict:
    """The endpoint the form describes, saved or not (what Test connection tries)."""
    endpoint = {"name": (name or "").strip() or "(unsaved)",
                "base_url": (base_url or "").strip(), "model": (model or "").strip(),
                "api_key_env": _key_env(api_key_env) or None}
    if not endpoint["base_url"]:
        raise ExperimentError("give the endpoint's base URL (e.g. http://localhost:8000/v1)")
    if not endpoint["model"]:
        raise ExperimentError("give the model id the endpoint serves")
    try:
        check_base_url(endpoint["name"], endpoint["base_url"])
    except ValidationError as err:
        raise ExperimentError(str(err)) from None
    return endpoint


def test_connection(store, name: str, base_url=None, model=None, api_key_env=None) -> dict:
    """runner.endpoints.test_endpoint, as {"ok", "kind", "message", "markdown", ...}: of the
    values given (the form's, before saving), else of the saved endpoint `name`. The
    markdown says what kind of answer came and how fast, never what the server wrote (not
    even its model ids: the message counts them)."""
    import asyncio

    from runner.endpoints import test_endpoint_async

    if base_url is None and model is None:
        if not (name or "").strip():
            raise ExperimentError("choose an endpoint to test (click its row or type its name)")
        try:
            endpoint = store.get_endpoint(name.strip())
        except NotFoundError as err:
            raise ExperimentError(str(err)) from None
    else:
        endpoint = form_endpoint(name, base_url, model, api_key_env)
    result = redact(store, asyncio.run(test_endpoint_async(endpoint)),
                    (endpoint.get("api_key_env") or "",))
    mark = "✓" if result["ok"] else "✗"
    lines = [f"{mark} **{escape_md(result['kind'])}**: {escape_md(on_page(result['message']))}"]
    if result.get("latency_ms") is not None and " ms" not in result["message"]:  # said once
        lines.append(f"latency {result['latency_ms']:.0f} ms")
    return dict(result, markdown="  \n".join(lines))


# ---- prices ------------------------------------------------------------------------------
def price_rows(store) -> list[list]:
    return [[p["pattern"], p["input_per_m"], p["output_per_m"], p["updated_at"]]
            for p in store.list_prices()]


def save_price(store, pattern, input_per_m, output_per_m) -> str:
    try:
        store.set_price((pattern or "").strip(), as_float(input_per_m, "input price"),
                        as_float(output_per_m, "output price"))
    except StoreError as err:
        raise ExperimentError(str(err)) from None
    return f"Price for {pattern.strip()} saved."


def delete_price(store, pattern) -> str:
    try:
        store.delete_price((pattern or "").strip())
    except StoreError as err:
        raise ExperimentError(str(err)) from None
    return f"Price for {pattern} deleted."


EDIT_HINT = "Click a row to edit it"


def list_label(what: str, who) -> str:
    """The label over the endpoints or prices list (`what`): 'Click a row to edit it' for one
    who may set them up (`access.Caller`), else who may ('Only admin may edit these endpoints:
    you use them'): a researcher was invited to click a row they may not edit."""
    from ui import access

    if access.may(who, "save_endpoint"):
        return EDIT_HINT
    return (f"Only {access.roles_that_may('save_endpoint')} may edit these {what}; you may "
            "use them")
