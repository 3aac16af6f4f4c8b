"""Experiments tab, part 1: endpoints, prices, the run form, preview and start.

Plain functions of plain values (the wiring in experiments_tab unpacks widgets and turns
ExperimentError into an on-screen message). API keys: only the NAME of the environment
variable is ever stored or shown; whatever reaches the page goes through `redact`, which
replaces the value of every endpoint's key variable, as a second line of defence.
"""
from __future__ import annotations

import os
import re

from runner.config import ConfigError, Execution, RunConfig
from store import NotFoundError, StoreError
from ui.browser_handlers import ALL
from ui.text import escape_html, escape_md

ENDPOINT_HEADERS = ["name", "base URL", "model", "key env var", "key set", "concurrency",
                    "max image pixels"]
PRICE_HEADERS = ["model pattern", "input $/1M", "output $/1M", "updated"]
CLUE_SOURCES = ["none", "gt", "run", "self"]
CLUE_SOURCE_LABELS = [("none", "none"), ("GT clues", "gt"), ("another run's clues", "run"),
                      ("the model's own clues (first pass)", "self")]
MMR_LIFE = {"temperature": 0.5, "top_p": 0.5, "seed": 17}
RUN_FIELDS = ("endpoint", "setting", "clues", "clue_run", "clue_pass", "image_mode",
              "mask_style", "samples", "repeats", "temperature", "top_p", "max_tokens", "seed",
              "preset", "image_max_pixels", "image_format", "image_quality", "dataset",
              "domain", "subtask", "status", "flagged", "ids", "budget", "deadline")
"""The run form, in the order of the widgets and of the API's parameters."""
FATAL_KINDS = ("missing_key", "connection_refused", "unauthorized", "forbidden")
"""Test results that stop a start: the engine's preflight would fail on them too."""
_LOOKS_LIKE_KEY = re.compile(r"(?=.*[a-z])(?=.*[0-9])[A-Za-z0-9_]{20,}")


class ExperimentError(ValueError):
    """A problem with what the user asked for; shown as a message, never a traceback."""


def code(text) -> str:
    """Inline code in Markdown for untrusted text. An HTML <code> element, not backticks
    (backslash escapes would show inside `…`); its content is still Markdown, so it gets
    escape_md: a model id `[x](http://…)` from a server's /models list is no link."""
    return f"<code>{escape_md(text)}</code>"


def _blank(value) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _int(value, name: str, default=None):
    if _blank(value):
        return default
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ExperimentError(f"{name}: {value!r} is not a number") from None
    if number != int(number):
        raise ExperimentError(f"{name}: must be a whole number, not {value}")
    return int(number)


def _float(value, name: str):
    if _blank(value):
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        raise ExperimentError(f"{name}: {value!r} is not a number") from None


def key_values(store, extra_env: tuple[str, ...] = ()) -> list[str]:
    """The secret values behind every endpoint's key variable, and behind `extra_env` (a
    form's variable not saved yet), to strip them from output."""
    names = {e["api_key_env"] for e in store.list_endpoints() if e.get("api_key_env")}
    names |= {n for n in extra_env if n}
    return [v for v in (os.environ.get(n, "").strip() for n in names) if len(v) >= 4]


def redact(store, value, extra_env: tuple[str, ...] = ()):
    """`value` (str, or nested lists/dicts of them) with every key value replaced by ***."""
    secrets = key_values(store, extra_env)
    if not secrets:
        return value

    def clean(v):
        if isinstance(v, str):
            for secret in secrets:
                v = v.replace(secret, "***")
            return v
        if isinstance(v, list):
            return [clean(x) for x in v]
        if isinstance(v, tuple):
            return tuple(clean(x) for x in v)
        if isinstance(v, dict):
            return {k: clean(x) for k, x in v.items()}
        return v

    return clean(value)


# ---- endpoints ---------------------------------------------------------------------------
def endpoint_rows(store) -> list[list]:
    return [[e["name"], e["base_url"], e["model"], e["api_key_env"] or "",
             ("yes" if os.environ.get(e["api_key_env"], "").strip() else "NOT SET")
             if e["api_key_env"] else "no key needed",
             e["concurrency"], e["max_image_pixels"] or ""]
            for e in store.list_endpoints()]


def endpoint_names(store) -> list[str]:
    return [e["name"] for e in store.list_endpoints()]


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
              "concurrency": _int(concurrency, "concurrency", 8),
              "max_image_pixels": _int(max_pixels, "max image pixels")}
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
    return endpoint


def test_connection(store, name: str, base_url=None, model=None, api_key_env=None) -> dict:
    """runner.endpoints.test_endpoint, as {"ok", "kind", "message" (Markdown), ...}: of the
    values given (the form's, before saving), else of the saved endpoint `name`."""
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
    lines = [f"{mark} **{escape_md(result['kind'])}**: {escape_md(result['message'])}"]
    if result.get("latency_ms") is not None:
        lines.append(f"latency {result['latency_ms']:.0f} ms")
    if result.get("models"):
        shown = ", ".join(code(m) for m in result["models"][:30])
        more = len(result["models"]) - 30
        lines.append(f"models: {shown}" + (f" … and {more} more" if more > 0 else ""))
    return dict(result, markdown="  \n".join(lines))


# ---- prices ------------------------------------------------------------------------------
def price_rows(store) -> list[list]:
    return [[p["pattern"], p["input_per_m"], p["output_per_m"], p["updated_at"]]
            for p in store.list_prices()]


