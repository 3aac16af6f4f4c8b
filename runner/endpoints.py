"""Endpoints as the user meets them: "Test connection", the API key, readable failures.

`test_endpoint(store, name)` is what the CLI's `endpoint test` and the UI's button call: it
lists the endpoint's models, times it, and says precisely why it failed (nothing listening,
a refused key and which environment variable it came from, a wrong base URL, an unknown
model, a timeout). Keys are read from the environment at the moment of use and never
returned, logged or stored. A message never quotes what the server sent (its error text may
echo the key or carry hostile text): status, error class, model count; the model ids are in
the report's `models` list, as data, for the CLI's --json.
"""
from __future__ import annotations

import asyncio
import os
import time

from runner.client import ChatClient, RequestFailed

TEST_TIMEOUT = 10.0


def api_key_for(endpoint: dict) -> tuple[str | None, str | None]:
    """(key, problem): the key from the endpoint's environment variable, or why there is none.
    An endpoint without `api_key_env` needs no key (local vLLM, Ollama)."""
    env = endpoint.get("api_key_env")
    if not env:
        return None, None
    key = os.environ.get(env, "").strip()
    if not key:
        return None, (f"environment variable {env} (the API key of endpoint "
                      f"{endpoint.get('name')}) is not set or empty")
    return key, None


def classify(failure: RequestFailed) -> str:
    if failure.status == 401:
        return "unauthorized"
    if failure.status == 403:
        return "forbidden"
    if failure.status == 404:
        return "not_found"
    if failure.status is None:
        if failure.reason.startswith("cannot connect"):
            return "connection_refused"
        if failure.reason.startswith("timed out"):
            return "timeout"
        if failure.reason.startswith("malformed"):
            return "malformed"
    return "http_error"


def explain_failure(failure: RequestFailed, endpoint: dict) -> str:
    """One readable sentence: which endpoint, what went wrong, what to check."""
    where = f"endpoint {endpoint.get('name')} ({endpoint.get('base_url')}, model " \
            f"{endpoint.get('model')})"
    kind, env = classify(failure), endpoint.get("api_key_env")
    hints = {
        "connection_refused": "nothing answers at that address: is the server running?",
        "unauthorized": (f"the server refused the API key from environment variable {env}"
                         if env else "the server wants an API key: set one with "
                         "`endpoint edit NAME --api-key-env VAR`"),
        "forbidden": (f"the key from {env} is not allowed to use this model" if env
                      else "access denied"),
        "not_found": "the base URL (it usually ends in /v1) or the model id is wrong",
        "timeout": "no answer within the timeout",
        "malformed": "the reply is not an OpenAI-compatible body",
    }
    hint = hints.get(kind, "")
    return f"{where}: {failure.reason}" + (f" ({hint})" if hint else "")


def model_listed(model: str, models: list[str]) -> bool:
    """Gemini's compatible API lists 'models/<id>' while requests use '<id>'."""
    return model in models or f"models/{model}" in models


async def preflight(client: ChatClient, endpoint: dict) -> str | None:
    """A free check before a run pays for anything: the reason the endpoint cannot work
    (nothing listening, key refused), else None. A server without /models or a slow one
    is given the benefit of the doubt."""
    try:
        await asyncio.wait_for(client.list_models(), TEST_TIMEOUT)
    except RequestFailed as failure:
        if classify(failure) in ("connection_refused", "unauthorized", "forbidden"):
            return explain_failure(failure, endpoint)
    except asyncio.TimeoutError:
        pass
    return None


def models_listed(models: list) -> str:
    """'1 model listed', '2 models listed' (the count only: the ids are the server's text)."""
    return f"{len(models)} model{'' if len(models) == 1 else 's'} listed"


async def test_endpoint_async(endpoint: dict) -> dict:
    out = {"ok": False, "name": endpoint.get("name"), "base_url": endpoint.get("base_url"),
           "model": endpoint.get("model"), "api_key_env": endpoint.get("api_key_env"),
           "latency_ms": None, "models": [], "model_listed": None, "kind": None,
           "message": ""}
    key, problem = api_key_for(endpoint)
    if problem:
        return dict(out, kind="missing_key", message=problem)
    client = ChatClient(endpoint["base_url"], key, timeout=TEST_TIMEOUT, max_connections=1)
    started = time.monotonic()
    try:
        models = await client.list_models()
    except RequestFailed as failure:
        return dict(out, kind=classify(failure), message=explain_failure(failure, endpoint),
                    latency_ms=round((time.monotonic() - started) * 1000, 1))
    finally:
        await client.close()
    latency = round((time.monotonic() - started) * 1000, 1)
    listed = model_listed(endpoint["model"], models)
    out.update(latency_ms=latency, models=models, model_listed=listed)
    if not listed:      # the count only: model ids are the server's text (module docstring)
        return dict(out, kind="unknown_model",
                    message=f"endpoint {endpoint['name']} answers in {latency:.0f} ms but does "
                            f"not serve model {endpoint['model']!r} ({models_listed(models)}"
                            "; `endpoint test NAME --json` lists them)")
    return dict(out, ok=True, kind="ok",
                message=f"endpoint {endpoint['name']} answers in {latency:.0f} ms and serves "
                        f"{endpoint['model']} ({models_listed(models)})")


def test_endpoint(store, name: str) -> dict:
    """Test connection (blocking; call from a worker thread, not from inside an event loop).

    Returns {"ok", "name", "base_url", "model", "api_key_env", "latency_ms", "models",
    "model_listed", "kind", "message"}; `kind` is ok | missing_key | connection_refused |
    unauthorized | forbidden | not_found | unknown_model | timeout | malformed | http_error.
    """
    return asyncio.run(test_endpoint_async(store.get_endpoint(name)))
