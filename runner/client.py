"""ChatClient: one attempt at an OpenAI-compatible chat completion over aiohttp.

We talk HTTP ourselves instead of using the OpenAI SDK so that (1) nothing retries behind our back
(retry.py owns that, and every retry is accounted), (2) failures come out classified in one
exception type, and (3) the CPU per request stays small at high concurrency (no pydantic models;
the body is encoded once with the stdlib json module and sent as bytes).

Every failure is a RequestFailed whose `reason` names the URL and what went wrong, and never
contains the API key: the key is only ever in the Authorization header, and no text that came
back from the server (which may echo the header) goes into a reason (replies.py).
This module makes the connection and sends the request; replies.py reads what comes back
(JSON body or SSE stream) and classifies the failures.
"""
from __future__ import annotations

import asyncio
import json
import time
from urllib.parse import urlsplit

import aiohttp

# The result and failure types and the reading of replies live in replies.py; they are
# re-exported here because callers know them as part of the client.
from runner.replies import (ChatResult, RequestFailed, http_failure,  # noqa: F401
                            is_retryable_status, parse_retry_after, read_json, read_stream,
                            result_from_body)


class ChatClient:
    """A connection pool to one OpenAI-compatible base URL (e.g. "http://host:8000/v1").

    The aiohttp session is created on first use inside the running event loop and reused, so
    connections stay alive between requests; `max_connections` bounds the pool, `timeout` is the
    total seconds for one attempt (connect, send, wait, read; the whole stream for chat_stream).
    """

    def __init__(self, base_url: str, api_key: str | None = None, *, timeout: float = 120.0,
                 max_connections: int = 64):
        if not base_url.startswith(("http://", "https://")):    # not quoted: it may be a key
            raise ValueError("base URL must start with http:// or https://")
        if "@" in urlsplit(base_url).netloc:       # messages name the URL: no credentials in it
            raise ValueError("base URL holds a user name or password (user:pass@host); give "
                             "the key through an environment variable instead")
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.max_connections = max_connections
        self._api_key = api_key or None
        self._session: aiohttp.ClientSession | None = None

    def __repr__(self) -> str:  # no key here, ever
        return f"ChatClient({self.base_url!r}, timeout={self.timeout}, " \
               f"max_connections={self.max_connections})"

    async def __aenter__(self) -> "ChatClient":
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    async def chat(self, payload: dict | bytes, *, request_id: str | None = None) -> ChatResult:
        """POST {base}/chat/completions once and return the first choice. The payload may
        come encoded already (bytes, as encode_json() makes them), e.g. to reuse it."""
        url = self.base_url + "/chat/completions"
        body = payload if isinstance(payload, bytes) else encode_json(payload)
        body, latency = await self._send("POST", url, body, request_id, read_json)
        return result_from_body(body, url, latency, self._redact)

    async def chat_stream(self, payload: dict, *, request_id: str | None = None) -> ChatResult:
        """Same as chat() with "stream": true; the SSE chunks are assembled into one result.

        Asks for usage in the last chunk (stream_options.include_usage) unless the payload says
        otherwise.
        """
        url = self.base_url + "/chat/completions"
        payload = {**payload, "stream": True}
        payload.setdefault("stream_options", {"include_usage": True})
        body, latency = await self._send("POST", url, encode_json(payload), request_id,
                                         read_stream)
        return result_from_body(body, url, latency, self._redact)

    async def list_models(self) -> list[str]:
        """GET {base}/models: the model ids the endpoint serves."""
        url = self.base_url + "/models"
        body, _ = await self._send("GET", url, None, None, read_json)
        data = body.get("data")
        if not isinstance(data, list):
            raise RequestFailed(f"malformed model list from {url}: no 'data' list",
                                retryable=True)
        return [str(m.get("id")) for m in data if isinstance(m, dict) and m.get("id")]

    async def close(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()
        self._session = None

    # -- plumbing -----------------------------------------------------------------------------

    def _session_now(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            headers = {"Content-Type": "application/json", "Accept": "application/json"}
            if self._api_key:
                headers["Authorization"] = f"Bearer {self._api_key}"
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self.max_connections, ttl_dns_cache=300),
                timeout=aiohttp.ClientTimeout(total=self.timeout), headers=headers)
        return self._session

    def _redact(self, text: str) -> str:
        return text.replace(self._api_key, "***") if self._api_key else text

    async def _send(self, method: str, url: str, body: bytes | None, request_id: str | None,
                    read) -> tuple[dict, float]:
        """One HTTP exchange; every way it can fail becomes a classified RequestFailed."""
        session = self._session_now()
        headers = {"X-Request-Id": request_id} if request_id else None
        started = time.monotonic()
        try:
            async with session.request(method, url, data=body, headers=headers) as response:
                if not 200 <= response.status < 300:
                    raise http_failure(response.status, response.headers,
                                       await response.read(), url, self._redact)
                parsed = await read(response, url, self._redact)
        except RequestFailed:
            raise
        except (asyncio.TimeoutError, TimeoutError):
            raise RequestFailed(f"timed out after {self.timeout:g} s waiting for {url}",
                                retryable=True) from None
        except aiohttp.InvalidURL:
            raise RequestFailed(f"invalid URL {url}", retryable=False) from None
        except aiohttp.ClientConnectorError as error:
            cause = (error.os_error.strerror or str(error.os_error)) if error.os_error else ""
            raise RequestFailed(self._redact(f"cannot connect to {url}: {cause or error}"),
                                retryable=True) from None
        except aiohttp.ClientError as error:
            # the class only: aiohttp's text of a protocol error can quote the server's bytes
            raise RequestFailed(f"connection to {url} failed: {type(error).__name__}",
                                retryable=True) from None
        return parsed, time.monotonic() - started


def encode_json(value) -> bytes:
    """A request body as sent: compact JSON, ASCII."""
    return json.dumps(value, separators=(",", ":")).encode()
