"""What came back from one attempt at an OpenAI-compatible endpoint, read and classified.

client.py does the talking; this module turns what the server sent into a ChatResult, or into a
RequestFailed that says whether another attempt can help (retry.py decides on that): an HTTP
error status with its Retry-After, a body that is not JSON, a stream that breaks off.

A reason never quotes what the server sent: it is stored with the run, shown in the UI and
the CLI, and a server's error body may echo the Authorization header, carry other secrets or
hostile text. A reason says the status, the URL and what kind of answer it was; of an
OpenAI-style error it keeps only the error's type or code when that is a plain identifier
(`context_length_exceeded`, `invalid_request_error`), which says what to fix. Reasons still
pass through the caller's `redact`, as a second line of defence.
"""
from __future__ import annotations

import email.utils
import json
import math
import re
import time
from dataclasses import dataclass, field

import aiohttp

ERROR_CLASS = re.compile(r"[A-Za-z_]{1,40}")
"""An error type or code a reason may name: letters and underscores only (no key, no URL)."""
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


async def read_json(response: aiohttp.ClientResponse, url: str, redact) -> dict:
    """The body as a JSON object; RequestFailed (retryable) when it is not one."""
    raw = await response.read()
    try:
        body = json.loads(raw)
    except ValueError:
        raise RequestFailed(f"malformed body from {url}: not JSON ({len(raw)} bytes)",
                            retryable=True) from None
    if not isinstance(body, dict):
        raise RequestFailed(f"malformed body from {url}: not a JSON object", retryable=True)
    return body


async def read_stream(response: aiohttp.ClientResponse, url: str, redact) -> dict:
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
                raise RequestFailed(redact(f"error in stream from {url}{error_class(chunk)}"),
                                    retryable=True)
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
    except ValueError:  # bad JSON in a chunk, or a line too long for the reader
        raise RequestFailed(f"malformed stream from {url}: a chunk that is not a JSON object",
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


def error_class(body) -> str:
    """" (type)" of an OpenAI-style {"error": {"type", "code"}} body when it is a plain
    identifier, else "": never the error's message, which is the server's own text."""
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        return ""
    names = [str(error[key]) for key in ("code", "type") if error.get(key) is not None]
    named = [n for n in names if ERROR_CLASS.fullmatch(n)]
    return f" ({named[0]})" if named else ""


def http_failure(status: int, headers, raw: bytes, url: str, redact) -> RequestFailed:
    """A non-2xx reply as a RequestFailed: its status and error class (never the body),
    whether to retry, and how long the server asked us to wait (Retry-After, or the
    retry-after-ms some servers send)."""
    try:
        kind = error_class(json.loads(raw))
    except ValueError:
        kind = ""
    retry_after = parse_retry_after(headers.get("Retry-After"))
    if retry_after is None and headers.get("retry-after-ms"):
        ms = parse_retry_after(headers.get("retry-after-ms"))
        retry_after = None if ms is None else ms / 1000
    return RequestFailed(redact(f"HTTP {status} from {url}{kind}"), status=status,
                         retryable=is_retryable_status(status), retry_after=retry_after)


def result_from_body(body: dict, url: str, latency: float, redact) -> ChatResult:
    """The first choice of a completion body (JSON or assembled from a stream); a body
    without one is malformed, and worth another attempt."""
    choices = body.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        detail = (f": an error instead of choices{error_class(body)}" if body.get("error")
                  else ": no choices")
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