def save_price(store, pattern, input_per_m, output_per_m) -> str:
    try:
        store.set_price((pattern or "").strip(), _float(input_per_m, "input price"),
                        _float(output_per_m, "output price"))
    except StoreError as err:
        raise ExperimentError(str(err)) from None
    return f"Price for {pattern.strip()} saved."


def delete_price(store, pattern) -> str:
    try:
        store.delete_price((pattern or "").strip())
    except StoreError as err:
        raise ExperimentError(str(err)) from None
    return f"Price for {pattern} deleted."


# ---- the run form --------------------------------------------------------------------------
def _pick(value):
    return None if _blank(value) or value == ALL else value


def config_from_form(form: dict) -> tuple[RunConfig, Execution]:
    """RunConfig and Execution from the form's values (keys: RUN_FIELDS)."""
    clues = form.get("clues") or "none"
    if clues == "run":
        if _blank(form.get("clue_run")):
            raise ExperimentError("clue source 'another run': choose the run whose clues to "
                                  "inject")
        clues = "run:" + str(form["clue_run"]).strip()
    ids = [i for i in re.split(r"[\s,]+", form.get("ids") or "") if i]
    flagged = {"flagged": True, "not flagged": False}.get(form.get("flagged"))
    filters = {k: v for k in ("dataset", "domain", "subtask", "status")
               if (v := _pick(form.get(k))) is not None}
    if flagged is not None:
        filters["flagged"] = flagged
    config = RunConfig(
        endpoint=(form.get("endpoint") or "").strip(), setting=form.get("setting") or "cot",
        clues=clues, clue_pass_setting=form.get("clue_pass") or "clue_guided",
        image_mode=form.get("image_mode") or "full", mask_style=form.get("mask_style") or "black",
        samples=_int(form.get("samples"), "samples", 1),
        repeats=_int(form.get("repeats"), "repeats", 1),
        temperature=_float(form.get("temperature"), "temperature"),
        top_p=_float(form.get("top_p"), "top_p"),
        max_tokens=_int(form.get("max_tokens"), "max tokens"),
        seed=_int(form.get("seed"), "seed"),
        preset=_pick(form.get("preset")) if form.get("preset") != "none" else None,
        image_max_pixels=_int(form.get("image_max_pixels"), "image max pixels"),
        image_format=form.get("image_format") or "jpeg",
        image_quality=_int(form.get("image_quality"), "image quality", 90),
        filters={} if ids else filters, ids=ids or None)
    if not config.endpoint:
        raise ExperimentError("choose an endpoint (add one in the Endpoints panel first)")
    execution = Execution(budget=_float(form.get("budget"), "budget"),
                          deadline=_float(form.get("deadline"), "deadline"))
    return config, execution


def plan(store, form: dict):
    """The RunPlan of the form (nothing is written but default prompt templates)."""
    from runner.planning import plan_run

    config, execution = config_from_form(form)
    try:
        return plan_run(store, config, execution)
    except (ConfigError, StoreError) as err:
        raise ExperimentError(str(err)) from None


def projection_md(the_plan) -> str:
    p, model = the_plan.projection, the_plan.endpoint["model"]
    if p["priced"]:
        cost = f"**${p['cost']:.4f}** typical, ${p['cost_max']:.4f} at most (max_tokens bound)"
    else:
        cost = (f"**unknown**: no price for model {code(model)}; add one in "
                "Prices below (0 for a local server)")
    lines = [f"**{len(the_plan.items)} items** · {p['work']} work rows · {p['requests']} "
             f"requests, {p['cached']} already cached, **{p['to_send']} to send**",
             f"~{p['prompt_tokens']:,} prompt tokens, ~{p['completion_tokens']:,} completion "
             f"tokens to send · projected cost {cost}",
             f"token estimate: {escape_md(p['basis'])}",
             f"config id {code(the_plan.config_id[:16])}"]
    warnings = list(the_plan.warnings)
    if the_plan.execution.budget is not None and not p["priced"]:
        warnings.append("a budget needs a price for the model: the run cannot start")
    lines += [f"⚠ {escape_md(w)}" for w in warnings]
    return "  \n".join(lines)


def start_run(store, form: dict, user: str) -> dict:
    """Plan, check the endpoint, create the run and start it in its own process.

    Returns {"run_id", "message", "warning"}; raises ExperimentError (nothing created) for
    a bad form or an endpoint that cannot work (nothing listening, missing or refused key).
    """
    from runner.background import start_detached
    from runner.endpoints import test_endpoint
    from runner.planning import create_run

    the_plan = plan(store, form)
    if the_plan.execution.budget is not None and not the_plan.projection["priced"]:
        raise ExperimentError(f"a budget needs a price for model {the_plan.endpoint['model']}: "
                              "add one in Prices")
    check = redact(store, test_endpoint(store, the_plan.endpoint["name"]))
    if check["kind"] in FATAL_KINDS:
        raise ExperimentError(f"not started: {check['message']}")
    warning = None if check["ok"] else f"endpoint check: {check['message']} (starting anyway)"
    run_id = create_run(store, the_plan, author=user)
    start_detached(store.path.resolve(), run_id)
    return {"run_id": run_id, "warning": warning,
            "message": f"Run {run_id} started: {len(the_plan.work)} work rows, "
                       f"{the_plan.projection['to_send']} to send. It runs in its own process: "
                       "closing the browser does not stop it."}
