"""ChatClient: one attempt at an OpenAI-compatible chat completion over aiohttp.

We talk HTTP ourselves instead of using the OpenAI SDK so that (1) nothing retries behind our back
(retry.py owns that, and every retry is accounted), (2) failures come out classified in one
exception type, and (3) the CPU per request stays small at high concurrency (no pydantic models;
the body is encoded once with the stdlib json module and sent as bytes).

Every failure is a RequestFailed whose `reason` names the URL and what went wrong, and never
contains the API key: the key is only ever in the Authorization header, and any text that came
back from the server (which may echo the header) is scrubbed before it goes into a reason.
"""
from __future__ import annotations

import asyncio
import email.utils
import json
import math
import time
from dataclasses import dataclass, field

import aiohttp

ERROR_TEXT_LIMIT = 300  # characters of a server's error message kept in a reason
RETRYABLE_STATUSES = frozenset({408, 409, 429})


def is_retryable_status(status: int) -> bool:
    """True for the HTTP statuses a later attempt can fix: 408, 409, 429 and every 5xx."""
    return status in RETRYABLE_STATUSES or 500 <= status <= 599


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a Retry-After header: delta-seconds ("2", "1.5") or an HTTP-date.

    Returns None when the header is absent or unreadable, 0.0 for a date in the past. `now` (epoch
    seconds) is only for tests.
    """
    if value is None:
        return None
    value = value.strip()
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if when is None:
            return None
        now = time.time() if now is None else now
        return max(0.0, when.timestamp() - now)
    if not math.isfinite(seconds):
        return None
    return max(0.0, seconds)


@dataclass
class ChatResult:
    """A successful completion. `raw` is the parsed response body (assembled for streams)."""
    text: str
    finish_reason: str | None
    prompt_tokens: int | None
    completion_tokens: int | None
    latency: float
    raw: dict = field(repr=False)
    refusal: str | None = None  # message.refusal when the model declined (OpenAI-style)


class RequestFailed(Exception):
    """One failed attempt, classified for retry.py.

    status: HTTP status, or None for timeouts, connection errors and malformed bodies.
    retryable: 408, 409, 429, 5xx, timeouts, connection errors and malformed bodies.
    retry_after: seconds the server asked us to wait (Retry-After), if it did.
    reason: readable, names the URL, never contains the API key.
    """

    def __init__(self, reason: str, *, status: int | None = None, retryable: bool = False,
                 retry_after: float | None = None):
        super().__init__(reason)
        self.reason = reason
        self.status = status
        self.retryable = retryable
        self.retry_after = retry_after

    def __str__(self) -> str:
        return self.reason


class ChatClient:
    """A connection pool to one OpenAI-compatible base URL (e.g. "http://host:8000/v1").

    The aiohttp session is created on first use inside the running event loop and reused, so
    connections stay alive between requests; `max_connections` bounds the pool, `timeout` is the
    total seconds for one attempt (connect, send, wait, read; the whole stream for chat_stream).
    """

    def __init__(self, base_url: str, api_key: str | None = None, *, timeout: float = 120.0,
                 max_connections: int = 64):
        if not base_url.startswith(("http://", "https://")):
            raise ValueError(f"base URL must start with http:// or https://, got {base_url!r}")
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
        body, latency = await self._send("POST", url, body, request_id, self._read_json)
        return _result_from_body(body, url, latency, self._redact)

    async def chat_stream(self, payload: dict, *, request_id: str | None = None) -> ChatResult:
        """Same as chat() with "stream": true; the SSE chunks are assembled into one result.

        Asks for usage in the last chunk (stream_options.include_usage) unless the payload says
        otherwise.
        """
        url = self.base_url + "/chat/completions"
        payload = {**payload, "stream": True}
        payload.setdefault("stream_options", {"include_usage": True})
        body, latency = await self._send("POST", url, encode_json(payload), request_id,
                                         self._read_stream)
        return _result_from_body(body, url, latency, self._redact)

    async def list_models(self) -> list[str]:
        """GET {base}/models: the model ids the endpoint serves."""
        url = self.base_url + "/models"
        body, _ = await self._send("GET", url, None, None, self._read_json)
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
                    raise _http_failure(response.status, response.headers,
                                        await response.read(), url, self._redact)
                parsed = await read(response, url)
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
            raise RequestFailed(self._redact(
                f"connection to {url} failed: {type(error).__name__}: {error}"),
                retryable=True) from None
        return parsed, time.monotonic() - started

    async def _read_json(self, response: aiohttp.ClientResponse, url: str) -> dict:
        raw = await response.read()
        try:
            body = json.loads(raw)
        except ValueError:
            raise RequestFailed(self._redact(
                f"malformed body from {url}: not JSON: {_snippet(raw)}"), retryable=True) from None
        if not isinstance(body, dict):
            raise RequestFailed(f"malformed body from {url}: not a JSON object", retryable=True)
        return body

    async def _read_stream(self, response: aiohttp.ClientResponse, url: str) -> dict:
        """Assemble SSE `data:` chunks into the shape of a non-streamed response body."""
        parts: list[str] = []
        refusal: list[str] = []
        finish_reason = None
        usage = None
        first: dict = {}
        done = saw_choice = False
        try:
            async for line in response.content:
                line = line.strip()
                if not line.startswith(b"data:"):
                    continue  # blank separators, ": keep-alive" comments, event:/id: fields
                data = line[5:].strip()
                if data == b"[DONE]":
                    done = True
                    break
                chunk = json.loads(data)
                if not isinstance(chunk, dict):
                    raise ValueError("chunk is not an object")
                if chunk.get("error"):
                    raise RequestFailed(self._redact(
                        f"error in stream from {url}: {_error_message(chunk)}"), retryable=True)
                first = first or chunk
                for choice in chunk.get("choices") or ():
                    if choice.get("index", 0) != 0:
                        continue
                    saw_choice = True
                    delta = choice.get("delta") or {}
                    if delta.get("content"):
                        parts.append(delta["content"])
                    if delta.get("refusal"):
                        refusal.append(delta["refusal"])
                    finish_reason = choice.get("finish_reason") or finish_reason
                usage = chunk.get("usage") or usage
        except ValueError as error:  # bad JSON in a chunk, or a line too long for the reader
            raise RequestFailed(self._redact(f"malformed stream from {url}: {error}"),
                                retryable=True) from None
        if not done and finish_reason is None:
            raise RequestFailed(f"malformed stream from {url}: ended before [DONE]",
                                retryable=True)
        if not saw_choice:
            raise RequestFailed(f"malformed stream from {url}: no choices", retryable=True)
        message = {"role": "assistant", "content": "".join(parts),
                   "refusal": "".join(refusal) or None}
        return {"id": first.get("id"), "object": "chat.completion", "model": first.get("model"),
                "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
                "usage": usage}


def encode_json(value) -> bytes:
    """A request body as sent: compact JSON, ASCII."""
    return json.dumps(value, separators=(",", ":")).encode()


def _snippet(raw: bytes) -> str:
    text = raw[:ERROR_TEXT_LIMIT].decode("utf-8", "replace").strip()
    return repr(text) if text else "(empty)"


def _error_message(body) -> str:
    """The message of an OpenAI-style {"error": {"message": ...}} body, or a short snippet."""
    if isinstance(body, dict):
        error = body.get("error")
        if isinstance(error, dict) and error.get("message"):
            return str(error["message"])[:ERROR_TEXT_LIMIT]
        if isinstance(error, str):
            return error[:ERROR_TEXT_LIMIT]
        if body.get("message"):
            return str(body["message"])[:ERROR_TEXT_LIMIT]
    return str(body)[:ERROR_TEXT_LIMIT]


def _http_failure(status: int, headers, raw: bytes, url: str, redact) -> RequestFailed:
    try:
        message = _error_message(json.loads(raw))
    except ValueError:
        message = _snippet(raw)
    retry_after = parse_retry_after(headers.get("Retry-After"))
    if retry_after is None and headers.get("retry-after-ms"):
        ms = parse_retry_after(headers.get("retry-after-ms"))
        retry_after = None if ms is None else ms / 1000
    return RequestFailed(redact(f"HTTP {status} from {url}: {message}"), status=status,
                         retryable=is_retryable_status(status), retry_after=retry_after)


def _result_from_body(body: dict, url: str, latency: float, redact) -> ChatResult:
    choices = body.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        detail = f": {_error_message(body)}" if body.get("error") else ": no choices"
        raise RequestFailed(redact(f"malformed body from {url}{detail}"), retryable=True)
    choice = choices[0]
    message = choice.get("message")
    if not isinstance(message, dict):
        raise RequestFailed(f"malformed body from {url}: choice without a message",
                            retryable=True)
    content = message.get("content")
    if isinstance(content, list):  # some servers answer with content parts
        content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
    usage = body.get("usage") if isinstance(body.get("usage"), dict) else {}
    return ChatResult(text=content if isinstance(content, str) else "",
                      finish_reason=choice.get("finish_reason"),
                      prompt_tokens=usage.get("prompt_tokens"),
                      completion_tokens=usage.get("completion_tokens"),
                      latency=latency, raw=body, refusal=message.get("refusal") or None)
